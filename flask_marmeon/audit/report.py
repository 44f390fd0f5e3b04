"""The report of an audit: its findings in order, as JSON, JUnit XML or text."""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass

from .findings import CODES, Finding
from .junit import junit_xml


def _order(item: Finding) -> tuple[int, str, str, str]:
    return (item.severity != "error", item.code, item.url, item.message)


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
        return junit_xml(self.urls, self.findings)

    def table(self) -> str:
        """The findings as text, grouped by code, with a summary line."""
        lines: list[str] = []
        current = None
        for item in self.findings:
            if item.code != current:
                current = item.code
                count = sum(1 for f in self.findings if f.code == item.code)
                if lines:
                    lines.append("")
                lines.append(
                    f"{item.severity.upper()}  {item.code}: {CODES[item.code][1]}"
                    f" ({count})"
                )
            lines.append(f"  {item.url}")
            lines.append(f"      {item.message}")
        if lines:
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
