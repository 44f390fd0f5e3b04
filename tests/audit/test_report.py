"""The report: stable order, grouped table, JSON, and the codes' table."""

from __future__ import annotations

import json
from pathlib import Path

from flask_marmeon.audit import CODES, Finding, Report
from flask_marmeon.audit.findings import Code, option
from flask_marmeon.audit.run import merge_linked


def test_every_code_has_a_severity_and_a_meaning_and_is_documented() -> None:
    # og-url-missing was dropped: a code never comes back with another meaning.
    assert "og-url-missing" not in CODES
    docs = (Path(__file__).parents[2] / "docs" / "audit.rst").read_text()
    assert [code for code in CODES if f"``{code}``" not in docs] == []
    for code, (severity, meaning) in CODES.items():
        assert code == code.lower() and " " not in code
        assert severity in ("error", "warning")
        assert meaning


def _docs_rows() -> dict[str, str]:
    """docs/audit.rst's code tables: code -> the text of its row."""
    docs = (Path(__file__).parents[2] / "docs" / "audit.rst").read_text()
    rows: dict[str, str] = {}
    code = None
    for line in docs.splitlines():
        if line.startswith("``") and line.find("``", 2) > 0:
            code = line[2 : line.find("``", 2)]
            rows[code] = line
        elif code is not None and line.startswith(" " * 28):
            rows[code] += line
        else:
            code = None
    return rows


def test_the_docs_name_each_threshold_as_its_code_declares_it() -> None:
    rows = _docs_rows()
    declared = {code: e.options for code, e in CODES.items() if isinstance(e, Code)}
    assert {"title-too-long", "description-too-short", "image-too-small"} <= {
        code for code, options in declared.items() if options
    }
    for code, options in declared.items():
        for name, value in options.items():
            assert f"{value:,}" in rows[code], f"docs/audit.rst: {code} {name}"
    # The meaning the report prints names its threshold, from the same place.
    assert str(option("title-too-long", "chars")) in CODES["title-too-long"][1]


def report() -> Report:
    return Report.of(
        3,
        [
            Finding("title-too-long", "warning", "https://n.example/b", "Long."),
            Finding("page-status", "error", "https://n.example/c", "Answers 404."),
            Finding("title-too-long", "warning", "https://n.example/a", "Long."),
            Finding("page-status", "error", "https://n.example/c", "Answers 404."),
        ],
    )


def test_findings_are_ordered_errors_first_and_repeats_removed() -> None:
    found = report()
    assert [(f.code, f.url) for f in found.findings] == [
        ("page-status", "https://n.example/c"),
        ("title-too-long", "https://n.example/a"),
        ("title-too-long", "https://n.example/b"),
    ]
    assert len(found.errors) == 1 and len(found.warnings) == 2


def test_json_has_pages_and_the_four_keys_of_each_finding() -> None:
    data = json.loads(report().to_json())
    assert data["pages"] == 3
    assert data["findings"][0] == {
        "code": "page-status",
        "severity": "error",
        "url": "https://n.example/c",
        "message": "Answers 404.",
    }
    assert all(
        set(f) == {"code", "severity", "url", "message"} for f in data["findings"]
    )


def test_the_table_groups_by_finding() -> None:
    lines = report().table().splitlines()
    assert lines[0] == "ERROR  page-status: a listed URL does not answer 200 (1)"
    group = lines.index("WARNING  title-too-long: the title is over 60 characters (2)")
    assert lines[group + 1 : group + 5] == [
        "  https://n.example/a",
        "      Long.",
        "  https://n.example/b",
        "      Long.",
    ]
    assert lines[-1] == "3 pages audited: 1 error, 2 warnings."


def test_an_empty_report_says_so() -> None:
    assert Report.of(1, []).table() == "1 page audited: 0 errors, 0 warnings."


def test_a_linked_file_is_one_finding_naming_its_pages() -> None:
    script = Finding("resource-disallowed", "warning", "https://n.example/x.js", "Hi.")
    page = Finding("title-missing", "warning", "https://n.example/a", "No title.")
    merged = merge_linked(
        [
            (script, "https://n.example/a"),
            (page, "https://n.example/a"),
            (script, "https://n.example/b"),
            (script, "https://n.example/c"),
        ]
    )
    assert [f.message for f in merged] == [
        "Hi. Linked from https://n.example/a and 2 other pages.",
        "No title.",
    ]
