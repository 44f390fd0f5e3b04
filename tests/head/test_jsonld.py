"""JSON-LD: the strict writer (jsonld.py) and its blocks in the head."""

from __future__ import annotations

import datetime
import json
import logging
import math
from collections.abc import Callable
from decimal import Decimal
from typing import Any

import pytest
from flask import Flask, render_template_string
from flask_talisman import Talisman

from flask_marmeon import Marmeon, head, render_head
from flask_marmeon._state import get_state
from flask_marmeon.head import jsonld
from flask_marmeon.head.jsonld import QUOTED
from flask_marmeon.head.state import JSON_LD_ERRORS_SIZE, head_state

from .conftest import RenderFn, parse_head

HOSTILE = "</script><script>alert(1)</script><!--<script>"


def scripts(el: Any) -> list[Any]:
    return [s for s in el.iter("script") if s.get("type") == "application/ld+json"]


@pytest.mark.parametrize(
    "value",
    [
        {"@type": "Person", "name": HOSTILE},
        {"a": [1, 2.5, -0.0, True, False, None, "x"], "b": {"c": {"d": []}}},
        {"big": 2**53 - 1, "small": -(2**53 - 1), "f": 1e308, "tiny": 5e-324},
        {"unicode": "é\u2028\u2029😀 \x00\x01\x1f\x7f\x85\ufdd0\uffff<>&'\""},
        {"<key>": "</SCRIPT", "k": "<!-- -->"},
        [],
        "just a string",
    ],
)
def test_the_text_parses_back_to_exactly_the_object(value: Any) -> None:
    text = jsonld.dumps(value)
    assert "<" not in text
    assert json.loads(text) == value


def test_a_tuple_is_an_array_and_shared_objects_are_fine() -> None:
    shared = {"@id": "#x"}
    assert json.loads(jsonld.dumps({"t": (1, 2), "a": shared, "b": [shared]})) == {
        "t": [1, 2],
        "a": shared,
        "b": [shared],
    }


def cyclic() -> dict[str, Any]:
    node: dict[str, Any] = {"@type": "A"}
    node["self"] = [node]
    return node


class Thing:
    pass


@pytest.mark.parametrize(
    "value",
    [
        cyclic(),
        {"d": datetime.datetime(2024, 1, 1)},
        {"d": datetime.date(2024, 1, 1)},
        {"s": {1, 2}},
        {"b": b"x"},
        {"d": Decimal("1.5")},
        {"n": math.nan},
        {"n": math.inf},
        {"n": -math.inf},
        {"i": 2**53},
        {"i": -(2**53)},
        {1: "non-str key"},
        {("a",): "tuple key"},
        {"s": "lone \ud800 surrogate"},
        {"\udfff": "lone surrogate key"},
        {"o": Thing()},
        {"f": len},
        {"f": lambda: 1},
        {"g": (x for x in ())},
        {"t": Thing},
    ],
)
def test_what_json_cannot_write_exactly_is_refused(value: Any) -> None:
    with pytest.raises(ValueError):
        jsonld.dumps(value)


def test_a_deep_block_is_refused_not_crashed() -> None:
    value: Any = []
    for _ in range(100_000):
        value = [value]
    with pytest.raises(ValueError):
        jsonld.dumps(value)


@pytest.mark.parametrize(
    ("block", "name"),
    [
        ({"@type": "Article", "d": datetime.date(2024, 1, 1)}, "'Article'"),
        ({"@type": ["Article", "NewsArticle"], "s": {1}}, "'Article', 'NewsArticle'"),
        (
            {"@graph": [{"@type": "A"}, {"@type": "B", "x": b""}, {}]},
            "graph of 3 nodes",
        ),
        ({"@graph": [{"x": math.nan}]}, "graph of 1 node"),
        ({"name": "x", "v": math.nan}, "The JSON-LD block with no @type cannot"),
    ],
)
def test_development_raises_naming_the_block(
    make_app: Callable[..., Flask],
    render_calls: Callable[..., str],
    block: dict[str, Any],
    name: str,
) -> None:
    app = make_app(APP_URL="https://notes.example")
    app.debug = True
    with pytest.raises(ValueError) as info:
        render_calls(app, {"json_ld": block})
    assert name in str(info.value)


def test_production_leaves_the_block_out_logs_once_per_type_and_renders_the_rest(
    app: Flask,
    render_calls: Callable[..., str],
    caplog: pytest.LogCaptureFixture,
) -> None:
    calls = (
        {"title": "T", "json_ld": {"@type": "Organization", "name": "N"}},
        {
            "json_ld": [
                {"@type": "Article", "d": datetime.date(2024, 1, 1)},
                {"@type": "Person"},
            ]
        },
    )
    with caplog.at_level(logging.WARNING, logger="flask_marmeon"):
        el = parse_head(render_calls(app, *calls))
        render_calls(app, *calls)
        render_calls(app, {"json_ld": {"@type": "Event", "x": {1}}})
    assert [json.loads(s.text)["@type"] for s in scripts(el)] == [
        "Organization",
        "Person",
    ]
    assert el.find("title") is not None
    messages = [r.getMessage() for r in caplog.records]
    assert len(messages) == 2
    assert "'Article'" in messages[0] and "'Event'" in messages[1]


