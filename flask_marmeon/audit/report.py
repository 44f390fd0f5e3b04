"""The report of an audit: its findings in order, as JSON, JUnit XML or text.

Written with the standard library, so that the report needs nothing of the
``audit`` extra.
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from xml.etree import ElementTree

from .findings import CODES, Finding

#: What XML 1.0 cannot carry (a page's text may hold it): replaced.
NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")

SUITE = "flask marmeon audit"


def _order(item: Finding) -> tuple[int, str, str, str]:
    return (item.severity != "error", item.code, item.url, item.message)


def _grouped(findings: Iterable[Finding], key: str) -> dict[str, list[Finding]]:
    """``findings`` by their ``key`` (``"code"``, ``"url"``, ``"severity"``),
    each group in order."""
    groups: dict[str, list[Finding]] = defaultdict(list)
    for item in findings:
        groups[getattr(item, key)].append(item)
    return groups


def _xml(value: str) -> str:
    return NOT_XML.sub("\ufffd", value)


def _lines(findings: Iterable[Finding]) -> str:
    return _xml("\n".join(f"{f.code}: {f.message}" for f in findings))


@dataclass(frozen=True)
class Report:
    """What an audit found: the number of listed pages and the findings."""

    #: The number of distinct URLs the sitemap lists.
    pages: int
    #: Errors first, then warnings; by code, then URL.
    findings: tuple[Finding, ...]
    #: Every address the audit fetched as a page (listed, then linked), in
    #: the order it read them: the test cases of :meth:`junit`.
    urls: tuple[str, ...] = ()

    @classmethod
    def of(
        cls, pages: int, findings: Iterable[Finding], urls: Iterable[str] = ()
    ) -> Report:
        """A report with its findings in a stable order, exact repeats removed."""
        return cls(pages, tuple(sorted(set(findings), key=_order)), tuple(urls))

    @property
    def errors(self) -> tuple[Finding, ...]:
        """The findings that are errors."""
        return tuple(f for f in self.findings if f.severity == "error")

    @property
    def warnings(self) -> tuple[Finding, ...]:
        """The findings that are warnings."""
        return tuple(f for f in self.findings if f.severity == "warning")

    def as_dict(self) -> dict[str, object]:
        """``{"pages": N, "findings": [{"code", "severity", "url", "message"}]}``."""
        return {"pages": self.pages, "findings": [f.as_dict() for f in self.findings]}

    def to_json(self) -> str:
        """The report as JSON (what ``flask marmeon audit --json`` prints)."""
        return json.dumps(self.as_dict(), indent=2, ensure_ascii=False)

    def junit(self) -> str:
        """The report as JUnit XML (what ``flask marmeon audit --format junit``
        prints): one test case per page the audit fetched, and per other
        address a finding is about; its errors are its failure, its warnings
        its ``<system-out>``."""
        found = _grouped(self.findings, "url")
        cases = list(dict.fromkeys([*self.urls, *found]))
        failing = sum(any(f.severity == "error" for f in found[url]) for url in cases)
        counts = {"tests": len(cases), "failures": failing, "errors": 0, "skipped": 0}
        attributes = {"name": SUITE, **{k: str(v) for k, v in counts.items()}}
        attributes["time"] = "0"
        root = ElementTree.Element("testsuites", attributes)
        suite = ElementTree.SubElement(root, "testsuite", attributes)
        for url in cases:
            case = ElementTree.SubElement(
                suite,
                "testcase",
                {"classname": "marmeon.audit", "name": _xml(url), "time": "0"},
            )
            by_severity = _grouped(found[url], "severity")
            if errors := by_severity["error"]:
                codes = ", ".join(dict.fromkeys(f.code for f in errors))
                message = _xml(f"{len(errors)} error(s): {codes}")
                failure = ElementTree.SubElement(
                    case, "failure", {"type": "marmeon.audit", "message": message}
                )
                failure.text = _lines(errors)
            if warnings := by_severity["warning"]:
                ElementTree.SubElement(case, "system-out").text = _lines(warnings)
        ElementTree.indent(root)
        body = ElementTree.tostring(root, encoding="unicode")
        return '<?xml version="1.0" encoding="UTF-8"?>\n' + body + "\n"

    def table(self) -> str:
        """The findings as text, grouped by code, with a summary line."""
        lines: list[str] = []
        for code, items in _grouped(self.findings, "code").items():
            severity = items[0].severity.upper()
            lines.append(f"{severity}  {code}: {CODES[code][1]} ({len(items)})")
            for item in items:
                lines += [f"  {item.url}", f"      {item.message}"]
            lines.append("")
        lines.append(self.summary())
        return "\n".join(lines)

    def summary(self) -> str:
        """One line: pages, errors, warnings."""
        errors, warnings = len(self.errors), len(self.warnings)
        return (
            f"{self.pages} page{'s' * (self.pages != 1)} audited:"
            f" {errors} error{'s' * (errors != 1)},"
            f" {warnings} warning{'s' * (warnings != 1)}."
        )
