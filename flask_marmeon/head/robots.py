"""The content of ``<meta name="robots">``, from the merged ``robots`` keys."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def robots_content(
    robots: Mapping[str, Any] | None,
    directives: tuple[tuple[str, str], ...],
    *,
    indexable: bool = True,
) -> str | None:
    """``index``/``noindex``, ``follow``/``nofollow``, then Google's directives.

    ``directives`` are ``(key, form)`` in output order (the robots table's,
    :mod:`flask_marmeon.head.table`), the form ``"max-snippet:{}"`` or a word.

    Only what is set is written; a boolean directive only when True. When
    the site is not ``indexable`` (MARMEON_INDEXABLE), it starts with
    ``noindex, nofollow`` whatever the page set, its other directives after.
    """
    if robots is None:
        return None if indexable else "noindex, nofollow"
    if indexable:
        parts = []
        index = robots.get("index")
        if index is not None:
            parts.append("index" if index else "noindex")
        follow = robots.get("follow")
        if follow is not None:
            parts.append("follow" if follow else "nofollow")
    else:
        parts = ["noindex", "nofollow"]
    if len(robots) > ("index" in robots) + ("follow" in robots):
        # Google's directives, when any is set (most pages set none).
        for key, form in directives:
            value = robots.get(key)
            if value is not None and value is not False:
                parts.append(form.format(value))
    return ", ".join(parts) if parts else None


def noindex(robots: Mapping[str, Any] | None, *, indexable: bool = True) -> bool:
    """Whether the robots meta says ``noindex`` (the page's or the site's)."""
    return not indexable or (robots is not None and robots.get("index") is False)