def test_the_memo_of_errors_and_the_log_stay_bounded(
    app: Flask, caplog: pytest.LogCaptureFixture
) -> None:
    # Issue 9: @types from users (5,000 distinct ones) cannot grow the memo
    # or the log without end, and a huge @type is quoted cut.
    state = get_state(app)
    with caplog.at_level(logging.WARNING, logger="flask_marmeon"):
        with app.test_request_context("/"):
            for i in range(5000):
                head(json_ld={"@type": f"Type{i}", "bad": {i}})
            html = str(render_head())
    assert "ld+json" not in html
    assert len(head_state(state).json_ld_errors) <= JSON_LD_ERRORS_SIZE + 1
    assert len(caplog.records) <= JSON_LD_ERRORS_SIZE + 1
    assert "next ones are left out without a log line" in caplog.messages[-1]
    # A 60 KB @type: the memo is full, so a fresh app.
    caplog.clear()
    fresh = type(app)("fresh")
    fresh.config["APP_URL"] = "https://notes.example"
    Marmeon(fresh)
    huge = "T" * 60_000
    with caplog.at_level(logging.WARNING, logger="flask_marmeon"):
        with fresh.test_request_context("/"):
            head(json_ld={"@type": huge, "bad": {1}})
            render_head()
    [message] = caplog.messages
    assert len(message) < 400
    assert "'" + "T" * QUOTED + "'…" in message
    assert all(len(key) < 200 for key in head_state(get_state(fresh)).json_ld_errors)


def test_one_script_per_block_in_call_order_parsing_back_exactly(
    app: Flask, head_of: RenderFn
) -> None:
    layout = {
        "@context": "https://schema.org",
        "@type": "Organization",
        "name": HOSTILE,
    }
    graph = {
        "@context": "https://schema.org",
        "@graph": [
            {"@type": "Organization", "@id": "https://notes.example/#org"},
            {"@type": "WebSite", "publisher": {"@id": "https://notes.example/#org"}},
        ],
    }
    article = {"@type": "Article", "headline": "a < b && c > d", "n": [1.5, None]}
    el = head_of(app, {"json_ld": layout}, {"json_ld": [graph, article]})
    found = scripts(el)
    assert [json.loads(s.text) for s in found] == [layout, graph, article]
    assert all("data-marmeon" in s.attrib for s in found)


def test_the_nonce_from_marmeon_csp_nonce(
    make_app: Callable[..., Flask], head_of: RenderFn
) -> None:
    calls: list[int] = []

    def nonce() -> str:
        calls.append(1)
        return 'abc"123'

    app = make_app(APP_URL="https://notes.example", MARMEON_CSP_NONCE=nonce)
    el = head_of(app, {"json_ld": [{"@type": "A"}, {"@type": "B"}]})
    all_scripts = list(el.iter("script"))
    # Two blocks and the module: with APP_URL set there is no browser data.
    assert [s.get("type") for s in all_scripts] == [
        "application/ld+json",
        "application/ld+json",
        "module",
    ]
    assert [s.get("data-turbo-eval") for s in all_scripts[:2]] == ["false", "false"]
    assert {s.get("nonce") for s in all_scripts} == {'abc"123'}
    assert calls
    none_app = make_app(MARMEON_CSP_NONCE=lambda: None)
    el = head_of(none_app, {"json_ld": {"@type": "A"}})
    assert all("nonce" not in s.attrib for s in el.iter("script"))


def test_the_nonce_from_flask_talisman(make_app: Callable[..., Flask]) -> None:
    app = make_app(APP_URL="https://notes.example")
    Talisman(
        app,
        force_https=False,
        content_security_policy={"script-src": "'self'"},
        content_security_policy_nonce_in=["script-src"],
    )

    @app.get("/")
    def page() -> str:
        head(json_ld={"@type": "A"})
        return render_template_string("{{ render_head() }}")

    response = app.test_client().get("/")
    el = parse_head(response.text)
    nonces = {s.get("nonce") for s in el.iter("script")}
    assert len(nonces) == 1 and None not in nonces
    [nonce] = nonces
    assert f"'nonce-{nonce}'" in response.headers["Content-Security-Policy"]


def test_marmeon_csp_nonce_wins_over_talisman(make_app: Callable[..., Flask]) -> None:
    app = make_app(APP_URL="https://notes.example", MARMEON_CSP_NONCE=lambda: "mine")
    Talisman(app, force_https=False, content_security_policy_nonce_in=["script-src"])

    @app.get("/")
    def page() -> str:
        head(json_ld={"@type": "A"})
        return render_template_string("{{ render_head() }}")

    el = parse_head(app.test_client().get("/").text)
    assert {s.get("nonce") for s in el.iter("script")} == {"mine"}


def test_lazy_strings_are_text_in_a_block(make_app: Callable[..., Flask]) -> None:
    from flask_babel import Babel, lazy_gettext

    app = make_app()
    Babel(app)
    with app.test_request_context("/"):
        text = jsonld.dumps({"@type": "Thing", "name": lazy_gettext("Notes")})
    assert json.loads(text) == {"@type": "Thing", "name": "Notes"}
