"""The URL policy (urls.py): APP_URL's origin only, http(s) only, browser's rules."""

from __future__ import annotations

import itertools
import json
import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

import ada_url
import pytest
from flask import Flask, render_template_string
from werkzeug.middleware.proxy_fix import ProxyFix

from flask_marmeon import head
from flask_marmeon.head.url_policy import (
    UrlPolicy,
    decide,
    decide_with_parser,
    is_plain_path,
)

from .conftest import RenderFn, links, meta, parse_head

DATA = Path(__file__).parent / "data"


def load(name: str) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads((DATA / name).read_text(encoding="utf-8"))
    return loaded


SAMPLE = load("url-resolution-sample.json")
CORPUS = load("url-corpus.json")


@pytest.mark.parametrize("case", SAMPLE["cases"], ids=lambda c: repr(c["input"])[:40])
def test_the_shared_sample(case: dict[str, Any]) -> None:
    assert decide(case["input"], SAMPLE["app_url"]) == case["expected"]


@pytest.mark.parametrize("case", CORPUS["cases"], ids=lambda c: repr(c["input"])[:40])
def test_the_hostile_corpus(case: dict[str, Any]) -> None:
    assert decide(case["input"], CORPUS["app_url"]) == case["expected"]


@pytest.mark.parametrize("origin", ["https://notes.example", "http://127.0.0.1:5000"])
def test_a_plain_path_is_decided_as_the_parser_decides(origin: str) -> None:
    # decide() answers origin + path for a plain path without asking the
    # parser: every such value of the corpora and of every three characters
    # of a tricky alphabet must get the parser's own answer.
    values = [case["input"] for case in (*CORPUS["cases"], *SAMPLE["cases"])]
    alphabet = "/.%\\?#a:@!$&'()*+,;=-_~ \t\n\x00é"
    values += ["/" + "".join(chars) for chars in itertools.product(alphabet, repeat=3)]
    plain = [value for value in values if is_plain_path(value)]
    assert len(plain) > 1000
    assert not any(is_plain_path(v) for v in ("//x", "/.", "/a/..", "/%2e", "/a b"))
    for value in plain:
        assert decide_with_parser(value, origin) == origin + value, value
        assert decide(value, origin) == origin + value


def test_the_corpus_is_large_and_hostile() -> None:
    inputs = [case["input"] for case in CORPUS["cases"]]
    assert len(inputs) >= 400
    for needle in (
        "\t",
        "\n",
        "\\",
        "javascript:",
        "JaVaScRiPt:",
        "data:",
        "mailto:",
        "blob:",
        "file:",
        "//",
        "///",
        "https:",
        "http:/",
        "%",
        "@",
        "[::",
    ):
        assert any(needle in value for value in inputs), needle
    assert "" in inputs and " " in inputs
    kept_elsewhere = [
        case
        for case in CORPUS["cases"]
        if case["expected"]
        and ada_url.URL(case["expected"]).origin != "https://notes.example"
    ]
    assert len(kept_elsewhere) > 50
    # Whatever lands elsewhere is a full URL, never a relative one.
    for case in kept_elsewhere:
        assert decide(case["input"].strip(), None) is not None, case


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("/x", None),
        ("x.png", None),
        ("//cdn.example/x", None),
        ("https://cdn.example/x.png", "https://cdn.example/x.png"),
        ("HTTP://CDN.example", "http://cdn.example/"),
        ("javascript:alert(1)", None),
        ("data:,x", None),
    ],
)
def test_without_app_url_only_full_urls_stay(value: str, expected: str | None) -> None:
    assert decide(value, None) == expected


def test_the_policy_keeps_its_answers_per_app() -> None:
    one, two = UrlPolicy("https://one.example"), UrlPolicy("https://two.example")
    assert one("/x") == "https://one.example/x"
    assert two("/x") == "https://two.example/x"
    assert one("//two.example/x") is None
    assert one("/x?a") == "https://one.example/x?a"
    # The parser's answers are kept; a plain path, decided by its pattern
    # (as decide() does), is not.
    assert one.memo == {"//two.example/x": None, "/x?a": "https://one.example/x?a"}
    assert one("/x") == decide("/x", "https://one.example")
    small = UrlPolicy("https://one.example", size=2)
    for i in range(5):
        assert small(f"/{i}?q") == f"https://one.example/{i}?q"
        assert len(small.memo) <= 2
    assert small.memo


