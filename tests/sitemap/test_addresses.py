"""Addresses: built from the rule and APP_URL, and never one that does not work."""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import date, datetime, timedelta, timezone
from typing import Any
from urllib.parse import unquote, urlsplit

import pytest
from flask import Blueprint, Flask
from lxml import etree
from werkzeug.routing import BaseConverter, Map

from flask_marmeon import SitemapEntry, everyone
from flask_marmeon.routing.rule import MarmeonRule
from flask_marmeon.sitemap.addresses import Addresses, Refused, addresses, compile_rule

from .conftest import crawl, lastmods, locs, provide, show

ORIGIN = "https://notes.example"
ReadSitemap = Callable[..., etree._Element]


TRICKY = ["a b", "what?", "c#1", "100%", "über", "x&y", "it's", 'say "hi"', "<b>"]


def test_every_value_is_percent_encoded(app: Flask, read_sitemap: ReadSitemap) -> None:
    app.get(
        "/pages/<name>",
        sitemap=provide(*({"name": value} for value in TRICKY)),
        authorize=everyone,
    )(show)
    found = locs(read_sitemap(app))
    assert len(found) == len(TRICKY)
    for address, value in zip(found, TRICKY, strict=True):
        path = urlsplit(address).path
        assert " " not in path and "?" not in address and "#" not in address
        assert all(ord(char) < 128 for char in address)
        assert unquote(path) == f"/pages/{value}"
    assert set(crawl(app, found, ORIGIN).values()) == {200}


def test_a_value_an_any_converter_writes_unencoded_is_encoded_too(
    app: Flask, read_sitemap: ReadSitemap
) -> None:
    # werkzeug's any converter writes its item as given, a space included.
    app.get(
        "/shelf/<any(books, 'old maps', 'a&b'):shelf>",
        sitemap=provide({"shelf": "books"}, {"shelf": "old maps"}, {"shelf": "a&b"}),
        authorize=everyone,
    )(show)
    found = locs(read_sitemap(app))
    assert found == [
        f"{ORIGIN}/shelf/books",
        f"{ORIGIN}/shelf/old%20maps",
        f"{ORIGIN}/shelf/a&b",
    ]
    assert set(crawl(app, found, ORIGIN).values()) == {200}


def test_a_parameter_given_as_none_is_missing(
    app: Flask, read_sitemap: ReadSitemap, caplog: pytest.LogCaptureFixture
) -> None:
    # As url_for does: None is no value, never the text "None".
    app.get(
        "/pages/<name>",
        sitemap=provide({"name": "ok"}, {"name": None}),
        authorize=everyone,
    )(show)
    with caplog.at_level(logging.WARNING, logger="flask_marmeon"):
        found = locs(read_sitemap(app))
    assert found == [f"{ORIGIN}/pages/ok"]
    assert "'name' is missing" in caplog.text


def test_addresses_come_from_app_urls_origin_never_the_request(
    make_app: Callable[..., Flask], read_sitemap: ReadSitemap
) -> None:
    app = make_app(APP_URL="https://notes.example:8443/some/path?q=1")
    app.get("/about", sitemap=True, authorize=everyone)(show)
    response = app.test_client().get(
        "/sitemap.xml",
        base_url="http://evil.example",
        headers={"X-Forwarded-Host": "evil.example"},
    )
    root = etree.fromstring(response.data)
    assert locs(root) == ["https://notes.example:8443/about"]


def bad_values_app(app: Flask) -> Flask:
    app.get(
        "/notes/<int:note_id>",
        sitemap=provide(
            {"note_id": 1},
            {"note_id": "one"},  # the converter refuses it
            {},  # missing
            {"note_id": 2, "extra": 1},  # unknown
        ),
        authorize=everyone,
    )(show)
    app.get(
        "/tags/<tag>",
        sitemap=provide(
            {"tag": "ok"},
            {"tag": "."},
            {"tag": ".."},
            {"tag": "a/b"},  # a slash, which the default converter refuses
            {"tag": "new"},  # /tags/new is another route's
            {"tag": ""},
        ),
        authorize=everyone,
    )(show)
    app.get("/tags/new", endpoint="new_tag")(show)
    app.get(
        "/docs/<path:page>",
        sitemap=provide(
            {"page": "guide/intro"},  # the path converter allows a slash
            {"page": "guide/../secret"},
            {"page": "./x"},
            {"page": "a//b"},
        ),
        authorize=everyone,
    )(show)
    app.get(
        "/year/<int(min=2000):year>",
        sitemap=provide({"year": 2024}, {"year": 1999}),
        authorize=everyone,
    )(show)
    return app


def test_entries_the_route_would_not_answer_are_left_out(
    app: Flask, read_sitemap: ReadSitemap
) -> None:
    found = locs(read_sitemap(bad_values_app(app)))
    assert found == [
        f"{ORIGIN}/notes/1",
        f"{ORIGIN}/tags/ok",
        f"{ORIGIN}/docs/guide/intro",
        f"{ORIGIN}/year/2024",
    ]
    assert set(crawl(app, found, ORIGIN).values()) == {200}


