"""What one app's sitemap caches say in the log when things fail, shared by
all of them (the site's build, each paged route's boundaries and parts):

- a failing build is logged with its traceback once per route and cause,
  then in one line per failure, and once when it works again;
- the shared store's outage is said once (with its cause), and its return
  once, whichever file met it.

A sweep of 70 parts during a database outage is then one traceback and 69
short lines, not 70 tracebacks of 150 lines each.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from ..._log import logger
from ..report import failure


class Health:
    """The log's memory for one app's sitemap (see the module)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._said: set[tuple[str, str]] = set()
        # The files whose last build failed, by route (or "the sitemap").
        self._failing: dict[str, set[str]] = {}
        self._store_down = False
        # Held while an outage or a recovery is said (see store).
        self._store_lock = threading.Lock()

    def failed(self, group: str, name: str, error: BaseException, after: str) -> None:
        """Log a failed build of ``name`` (of ``group``: its route, or the
        sitemap); ``after`` says what happens meanwhile."""
        # The traceback is logged once per innermost cause (what wraps it).
        inner, seen = error, set()
        while inner.__cause__ is not None and id(inner) not in seen:
            seen.add(id(inner))
            inner = inner.__cause__
        cause = f"{type(inner).__name__}: {str(inner)[:200]}"
        with self._lock:
            first = (group, cause) not in self._said
            self._said.add((group, cause))
            self._failing.setdefault(group, set()).add(name)
        logger.error(
            "Building %s failed (%s); %s."
            if first
            else "Building %s failed (%s, logged with its traceback before); %s.",
            name,
            failure(error) if first else cause,
            after,
            exc_info=first,
        )

    def worked(self, group: str, name: str) -> None:
        """A build of ``name`` worked: said once, when it was the last of
        its group (route) failing."""
        with self._lock:
            failing = self._failing.get(group)
            if not failing or name not in failing:
                return
            failing.discard(name)
            if failing:
                return
            del self._failing[group]
            self._said = {said for said in self._said if said[0] != group}
        logger.info("Building %s works again.", name)

    def store(self, down: bool, say: Callable[[], object]) -> None:
        """The shared store cannot be reached (``down``), or answered:
        ``say()`` when that is news.

        Said before the news is let go: a thread that meets the store next
        waits until it is logged, so no request that met the outage is
        answered before the log says so, and a recovery is never logged
        before the outage."""
        with self._store_lock:
            if self._store_down != down:
                self._store_down = down
                say()