URL_FIELDS = {
    "canonical": lambda v: {"canonical": v},
    "open_graph.url": lambda v: {"open_graph": {"url": v}},
    "open_graph.image": lambda v: {"open_graph": {"image": v}},
    "twitter.image": lambda v: {"twitter": {"image": v}},
}


def written_urls(el: Any) -> list[str]:
    urls = [link["href"] for link in links(el, "canonical")]
    for key in ("og:url", "og:image", "twitter:image"):
        urls += meta(el, key)
    return urls


@pytest.mark.parametrize("field", URL_FIELDS)
def test_never_the_requests_host(make_app: Callable[..., Flask], field: str) -> None:
    app = make_app(APP_URL="https://notes.example")
    app.wsgi_app = ProxyFix(app.wsgi_app, x_for=1, x_proto=1, x_host=1, x_port=1)  # type: ignore[method-assign]

    @app.get("/p")
    def page() -> str:
        head(**URL_FIELDS[field]("/notes/1"))
        return render_template_string("{{ render_head() }}")

    response = app.test_client().get(
        "/p",
        headers={
            "Host": "attacker.example",
            "X-Forwarded-Host": "evil.example",
            "X-Forwarded-Proto": "http",
            "X-Forwarded-Port": "8080",
        },
    )
    assert written_urls(parse_head(response.text)) == ["https://notes.example/notes/1"]


@pytest.mark.parametrize("field", URL_FIELDS)
def test_without_app_url_relative_values_are_left_out_and_full_ones_kept(
    make_app: Callable[..., Flask], head_of: RenderFn, field: str
) -> None:
    app = make_app()
    assert written_urls(head_of(app, URL_FIELDS[field]("/notes/1"))) == []
    full = "https://cdn.example/a.png"
    assert written_urls(head_of(app, URL_FIELDS[field](full))) == [full]


@pytest.mark.parametrize("field", URL_FIELDS)
@pytest.mark.parametrize(
    ("value", "written"),
    [
        ("//evil.example/x", None),
        ("/\\evil.example/x", None),
        ("\t//evil.example/x", None),
        (" /\t/evil.example", None),
        ("javascript:alert(1)", None),
        ("data:image/png;base64,AAAA", None),
        ("https://cdn.example/x.png", "https://cdn.example/x.png"),
        ("/a b?q=ü", "https://notes.example/a%20b?q=%C3%BC"),
    ],
)
def test_each_url_field_follows_the_policy(
    app: Flask, head_of: RenderFn, field: str, value: str, written: str | None
) -> None:
    assert written_urls(head_of(app, URL_FIELDS[field](value))) == (
        [written] if written else []
    )


def test_development_warns_once_per_left_out_url_naming_field_and_value(
    make_app: Callable[..., Flask],
    render_calls: Callable[..., str],
    caplog: pytest.LogCaptureFixture,
) -> None:
    app = make_app(APP_URL="https://notes.example")
    app.debug = True
    call = {
        "canonical": "//evil.example/c",
        "open_graph": {"url": "javascript:x", "image": "/ok.png"},
        "twitter": {"image": "data:,x"},
    }
    with caplog.at_level(logging.WARNING, logger="flask_marmeon"):
        render_calls(app, call)
    messages = [r.getMessage() for r in caplog.records]
    assert len(messages) == 3
    assert "canonical" in messages[0] and "'//evil.example/c'" in messages[0]
    assert "open_graph.url" in messages[1] and "'javascript:x'" in messages[1]
    assert "twitter.image" in messages[2] and "'data:,x'" in messages[2]
    assert "evil.example" in messages[0] and "scheme" in messages[1]


