"""Under mypy, the public types refuse what the head cannot take (typing_check.py)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

api = pytest.importorskip("mypy.api")

CHECK = Path(__file__).with_name("typing_check.py")
ROOT = Path(__file__).parents[2]


def test_mypy_refuses_exactly_the_marked_lines(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    stdout, stderr, _ = api.run(
        ["--strict", "--no-error-summary", str(CHECK.relative_to(ROOT))]
    )
    errors: dict[int, str] = {}
    for line in stdout.splitlines():
        match = re.match(r".*typing_check\.py:(\d+): error: (.*)", line)
        if match:
            errors[int(match.group(1))] = match.group(2)
    marked = {
        number: line.split("# E:")[1].strip()
        for number, line in enumerate(CHECK.read_text().splitlines(), start=1)
        if "# E:" in line
    }
    assert set(errors) == set(marked), (stdout, stderr)
    datetime_line = next(n for n, what in marked.items() if what == "datetime")
    function_line = next(n for n, what in marked.items() if what == "function")
    assert '"datetime"' in errors[datetime_line]
    assert "function" in errors[function_line]
