"""Languages per page (issue 12): the locales= of a route and of each entry
name the only URLs and links of the localized sitemap, as for the page."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import pytest
from flask import Blueprint, Flask, abort
from lxml import etree

from flask_marmeon import SitemapEntry, everyone, localized
from flask_marmeon.sitemap.build import build_sitemap
from tests.documents import strict_schema

from .sitemap_urls import SM, page, read_sitemap, urls

ORIGIN = "https://notes.example"


def locale_site(
    make_app: Callable[..., Flask],
    entries: list[Any],
    option: object = None,
    rule_text: str = "/notes/<int:note_id>",
    **config: Any,
) -> Flask:
    """An app with three locales and one localized route; ``option`` is what
    the route's ``locales=`` stores on the rule (``rule.marmeon_locales``)."""
    config.setdefault("APP_LOCALES", ["en", "de-AT", "fr"])
    app = make_app(APP_URL=ORIGIN, **config)
    docs = localized(Blueprint("docs", __name__))
    docs.get(rule_text, sitemap=lambda: entries, authorize=everyone)(
        lambda **values: page(repr(values))
    )
    app.register_blueprint(docs)
    if option is not None:
        for rule in app.url_map.iter_rules():
            if rule.endpoint.startswith("docs."):
                rule.marmeon_locales = option  # type: ignore[attr-defined]
    return app


def valid_urls(app: Flask) -> dict[str, dict[str, str]]:
    schema = strict_schema("sitemap.xsd")
    root = read_sitemap(app)
    schema.assertValid(root)
    return urls(root)


def versions(number: int, *tags: str) -> dict[str, str]:
    found = {tag: f"{ORIGIN}/{tag.lower()}/notes/{number}" for tag in tags}
    return {**found, "x-default": f"{ORIGIN}/notes/{number}"}


def test_an_entrys_locales_name_its_only_urls_and_links(
    make_app: Callable[..., Flask],
) -> None:
    app = locale_site(
        make_app,
        [
            SitemapEntry({"note_id": 1}, locales=["en"]),
            # In APP_LOCALES order, whatever the order given.
            {"params": {"note_id": 2}, "locales": ["fr", "de-AT"]},
            SitemapEntry({"note_id": 3}),
            SitemapEntry({"note_id": 4}, locales=[]),  # in no language: none
        ],
    )
    found = valid_urls(app)
    assert found == {
        f"{ORIGIN}/en/notes/1": versions(1, "en"),
        f"{ORIGIN}/de-at/notes/2": versions(2, "de-AT", "fr"),
        f"{ORIGIN}/fr/notes/2": versions(2, "de-AT", "fr"),
        f"{ORIGIN}/en/notes/3": versions(3, "en", "de-AT", "fr"),
        f"{ORIGIN}/de-at/notes/3": versions(3, "en", "de-AT", "fr"),
        f"{ORIGIN}/fr/notes/3": versions(3, "en", "de-AT", "fr"),
    }
    assert list(found[f"{ORIGIN}/de-at/notes/2"]) == ["de-AT", "fr", "x-default"]
    statuses = crawl(app, list(found))
    assert set(statuses.values()) == {200}


def crawl(app: Flask, addresses: list[str]) -> dict[str, int]:
    client = app.test_client()
    return {a: client.get(a.removeprefix(ORIGIN)).status_code for a in addresses}


