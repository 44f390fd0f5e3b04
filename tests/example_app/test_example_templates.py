"""The example app sets its pages' titles and descriptions where a Flask
site writes them, in its templates (``{% do head(title=...) %}``), not in
its views (issue 26); its pages' titles are tested in test_example_pages."""

from __future__ import annotations

import ast
import re
from pathlib import Path

EXAMPLE = Path(__file__).parent.parent.parent / "example_app"


def test_no_view_sets_a_title_or_a_description() -> None:
    found = []
    for path in sorted(EXAMPLE.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "head":
                names = {keyword.arg for keyword in node.keywords}
                if names & {"title", "description"}:
                    found.append(f"{path.name}:{node.lineno}")
    assert found == []


def test_every_page_template_sets_its_title_and_description() -> None:
    pages = [
        path
        for path in sorted((EXAMPLE / "templates").rglob("*.html"))
        if path.name != "base.html"
    ]
    assert len(pages) >= 7
    for path in pages:
        text = path.read_text(encoding="utf-8")
        calls = re.findall(r"\{%-?\s*do\s+head\((.*?)\)\s*-?%\}", text, re.DOTALL)
        assert any("title=" in call for call in calls), path.name
        assert any("description=" in call for call in calls), path.name
