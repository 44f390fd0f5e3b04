"""head(**fields): validation (stub, see issue 2)."""

from __future__ import annotations


class HeadFragment:
    """One head() call, validated."""