@pytest.mark.parametrize("rule_text", ["/notes/<int:note_id>", "/notes/<note_id>"])
def test_the_routes_locales_apply_and_an_entrys_own_narrow_them(
    make_app: Callable[..., Flask],
    rule_text: str,
    caplog: pytest.LogCaptureFixture,
) -> None:
    # A list on the route (the planned way for these rules) and entries
    # that say otherwise (the general way) in one provider. An entry's own
    # locales win within the route's: /en/notes/3 answers 404 (the route
    # refuses "en"), so the sitemap does not name it.
    entries: list[Any] = [SitemapEntry({"note_id": n}) for n in (1, 2)]
    entries.append(SitemapEntry({"note_id": 3}, locales=["en", "fr"]))
    entries.append(SitemapEntry({"note_id": 4}, locales=["fr"]))
    if rule_text.endswith("<note_id>"):
        entries = [
            SitemapEntry({"note_id": str(e.params["note_id"])}, locales=e.locales)
            for e in entries
        ]
    app = locale_site(make_app, entries, option=("fr", "de-AT"), rule_text=rule_text)
    with caplog.at_level(logging.WARNING, "flask_marmeon"):
        found = valid_urls(app)
    assert found == {
        f"{ORIGIN}/de-at/notes/1": versions(1, "de-AT", "fr"),
        f"{ORIGIN}/fr/notes/1": versions(1, "de-AT", "fr"),
        f"{ORIGIN}/de-at/notes/2": versions(2, "de-AT", "fr"),
        f"{ORIGIN}/fr/notes/2": versions(2, "de-AT", "fr"),
        f"{ORIGIN}/fr/notes/3": versions(3, "fr"),
        f"{ORIGIN}/fr/notes/4": versions(4, "fr"),
    }
    assert set(crawl(app, list(found)).values()) == {200}
    assert app.test_client().get("/en/notes/3").status_code == 404
    warnings = [r.getMessage() for r in caplog.records if "/notes/" in r.getMessage()]
    assert len(warnings) == 1, warnings
    assert "'en'" in warnings[0] and "404" in warnings[0]


def test_a_callable_option_is_called_with_the_entrys_params(
    make_app: Callable[..., Flask],
) -> None:
    calls: list[dict[str, Any]] = []

    def available(**values: Any) -> list[str]:
        calls.append(values)
        return ["en"] if values["note_id"] % 2 else ["en", "fr"]

    entries = [SitemapEntry({"note_id": n}) for n in (1, 2)]
    # The route says note 3 exists in "en" only, and note 4 in "en" and
    # "fr": an entry's own locales narrow what the route says, and never
    # name a version that answers 404.
    entries.append(SitemapEntry({"note_id": 3}, locales=["de-AT"]))
    entries.append(SitemapEntry({"note_id": 4}, locales=["fr", "de-AT"]))
    app = locale_site(make_app, entries, option=available)
    found = valid_urls(app)
    assert found == {
        f"{ORIGIN}/en/notes/1": versions(1, "en"),
        f"{ORIGIN}/en/notes/2": versions(2, "en", "fr"),
        f"{ORIGIN}/fr/notes/2": versions(2, "en", "fr"),
        f"{ORIGIN}/fr/notes/4": versions(4, "fr"),
    }
    # Never with the locale.
    assert calls == [{"note_id": n} for n in (1, 2, 3, 4)]
    calls.clear()
    assert set(crawl(app, list(found)).values()) == {200}
    client = app.test_client()
    assert client.get("/de-at/notes/3").status_code == 404
    assert client.get("/de-at/notes/4").status_code == 404


def test_a_tag_not_in_app_locales_is_left_out_with_one_warning(
    make_app: Callable[..., Flask], caplog: pytest.LogCaptureFixture
) -> None:
    entries = [
        SitemapEntry({"note_id": 1}, locales=["en", "it"]),
        # A tag in another case is that tag (BCP 47), as for the page.
        SitemapEntry({"note_id": 2}, locales=["EN", "es"]),
        SitemapEntry({"note_id": 3}, locales=["it"]),
    ]
    app = locale_site(make_app, entries)
    with caplog.at_level(logging.WARNING, "flask_marmeon"):
        found = valid_urls(app)
    assert found == {
        f"{ORIGIN}/en/notes/1": versions(1, "en"),
        f"{ORIGIN}/en/notes/2": versions(2, "en"),
    }
    warnings = [r.getMessage() for r in caplog.records if "/notes/" in r.getMessage()]
    assert len(warnings) == 1, warnings
    assert "'it', 'es'" in warnings[0] and "APP_LOCALES" in warnings[0]


