"""The report as JUnit XML, for CI systems that show test reports.

One test case per address: every page the audit fetched (listed, then
linked), then any other address a finding is about (robots.txt, a sitemap,
an image). A test case with errors fails with one ``<failure>`` listing
them; its warnings are its ``<system-out>``. Written with the standard
library, so that the report needs nothing of the ``audit`` extra.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING
from xml.etree import ElementTree

if TYPE_CHECKING:
    from .findings import Finding

#: What XML 1.0 cannot carry (a page's text may hold it): replaced.
NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")

SUITE = "flask marmeon audit"


def _text(value: str) -> str:
    return NOT_XML.sub("\ufffd", value)


def _lines(findings: Iterable[Finding]) -> str:
    return "\n".join(f"{f.code}: {f.message}" for f in findings)


def junit_xml(urls: Iterable[str], findings: Iterable[Finding]) -> str:
    """The JUnit XML text of a report's addresses and findings."""
    found: dict[str, list[Finding]] = {}
    for item in findings:
        found.setdefault(item.url, []).append(item)
    cases = list(dict.fromkeys([*urls, *found]))
    failing = sum(
        1 for url in cases if any(f.severity == "error" for f in found.get(url, ()))
    )
    counts = {
        "tests": str(len(cases)),
        "failures": str(failing),
        "errors": "0",
        "skipped": "0",
        "time": "0",
    }
    root = ElementTree.Element("testsuites", {"name": SUITE, **counts})
    suite = ElementTree.SubElement(root, "testsuite", {"name": SUITE, **counts})
    for url in cases:
        case = ElementTree.SubElement(
            suite,
            "testcase",
            {"classname": "marmeon.audit", "name": _text(url), "time": "0"},
        )
        items = found.get(url, [])
        errors = [f for f in items if f.severity == "error"]
        warnings = [f for f in items if f.severity == "warning"]
        if errors:
            codes = ", ".join(dict.fromkeys(f.code for f in errors))
            failure = ElementTree.SubElement(
                case,
                "failure",
                {
                    "type": "marmeon.audit",
                    "message": _text(f"{len(errors)} error(s): {codes}"),
                },
            )
            failure.text = _text(_lines(errors))
        if warnings:
            out = ElementTree.SubElement(case, "system-out")
            out.text = _text(_lines(warnings))
    ElementTree.indent(root)
    body = ElementTree.tostring(root, encoding="unicode")
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + body + "\n"