def test_without_app_url_development_warns_for_a_relative_value(
    make_app: Callable[..., Flask],
    render_calls: Callable[..., str],
    caplog: pytest.LogCaptureFixture,
) -> None:
    app = make_app()
    app.debug = True
    with caplog.at_level(logging.WARNING, logger="flask_marmeon"):
        render_calls(app, {"canonical": "/x"})
    [record] = caplog.records
    assert "canonical" in record.getMessage() and "APP_URL" in record.getMessage()


def test_production_does_not_warn(
    app: Flask, render_calls: Callable[..., str], caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.WARNING, logger="flask_marmeon"):
        render_calls(app, {"canonical": "//evil.example/c"})
    assert caplog.records == []


def test_two_apps_in_one_process_use_their_own_origin(
    make_app: Callable[..., Flask], head_of: RenderFn
) -> None:
    one = make_app(APP_URL="https://one.example")
    two = make_app(APP_URL="http://two.example:8080")
    assert written_urls(head_of(one, {"canonical": "/x"})) == ["https://one.example/x"]
    assert written_urls(head_of(two, {"canonical": "/x"})) == [
        "http://two.example:8080/x"
    ]
    assert written_urls(head_of(one, {"canonical": "//two.example:8080/x"})) == []


def carried(el: Any) -> list[dict[str, Any]]:
    """The items of the browser data, [] when there is none."""
    found = [s for s in el.iter("script") if "data-marmeon-data" in s.attrib]
    assert len(found) <= 1
    if not found:
        return []
    data = json.loads(found[0].text or "")
    assert data["v"] == 2 and set(data) == {"v", "missing"}
    items: list[dict[str, Any]] = data["missing"]
    return items


def test_the_corpus_through_head_and_the_browser_data(
    app: Flask, make_app: Callable[..., Flask], render_calls: Callable[..., str]
) -> None:
    # What head() writes for each hostile value is what Chromium would do
    # with it. With APP_URL nothing goes to the browser; without it, a
    # relative value goes as the app wrote it, a bad scheme never.
    no_app_url = make_app()
    wrong = []
    for case in SAMPLE["cases"] + CORPUS["cases"]:
        html = render_calls(app, {"canonical": case["input"]})
        el = parse_head(html)  # also: not one HTML parse error
        written = [link["href"] for link in links(el, "canonical")]
        if written != ([case["expected"]] if case["expected"] else []):
            wrong.append((case["input"], written, case["expected"]))
        assert carried(el) == []
        el = parse_head(render_calls(no_app_url, {"canonical": case["input"]}))
        alone = decide(case["input"], None)
        items = carried(el)
        if alone is not None:
            assert [link["href"] for link in links(el, "canonical")] == [alone]
            assert items == []
        elif items:
            [item] = items
            assert item["attrs"] == {"rel": "canonical", "href": case["input"]}
            assert item["url"] == "href" and item["at"] == 0
            assert not ada_url.check_url(case["input"])
        elif ada_url.check_url(case["input"]):
            # Left out for good: it parses alone, with a scheme not http(s).
            assert ada_url.parse_url(case["input"])["protocol"] not in (
                "http:",
                "https:",
            )
        else:
            # Left out for good: relative, but to another host whatever the
            # origin (//evil.example, /\\evil.example), or no URL at all
            # (against an https origin: "http:" alone would be http's page).
            for origin in ("https://a.example", "https://b.example:8443"):
                assert decide(case["input"], origin) is None
    assert wrong == []


def test_a_url_with_characters_html_cannot_carry_still_parses(
    app: Flask, make_app: Callable[..., Flask], head_of: RenderFn
) -> None:
    no_app_url = make_app()
    for value in (
        "/a\x85b\x7f\ufdd0\U0001fffe",
        "https://cdn.example/\x9f",
        "/\ud800x",
    ):
        el = head_of(app, {"open_graph": {"url": value}})
        assert meta(el, "og:url")[0].startswith(
            ("https://notes.example/", "https://cdn")
        )
        el = head_of(no_app_url, {"open_graph": {"url": value}})
        if value.startswith("/"):
            [item] = carried(el)
            assert item["attrs"]["content"] == value.replace("\ud800", "\ufffd")
        else:
            assert meta(el, "og:url")[0].startswith("https://cdn")
