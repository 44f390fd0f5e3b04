"""The head: fields -> merge -> resolve -> render (stub, see issue 2)."""

from __future__ import annotations

from markupsafe import Markup


def render_head() -> Markup:
    """Render the merged head of the current request."""
    return Markup("")