def test_one_warning_per_route_naming_the_reasons(
    app: Flask, read_sitemap: ReadSitemap, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.WARNING, logger="flask_marmeon"):
        read_sitemap(bad_values_app(app))
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    by_route = {
        rule: [w for w in warnings if f"route {rule!r}" in w]
        for rule in ("/notes/<int:note_id>", "/tags/<tag>", "/docs/<path:page>")
    }
    assert all(len(found) == 1 for found in by_route.values()), warnings
    notes = by_route["/notes/<int:note_id>"][0]
    assert "3 entries" in notes
    assert "refuses 'one'" in notes and "'note_id' is missing" in notes
    assert "'extra' is unknown" in notes
    tags = by_route["/tags/<tag>"][0]
    assert "5 entries" in tags
    assert "slash" in tags and "dot segment" in tags
    assert "'/tags/new' answers" in tags
    assert "'..'" in by_route["/docs/<path:page>"][0]


def test_a_route_without_parameters_is_one_entry_and_the_latest_date_counts(
    app: Flask, read_sitemap: ReadSitemap
) -> None:
    app.get("/plain", sitemap=True, authorize=everyone)(show)

    def dates() -> list[SitemapEntry]:
        return [
            SitemapEntry(last_modified=date(2024, 3, 1)),
            SitemapEntry(last_modified=date(2024, 5, 2)),
            SitemapEntry(last_modified=date(2023, 1, 1)),
        ]

    app.get("/about", sitemap=dates, authorize=everyone)(show)
    found = lastmods(read_sitemap(app))
    assert found == {f"{ORIGIN}/plain": None, f"{ORIGIN}/about": "2024-05-02"}


@pytest.mark.parametrize(
    ("value", "written"),
    [
        (date(2024, 2, 29), "2024-02-29"),
        (datetime(2024, 2, 29, 23, 59), "2024-02-29"),
        # 23:30 at UTC-5 is 04:30 the next day in UTC.
        (
            datetime(2024, 2, 29, 23, 30, tzinfo=timezone(timedelta(hours=-5))),
            "2024-03-01",
        ),
        (
            datetime(2024, 3, 1, 0, 30, tzinfo=timezone(timedelta(hours=2))),
            "2024-02-29",
        ),
    ],
)
def test_lastmod_is_a_utc_date(
    app: Flask, read_sitemap: ReadSitemap, value: date, written: str
) -> None:
    app.get(
        "/n/<int:n>",
        sitemap=lambda: [{"params": {"n": 1}, "last_modified": value}],
        authorize=everyone,
    )(show)
    assert lastmods(read_sitemap(app)) == {f"{ORIGIN}/n/1": written}


@pytest.mark.parametrize("where", ["app", "blueprint"])
def test_every_loc_answers_200(
    app: Flask, read_sitemap: ReadSitemap, where: str
) -> None:
    routes: Flask | Blueprint = app if where == "app" else Blueprint("b", __name__)
    routes.get("/", sitemap=True, authorize=everyone)(show)
    routes.get(
        "/n/<int:n>", sitemap=provide(*({"n": n} for n in range(5))), authorize=everyone
    )(show)
    routes.get(
        "/s/<slug>/<int:page>",
        sitemap=provide({"slug": "a b", "page": 2}, {"slug": "ü", "page": 3}),
        authorize=everyone,
    )(show)
    routes.get(
        "/f/<a>-<b>",
        sitemap=provide({"a": "x", "b": "y"}, {"a": "x-y", "b": "z"}),
        authorize=everyone,
    )(show)
    routes.get("/n/latest")(show)
    if isinstance(routes, Blueprint):
        app.register_blueprint(routes)
    found = locs(read_sitemap(app))
    assert len(found) == 10
    assert set(crawl(app, found, ORIGIN).values()) == {200}


def test_two_arguments_in_one_segment_are_matched_back(
    app: Flask, read_sitemap: ReadSitemap
) -> None:
    # /f/<a>-<b> with a="x-y" reads back as a="x-y", b="z"; with a="x",
    # b="y-z" it would read back as a="x-y": another page, left out.
    app.get(
        "/f/<a>-<b>",
        sitemap=provide({"a": "x", "b": "y-z"}, {"a": "p", "b": "q"}),
        authorize=everyone,
    )(show)
    assert locs(read_sitemap(app)) == [f"{ORIGIN}/f/p-q"]


# -- locale expansion (the seam the localized routes use) ---------------------


class LocaleConverter(BaseConverter):
    regex = "(?:de-at|en)"

    def to_url(self, value: Any) -> str:
        return str(value).lower()


def localized_rule(rule: str) -> MarmeonRule:
    made = MarmeonRule(rule, endpoint="page", sitemap=True)
    made.marmeon_localized = True
    Map([made], converters={"marmeon_locale": LocaleConverter})
    return made


