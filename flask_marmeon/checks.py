"""The start-up checks: each subsystem registers its own, the edge runs them.

Modelled on Django's system checks: a check is a function of the app that
returns its problems; each :class:`Problem` has an id of its own (``"routing.E001"``:
the subsystem, ``E`` and a number that is never reused) and a hint that says
how to fix it. Each subsystem registers its checks in its own ``init_app``
(``state.checks.register(check)``); the registry is per app, so
two apps in one process never share a check.

Every problem stops the start with the same code, H10: before the app answers
its first request the edge (``_edge.raise_on_problems``) raises one
:class:`~flask_marmeon.StartupError` naming them all.
``flask marmeon check-routes`` prints the same list, with ids and hints.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from flask import Flask

from .errors import StartupError

#: The code every start-up problem stops the start with (the specification's).
STARTUP_CODE = "H10"


@dataclass(frozen=True)
class Problem:
    """One reason why the app cannot start (code H10)."""

    #: Stable id of this kind of problem, ``"<subsystem>.E<number>"``.
    id: str
    #: What is wrong.
    message: str
    #: How to fix it ("" when the message says it).
    hint: str = ""
    #: The route's rule (``"/notes/<int:note_id>"``), or None for the app.
    rule: str | None = None
    #: The route's endpoint, or None for the app.
    endpoint: str | None = None
    #: The specification's code.
    code: str = STARTUP_CODE

    @property
    def reason(self) -> str:
        """What is wrong and how to fix it, in one sentence."""
        return f"{self.message}: {self.hint}" if self.hint else self.message

    @property
    def where(self) -> str:
        """``"route '/notes/<int:note_id>' (endpoint 'show') "``, or "" for the app."""
        if self.rule is None:
            return ""
        return f"route {self.rule!r} (endpoint {self.endpoint!r}) "

    def __str__(self) -> str:
        return f"{self.where}{self.reason} [{self.id}]"


#: A start-up check: the app in, its problems out (none when all is well).
Check = Callable[[Flask], Iterable[Problem]]


@dataclass(eq=False)
class Checks:
    """The app's start-up checks, in the order they were registered
    (``MarmeonState.checks``)."""

    registered: list[Check] = field(default_factory=list)

    def register(self, check: Check) -> None:
        """Run ``check`` at start-up."""
        if any(known is check for known in self.registered):
            raise RuntimeError(f"The start-up check {check!r} is registered already.")
        self.registered.append(check)

    def run(self, app: Flask) -> list[Problem]:
        """Every problem of ``app`` found by the checks, in registration order."""
        return [problem for check in self.registered for problem in check(app)]


def startup_error(problems: list[Problem]) -> StartupError:
    """The StartupError that names every problem at once."""
    count = len(problems)
    lines = "\n".join(f"  - {problem}" for problem in problems)
    noun = "problem" if count == 1 else "problems"
    return StartupError(
        f"The app cannot start: its routes and settings have {count} {noun}:\n{lines}",
        code=STARTUP_CODE,
        problems=[str(problem) for problem in problems],
    )
