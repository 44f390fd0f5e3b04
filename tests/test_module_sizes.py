"""Every module of the package stays small enough to read in one sitting
(ARCHITECTURE.md and the house style: none over 400 lines). A module that
outgrows it is split by what its parts do, not trimmed of comments."""

from __future__ import annotations

from pathlib import Path

import flask_marmeon

PACKAGE = Path(flask_marmeon.__file__).parent
MOST_LINES = 400


def test_no_module_of_the_package_is_over_400_lines() -> None:
    sizes = {
        path.relative_to(PACKAGE).as_posix(): len(path.read_text().splitlines())
        for path in PACKAGE.rglob("*.py")
    }
    assert len(sizes) > 100  # the walk found the package's modules
    too_long = {name: lines for name, lines in sizes.items() if lines > MOST_LINES}
    assert not too_long, f"split these modules by what their parts do: {too_long}"