@pytest.mark.parametrize("option", [("EN", "de-at"), lambda note_id: ["DE-AT"]])
def test_a_routes_tag_in_another_case_is_the_tag_as_for_the_page(
    make_app: Callable[..., Flask], option: Any
) -> None:
    # The H10 check, the converter and the page take "de-at" for "de-AT":
    # the sitemap names the versions the page answers, spelled as configured.
    entries = [
        SitemapEntry({"note_id": 1}),
        SitemapEntry({"note_id": 2}, locales=["de-AT", "en"]),
    ]
    app = locale_site(make_app, entries, option=option)
    found = valid_urls(app)
    tags = ("en", "de-AT") if isinstance(option, tuple) else ("de-AT",)
    assert found == {
        f"{ORIGIN}/{tag.lower()}/notes/{n}": versions(n, *tags)
        for n in (1, 2)
        for tag in tags
    }
    assert set(crawl(app, list(found)).values()) == {200}


def test_the_limit_counts_the_urls_written(make_app: Callable[..., Flask]) -> None:
    # Five entries in one language each fit in five URLs; in all three
    # languages one entry would take three.
    entries = [SitemapEntry({"note_id": n}, locales=["fr"]) for n in range(1, 6)]
    entries.append(SitemapEntry({"note_id": 6}))
    app = locale_site(make_app, entries, MARMEON_SITEMAP_MAX_URLS=5)
    found = valid_urls(app)
    assert sorted(found) == sorted(f"{ORIGIN}/fr/notes/{n}" for n in range(1, 6))
    app = locale_site(
        make_app, entries, MARMEON_SITEMAP_MAX_URLS=3, MARMEON_SITEMAP_INDEX=True
    )
    client = app.test_client()
    index = etree.fromstring(client.get("/sitemap.xml").data)
    parts = [loc.text or "" for loc in index.iter(f"{SM}loc")]
    sizes = [
        len(etree.fromstring(client.get(p.removeprefix(ORIGIN)).data)) for p in parts
    ]
    assert sizes == [3, 2, 3]


def test_an_entry_whose_locales_function_answers_404_is_left_out(
    make_app: Callable[..., Flask], caplog: pytest.LogCaptureFixture
) -> None:
    # locales=lambda note_id: Note.query.get_or_404(note_id).locales: the
    # page of a note deleted since answers 404, so its entry is left out
    # (one warning for the route) and the rest of the sitemap is served.
    def available(note_id: int) -> list[str]:
        if note_id == 2:
            abort(404)
        return ["en"]

    entries = [SitemapEntry({"note_id": n}) for n in (1, 2, 3)]
    entries.append(SitemapEntry({"note_id": 2}, locales=["en"]))
    app = locale_site(make_app, entries, option=available)
    with caplog.at_level(logging.WARNING, "flask_marmeon"):
        found = valid_urls(app)
    assert found == {
        f"{ORIGIN}/en/notes/1": versions(1, "en"),
        f"{ORIGIN}/en/notes/3": versions(3, "en"),
    }
    assert app.test_client().get("/en/notes/2").status_code == 404
    warnings = [r.getMessage() for r in caplog.records if "/notes/" in r.getMessage()]
    assert len(warnings) == 1, warnings
    assert "2 entries left out" in warnings[0] and "404" in warnings[0]


def test_a_locales_function_that_returns_a_str_fails_alike_in_sitemap_and_page(
    make_app: Callable[..., Flask],
) -> None:
    # "en" is iterable too: it would be the locales "e" and "n". The sitemap
    # and the page check the function's result with the same words.
    entries = [SitemapEntry({"note_id": 1})]
    app = locale_site(make_app, entries, option=lambda note_id: "en")
    app.config["PROPAGATE_EXCEPTIONS"] = True
    with pytest.raises(TypeError) as from_page:
        app.test_client().get("/en/notes/1")
    with pytest.raises(TypeError) as from_sitemap:
        build_sitemap(app)
    assert str(from_sitemap.value) == str(from_page.value)
    assert "must return a list of locale tags" in str(from_sitemap.value)