def test_a_localized_entry_becomes_one_version_per_locale() -> None:
    rule = localized_rule("/<marmeon_locale:locale>/features/<feature>")
    compiled = compile_rule(rule, ORIGIN, ("en", "de-AT"))
    found = addresses(compiled, {"feature": "a b"})
    alternates = (
        ("en", f"{ORIGIN}/en/features/a%20b"),
        ("de-AT", f"{ORIGIN}/de-at/features/a%20b"),
        ("x-default", f"{ORIGIN}/features/a%20b"),
    )
    assert found == Addresses(
        (f"{ORIGIN}/en/features/a%20b", f"{ORIGIN}/de-at/features/a%20b"), alternates
    )


def test_a_localized_root_has_the_root_as_x_default() -> None:
    compiled = compile_rule(
        localized_rule("/<marmeon_locale:locale>/"), ORIGIN, ("en",)
    )
    found = addresses(compiled, {})
    assert found.locs == (f"{ORIGIN}/en/",)
    assert found.alternates[-1] == ("x-default", f"{ORIGIN}/")


def test_a_localized_entry_is_refused_whole() -> None:
    compiled = compile_rule(
        localized_rule("/<marmeon_locale:locale>/n/<int:n>"), ORIGIN, ("en", "de-AT")
    )
    with pytest.raises(Refused):
        addresses(compiled, {"n": "x"})
    with pytest.raises(Refused, match="locale"):
        addresses(compiled, {"n": 1, "locale": "en"})


def test_a_rule_that_is_not_localized_has_one_version() -> None:
    rule = MarmeonRule("/n/<int:n>", endpoint="n", sitemap=True)
    Map([rule])
    compiled = compile_rule(rule, ORIGIN, ("en", "de-AT"))
    assert addresses(compiled, {"n": 3}) == Addresses((f"{ORIGIN}/n/3",))


def test_a_static_route_on_an_int_address_takes_it(
    app: Flask, read_sitemap: ReadSitemap
) -> None:
    app.get(
        "/n/<int:n>", sitemap=provide({"n": 0}, {"n": 1}, {"n": -1}), authorize=everyone
    )(show)
    app.get("/n/0", endpoint="zero")(lambda: "zero")
    assert locs(read_sitemap(app)) == [f"{ORIGIN}/n/1"]


def test_a_route_that_redirects_lists_none_of_its_addresses(
    app: Flask, read_sitemap: ReadSitemap, caplog: pytest.LogCaptureFixture
) -> None:
    # "The sitemap never names a URL that does not work": a rule with
    # redirect_to answers every address with a redirect, never the page.
    app.get("/notes/<int:n>", sitemap=provide({"n": 1}), authorize=everyone)(show)
    app.add_url_rule(
        "/old/<int:n>",
        "old",
        redirect_to="/notes/<n>",
        sitemap=provide({"n": 1}, {"n": 2}),
        authorize=everyone,
    )
    app.add_url_rule("/home", "home", redirect_to="/", sitemap=True, authorize=everyone)
    with caplog.at_level(logging.WARNING, logger="flask_marmeon"):
        found = locs(read_sitemap(app))
    assert found == [f"{ORIGIN}/notes/1"]
    assert set(crawl(app, found, ORIGIN).values()) == {200}
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert any("'/old/<int:n>'" in w and "redirects" in w for w in warnings), warnings
    assert any("'/home'" in w and "redirects" in w for w in warnings), warnings


def test_an_address_longer_than_the_format_allows_is_left_out(
    app: Flask, read_sitemap: ReadSitemap
) -> None:
    app.get(
        "/p/<slug>",
        sitemap=provide({"slug": "ok"}, {"slug": "x" * 2100}),
        authorize=everyone,
    )(show)
    assert locs(read_sitemap(app)) == [f"{ORIGIN}/p/ok"]


def test_a_route_on_another_subdomain_is_left_out_with_a_warning(
    make_app: Callable[..., Flask],
    read_sitemap: ReadSitemap,
    caplog: pytest.LogCaptureFixture,
) -> None:
    # Its page is at blog.notes.example, never at APP_URL + its path.
    app = make_app(APP_URL=ORIGIN, SERVER_NAME="notes.example")
    blog = Blueprint("blog", __name__, subdomain="blog")
    blog.get("/posts", sitemap=True, authorize=everyone)(show)
    app.register_blueprint(blog)
    app.get("/about", sitemap=True, authorize=everyone)(show)
    with caplog.at_level(logging.WARNING, logger="flask_marmeon"):
        found = locs(read_sitemap(app))
    assert found == [f"{ORIGIN}/about"]
    client = app.test_client()
    assert client.get("/posts", base_url=ORIGIN).status_code == 404
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert len([w for w in warnings if "'/posts'" in w]) == 1, warnings
