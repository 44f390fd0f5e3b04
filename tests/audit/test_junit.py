"""``flask marmeon audit --format junit``: JUnit XML, one test case per page.

The file is validated against a JUnit XML schema written here from the
format as Jenkins, GitLab and GitHub's test reporters read it (the Ant
JUnit task's layout): ``<testsuites>`` of ``<testsuite>``s of
``<testcase>``s, each with its ``<failure>``s and its ``<system-out>``.
"""

from __future__ import annotations

import json

from lxml import etree

from flask_marmeon.audit import Finding, Report

from .conftest import ORIGIN, Site, runner_for

JUNIT_XSD = b"""<?xml version="1.0" encoding="UTF-8"?>
<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema"
           elementFormDefault="qualified">
  <xs:simpleType name="count">
    <xs:restriction base="xs:nonNegativeInteger"/>
  </xs:simpleType>
  <xs:complexType name="problem">
    <xs:simpleContent>
      <xs:extension base="xs:string">
        <xs:attribute name="message" type="xs:string"/>
        <xs:attribute name="type" type="xs:string" use="required"/>
      </xs:extension>
    </xs:simpleContent>
  </xs:complexType>
  <xs:complexType name="testcase">
    <xs:sequence>
      <xs:choice minOccurs="0" maxOccurs="unbounded">
        <xs:element name="skipped" type="problem"/>
        <xs:element name="error" type="problem"/>
        <xs:element name="failure" type="problem"/>
      </xs:choice>
      <xs:element name="system-out" type="xs:string" minOccurs="0"/>
      <xs:element name="system-err" type="xs:string" minOccurs="0"/>
    </xs:sequence>
    <xs:attribute name="name" type="xs:string" use="required"/>
    <xs:attribute name="classname" type="xs:string" use="required"/>
    <xs:attribute name="time" type="xs:decimal"/>
  </xs:complexType>
  <xs:complexType name="testsuite">
    <xs:sequence>
      <xs:element name="testcase" type="testcase" minOccurs="0"
                  maxOccurs="unbounded"/>
      <xs:element name="system-out" type="xs:string" minOccurs="0"/>
      <xs:element name="system-err" type="xs:string" minOccurs="0"/>
    </xs:sequence>
    <xs:attribute name="name" type="xs:string" use="required"/>
    <xs:attribute name="tests" type="count" use="required"/>
    <xs:attribute name="failures" type="count" use="required"/>
    <xs:attribute name="errors" type="count" use="required"/>
    <xs:attribute name="skipped" type="count"/>
    <xs:attribute name="time" type="xs:decimal"/>
  </xs:complexType>
  <xs:element name="testsuites">
    <xs:complexType>
      <xs:sequence>
        <xs:element name="testsuite" type="testsuite" maxOccurs="unbounded"/>
      </xs:sequence>
      <xs:attribute name="name" type="xs:string"/>
      <xs:attribute name="tests" type="count"/>
      <xs:attribute name="failures" type="count"/>
      <xs:attribute name="errors" type="count"/>
      <xs:attribute name="skipped" type="count"/>
      <xs:attribute name="time" type="xs:decimal"/>
    </xs:complexType>
  </xs:element>
</xs:schema>
"""


def valid_junit(text: str) -> etree._Element:
    """The parsed file, after the schema said it is JUnit XML."""
    schema = etree.XMLSchema(etree.fromstring(JUNIT_XSD))
    root = etree.fromstring(text.encode("utf-8"))
    assert schema.validate(root), schema.error_log
    return root


def test_one_test_case_per_page_its_errors_as_failures(site: Site) -> None:
    del site.files["/b"]
    result = runner_for(site).invoke(args=["marmeon", "audit", "--format", "junit"])
    assert result.exit_code == 1
    root = valid_junit(result.output)
    (suite,) = root.iter("testsuite")
    cases = {case.get("name"): case for case in suite.iter("testcase")}
    # Every page fetched: the two listed, then the home page (linked).
    assert list(cases) == [f"{ORIGIN}/a", f"{ORIGIN}/b", f"{ORIGIN}/"]
    assert suite.get("tests") == "3" and suite.get("failures") == "2"
    assert cases[f"{ORIGIN}/a"].find("failure") is None
    (failure,) = cases[f"{ORIGIN}/b"].findall("failure")
    assert "page-status" in failure.get("message", "")
    assert "404" in (failure.text or "")
    (failure,) = cases[f"{ORIGIN}/"].findall("failure")
    assert "link-broken" in (failure.text or "") and f"{ORIGIN}/b" in (
        failure.text or ""
    )


def test_a_clean_site_passes_every_case(site: Site) -> None:
    result = runner_for(site).invoke(args=["marmeon", "audit", "--format", "junit"])
    assert result.exit_code == 0
    root = valid_junit(result.output)
    assert root.get("tests") == "3" and root.get("failures") == "0"
    assert not list(root.iter("failure")) and not list(root.iter("system-out"))


def test_warnings_are_the_cases_output_and_site_findings_have_their_case() -> None:
    report = Report.of(
        1,
        [
            Finding("title-too-short", "warning", f"{ORIGIN}/a", "Short."),
            Finding("robots-missing", "error", f"{ORIGIN}/robots.txt", "Gone."),
            # What XML cannot carry, from a page: replaced, still valid.
            Finding("title-too-long", "warning", f"{ORIGIN}/a", "Long \x00\x1b."),
        ],
        [f"{ORIGIN}/a"],
    )
    root = valid_junit(report.junit())
    cases = {case.get("name"): case for case in root.iter("testcase")}
    assert list(cases) == [f"{ORIGIN}/a", f"{ORIGIN}/robots.txt"]
    assert cases[f"{ORIGIN}/a"].find("failure") is None
    out = cases[f"{ORIGIN}/a"].findtext("system-out") or ""
    assert "title-too-short: Short." in out and "title-too-long" in out
    assert cases[f"{ORIGIN}/robots.txt"].find("failure") is not None


def test_json_is_format_json_and_both_at_odds_is_a_usage_error(site: Site) -> None:
    runner = runner_for(site)
    old = runner.invoke(args=["marmeon", "audit", "--json"])
    new = runner.invoke(args=["marmeon", "audit", "--format", "json"])
    assert old.exit_code == new.exit_code == 0
    assert json.loads(old.output) == json.loads(new.output)
    text = runner.invoke(args=["marmeon", "audit", "--format", "text"])
    assert text.output.strip() == "2 pages audited: 0 errors, 0 warnings."
    both = runner.invoke(args=["marmeon", "audit", "--json", "--format", "junit"])
    assert both.exit_code == 2 and "give one of them" in both.output
    wrong = runner.invoke(args=["marmeon", "audit", "--format", "xml"])
    assert wrong.exit_code == 2 and "junit" in wrong.output
