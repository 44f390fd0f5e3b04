"""The page object of a localized page (current_page(), the Jinja global
page): its locale, alternates, canonical and hreflang paths."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from flask import Flask, g, render_template_string

from flask_marmeon import Page, current_page
from flask_marmeon.i18n import make_page, strip_locale

from .docs_site import page_json


def test_the_page_object_of_a_localized_page(loc_app: Flask) -> None:
    body = loc_app.test_client().get("/de-at/notes/5?page=2&utm_source=x").json
    assert body == {
        "note_id": 5,
        "locale": "de-AT",
        "alternates": [
            {
                "locale": "en",
                "hreflang": "en",
                "href": "/en/notes/5?page=2&utm_source=x",
            },
            {
                "locale": "de-AT",
                "hreflang": "de-AT",
                "href": "/de-at/notes/5?page=2&utm_source=x",
            },
        ],
        "canonical_path": "/de-at/notes/5",
        "hreflang_paths": [
            ["en", "/en/notes/5"],
            ["de-AT", "/de-at/notes/5"],
            ["x-default", "/notes/5"],
        ],
    }


def test_the_root_page_has_the_root_as_x_default(loc_app: Flask) -> None:
    with loc_app.test_request_context("/en/"):
        loc_app.preprocess_request()
        page = current_page()
    assert page.hreflang_paths[-1] == ("x-default", "/")
    assert page.canonical_path == "/en/"


def test_a_query_with_unsafe_characters_is_kept_encoded(loc_app: Flask) -> None:
    body = loc_app.test_client().get('/en/about?q="<x>" é').json
    assert body is not None
    assert body["alternates"][1]["href"] == "/de-at/about?q=%22%3Cx%3E%22%20%C3%A9"


def test_plain_routes_get_no_alternates_even_if_they_look_localized(
    loc_app: Flask,
) -> None:
    empty = page_json(Page())
    client = loc_app.test_client()
    assert client.get("/plain").json == empty
    assert client.get("/de/looks-localized").json == empty


def test_the_page_is_there_before_before_request_hooks(
    make_localized: Callable[..., Flask],
) -> None:
    app = make_localized()

    @app.before_request
    def layout() -> None:
        g.seen = current_page().locale

    @app.get("/seen")
    def seen() -> str:
        return str(g.seen)

    app.view_functions["docs.index"] = lambda: str(g.seen)
    assert app.test_client().get("/de-at/").text == "de-AT"
    assert app.test_client().get("/seen").text == "None"


def test_addresses_start_with_application_root_not_the_script_root(
    make_localized: Callable[..., Flask],
) -> None:
    # The contract changed (issue 9): the mount path is APPLICATION_ROOT; the
    # request's SCRIPT_NAME, which a client can set, is never followed.
    for config, prefix in (({}, ""), ({"APPLICATION_ROOT": "/app"}, "/app")):
        client = make_localized(**config).test_client()
        body = client.get("/en/about", base_url="http://localhost/app/").json
        assert body is not None
        assert body["canonical_path"] == f"{prefix}/en/about"
        assert body["hreflang_paths"][-1] == ["x-default", f"{prefix}/about"]
        response = client.get("/about", base_url="http://localhost/app/")
        assert response.headers["Location"] == f"{prefix}/en/about"


def test_the_jinja_global_page(loc_app: Flask) -> None:
    template = (
        "{{ page.locale }}|{% for a in page.alternates %}"
        "<a hreflang={{ a.hreflang }} href={{ a.href }}>{% endfor %}"
    )
    with loc_app.test_request_context("/de-at/about?x=1"):
        loc_app.preprocess_request()
        assert render_template_string(template) == (
            "de-AT|<a hreflang=en href=/en/about?x=1>"
            "<a hreflang=de-AT href=/de-at/about?x=1>"
        )
    with loc_app.test_request_context("/plain"):
        assert render_template_string(template) == "None|"
    with loc_app.app_context():
        assert render_template_string(template) == "None|"


def test_current_page_outside_a_request_says_where_it_works(loc_app: Flask) -> None:
    with loc_app.app_context():
        with pytest.raises(RuntimeError, match=r"current_page\(\) works only"):
            current_page()


def test_make_page_and_strip_locale_are_pure() -> None:
    page = make_page(
        ["en", "de-AT"], "en", {"en": "/en/a", "de-AT": "/de-at/a"}, "/a", "x=1"
    )
    assert page.locale == "en"
    assert page.is_localized
    assert [a["href"] for a in page.alternates] == ["/en/a?x=1", "/de-at/a?x=1"]
    assert page.hreflang_paths == (
        ("en", "/en/a"),
        ("de-AT", "/de-at/a"),
        ("x-default", "/a"),
    )
    assert strip_locale("/app/de-at/a/b", "de-AT", "/app") == "/app/a/b"
    assert strip_locale("/de-at", "de-AT") == "/"
    assert strip_locale("/de-at/", "de-AT") == "/"
    assert not Page().is_localized


def test_page_alternates_is_a_list_of_locale_hreflang_href() -> None:
    # API: "page.alternates, a list of {"locale", "hreflang", "href"}".
    page = make_page(
        ["en", "de-AT"], "en", {"en": "/en/a", "de-AT": "/de-at/a"}, "/a", ""
    )
    assert page.alternates == [
        {"locale": "en", "hreflang": "en", "href": "/en/a"},
        {"locale": "de-AT", "hreflang": "de-AT", "href": "/de-at/a"},
    ]
    assert Page().alternates == []
