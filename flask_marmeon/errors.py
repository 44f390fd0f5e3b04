"""Errors that flask_marmeon raises for an application's mistakes."""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Sequence
from typing import Any


class StartupError(RuntimeError):
    """The application is configured in a way that cannot serve correct pages.

    Raised while the app is built, and in any case before it answers its first
    request. :attr:`code` is the specification's code (``"H10"`` for the
    sitemap and ``APP_URL`` checks); :attr:`problems` lists every problem found,
    one message each, so that one start shows all of them at once.
    """

    #: The app whose problems these are, when :func:`raise_on_problems`
    #: raised the error (``flask marmeon check-routes`` still prints that
    #: app's table when its factory stopped), else None.
    app: Any = None

    def __init__(
        self, message: str, *, code: str = "H10", problems: Iterable[str] = ()
    ) -> None:
        self.code = code
        self.problems: tuple[str, ...] = tuple(problems) or (message,)
        super().__init__(f"[{code}] {message}")


def did_you_mean(value: str, choices: Sequence[str]) -> str:
    """`` Did you mean 'x'?`` for the choice closest to ``value``, else ""."""
    close = difflib.get_close_matches(value, choices, n=1)
    return f" Did you mean {close[0]!r}?" if close else ""


def install_hint(extra: str = "") -> str:
    """How to install flask_marmeon (with ``extra``), for the messages that
    suggest an install: the package is not on PyPI yet, so from a checkout
    of the repository or a wheel built from one (``pip wheel``)."""
    wanted = f"[{extra}]" if extra else ""
    wheel = f"dist/flask_marmeon-<version>-py3-none-any.whl{wanted}"
    return (
        f'pip install "/path/to/checkout{wanted}" (a checkout of the'
        f' repository) or pip install "{wheel}" (a built wheel); once it is'
        f' published, pip install "flask-marmeon{wanted}"'
    )
