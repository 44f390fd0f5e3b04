"""A parameter value is written only when the converter would read it back."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from decimal import Decimal
from typing import Any

import pytest
from flask import Flask
from lxml import etree
from werkzeug.routing import Map, UnicodeConverter

from flask_marmeon import SitemapEntry, everyone
from flask_marmeon.routing.rule import MarmeonRule
from flask_marmeon.sitemap.addresses import Refused, compile_rule

from .conftest import crawl, locs

ORIGIN = "https://notes.example"
ReadSitemap = Callable[..., etree._Element]


def provide(*values: Any, name: str = "n") -> Callable[[], Iterator[SitemapEntry]]:
    def entries() -> Iterator[SitemapEntry]:
        for value in values:
            yield SitemapEntry({name: value})

    return entries


def show(**values: Any) -> str:
    return repr(values)


def warnings_of(caplog: pytest.LogCaptureFixture, rule: str) -> list[str]:
    return [
        r.getMessage()
        for r in caplog.records
        if r.levelno == logging.WARNING and f"route {rule!r}" in r.getMessage()
    ]


def test_a_bool_or_a_float_for_an_int_is_refused_with_one_warning(
    app: Flask, read_sitemap: ReadSitemap, caplog: pytest.LogCaptureFixture
) -> None:
    # True and 2.7 would be written /n/1 and /n/2: other entries' pages.
    app.get(
        "/n/<int:n>",
        sitemap=provide(1, 2, True, False, 2.7, 3.0, "4", Decimal("2.5")),
        authorize=everyone,
    )(show)
    with caplog.at_level(logging.WARNING, logger="flask_marmeon"):
        found = locs(read_sitemap(app))
    assert found == [f"{ORIGIN}/n/1", f"{ORIGIN}/n/2"]
    (warning,) = warnings_of(caplog, "/n/<int:n>")
    assert "6 entries left out" in warning
    assert "the value True of 'n' is a bool" in warning


def test_the_same_for_a_bounded_int_a_float_and_a_string(
    app: Flask, read_sitemap: ReadSitemap, caplog: pytest.LogCaptureFixture
) -> None:
    app.get(
        "/y/<int(min=2000):y>",
        sitemap=provide(2024, True, 2025.0, name="y"),
        authorize=everyone,
    )(show)
    app.get(
        "/f/<float:f>", sitemap=provide(2.5, 3, True, name="f"), authorize=everyone
    )(show)
    app.get("/s/<s>", sitemap=provide("a", 7, True, 2.7, name="s"), authorize=everyone)(
        show
    )
    with caplog.at_level(logging.WARNING, logger="flask_marmeon"):
        found = locs(read_sitemap(app))
    # An int for a float reads back equal (3.0), an int for a string is its
    # text, as url_for writes them: neither names another page.
    assert found == [
        f"{ORIGIN}/y/2024",
        f"{ORIGIN}/f/2.5",
        f"{ORIGIN}/f/3.0",
        f"{ORIGIN}/s/a",
        f"{ORIGIN}/s/7",
    ]
    assert set(crawl(app, found, ORIGIN).values()) == {200}
    for rule in ("/y/<int(min=2000):y>", "/f/<float:f>", "/s/<s>"):
        assert len(warnings_of(caplog, rule)) == 1


def compiled(rule_text: str) -> Any:
    rule = MarmeonRule(rule_text, endpoint="p", sitemap=True)
    Map([rule])
    return compile_rule(rule, ORIGIN)


class RecordingConverter(UnicodeConverter):
    """The default converter, noting the length of each value it encodes."""

    encoded: list[int] = []

    def to_url(self, value: Any) -> str:
        self.encoded.append(len(value))
        return super().to_url(value)


@pytest.mark.parametrize("value", ["x" * 10_000_000, b"x" * 10_000_000])
def test_a_huge_value_is_refused_before_any_encoding(value: object) -> None:
    # Percent-encoding 10 MB takes about a second: the length decides first,
    # so the converter never sees the value.
    rule = MarmeonRule("/p/<rec:slug>", endpoint="p", sitemap=True)
    Map([rule], converters={"rec": RecordingConverter})
    arg = compile_rule(rule, ORIGIN)
    RecordingConverter.encoded.clear()
    with pytest.raises(Refused, match="longer than 2048") as refused:
        arg.path({"slug": value})
    assert RecordingConverter.encoded == []
    assert refused.value.kind == "length"
    assert len(str(refused.value)) < 200
    arg.path({"slug": "short"})
    assert RecordingConverter.encoded == [5]


def test_a_huge_int_is_refused_without_its_digits() -> None:
    # str() of an int this long raises ValueError (Python's digit limit), so
    # a refusal for its length proves that no digit was written.
    huge = 10**100_000
    for rule in ("/n/<int:n>", "/n/<int(min=1):n>"):
        with pytest.raises(Refused) as refused:
            compiled(rule).path({"n": huge})
        assert refused.value.kind == "length"
        assert len(str(refused.value)) < 200


def test_a_value_that_just_fits_is_kept() -> None:
    rule = compiled("/p/<slug>")
    room = 2048 - len(ORIGIN) - len("/p/")
    assert rule.loc({"slug": "x" * room}) == f"{ORIGIN}/p/" + "x" * room
    with pytest.raises(Refused, match="longer"):
        rule.path({"slug": "x" * (room + 1)})
    with pytest.raises(Refused, match="longer"):
        rule.path({"slug": "é" * room})  # its escapes do not fit
