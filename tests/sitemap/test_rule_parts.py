"""A rule's parts, read from its text by the public API: the same as
Werkzeug's compiled rule holds (read here, in the test, as the reference),
read once per rule, and the sitemap and route checks made of them."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Blueprint, Flask
from lxml import etree
from werkzeug.routing import BaseConverter, Map, Rule

from flask_marmeon import SitemapEntry, check_routes, everyone, localized
from flask_marmeon.sitemap.rule_parts import RuleParts, public_parts, rule_parts

from .conftest import locs


class TwoLetters(BaseConverter):
    def __init__(self, url_map: Map, *items: str, upper: bool = False) -> None:
        super().__init__(url_map)
        self.regex = "[A-Z]{2}" if upper else "[a-z]{2}"


RULES = [
    "/",
    "/about/",
    "/notes/<int:note_id>",
    "/notes/<int(min=5):note_id>/edit",
    "/files/<path:rest>",
    "/a/<string(length=2):x>-<path:rest>/z",
    "/<a>.<b>",
    "/d/<float(signed=True):f>/<uuid:u>/<any(x, y):choice>/",
    "/c/<two(upper=True):code>/<two:small>",
    "/literal/with-<dash>_and.<dot>",
]


def compiled_parts(rule: Rule) -> RuleParts:
    """The parts as Werkzeug compiled them (its private attributes): the
    reference the public reading is held against."""
    trace = list(rule._trace)
    for position, (dynamic, data) in enumerate(trace):
        if not dynamic and data == "|":
            trace = trace[position + 1 :]
            break
    merged: list[tuple[bool, str]] = []
    for dynamic, data in trace:
        if not dynamic and merged and not merged[-1][0]:
            merged[-1] = (False, merged[-1][1] + data)
        elif dynamic or data:
            merged.append((dynamic, data))
    return RuleParts(tuple(merged), dict(rule._converters))


def same(one: RuleParts, two: RuleParts) -> bool:
    """Whether two readings of a rule agree (converters by kind and pattern)."""

    def kinds(parts: RuleParts) -> dict[str, tuple[type, str, bool]]:
        return {
            name: (type(c), c.regex, c.part_isolating)
            for name, c in parts.converters.items()
        }

    return one.trace == two.trace and kinds(one) == kinds(two)


def test_the_public_reading_agrees_with_werkzeugs_compiled_rule() -> None:
    url_map = Map(converters={"two": TwoLetters})
    for n, text in enumerate(RULES):
        url_map.add(Rule(text, endpoint=f"e{n}"))
    url_map.add(Rule("/s/<x>", endpoint="sub", subdomain="<sub>"))
    hosts = Map(
        [
            Rule("/h/<int:n>", endpoint="h", host="<tenant>.example"),
            Rule("/h2/<y>", endpoint="h2", host="<tenant>.example"),
        ],
        host_matching=True,
    )
    for rule in [*url_map.iter_rules(), *hosts.iter_rules()]:
        public, private = public_parts(rule), compiled_parts(rule)
        assert same(public, private), rule.rule
        assert set(public.converters) == rule.arguments - set(rule.defaults or ())


def test_the_public_reading_of_a_rule() -> None:
    url_map = Map([Rule("/a/<string(length=2):x>-<path:rest>/z", endpoint="a")])
    (rule,) = url_map.iter_rules()
    parts = public_parts(rule)
    assert parts.trace == (
        (False, "/a/"),
        (True, "x"),
        (False, "-"),
        (True, "rest"),
        (False, "/z"),
    )
    assert parts.converters["x"].regex == "[^/]{2}"
    assert not parts.converters["rest"].part_isolating


def test_a_rule_is_read_once() -> None:
    url_map = Map([Rule("/notes/<int:note_id>", endpoint="note")])
    (rule,) = url_map.iter_rules()
    first = rule_parts(rule)
    assert same(first, compiled_parts(rule))
    assert rule_parts(rule) is first


def site(make_app: Callable[..., Flask]) -> Flask:
    app = make_app(APP_URL="https://notes.example", APP_LOCALES=["en", "de"])

    def each(*params: dict[str, Any]) -> Callable[[], list[SitemapEntry]]:
        return lambda: [SitemapEntry(params=p) for p in params]

    app.get(
        "/notes/<int:note_id>",
        endpoint="note",
        sitemap=each({"note_id": 1}, {"note_id": 2}),
        authorize=everyone,
    )(lambda note_id: "note")
    app.get("/files/<path:rest>", sitemap=each({"rest": "a/b c"}), authorize=everyone)(
        lambda rest: "file"
    )
    app.get(
        "/tags/<tag>.<fmt>",
        endpoint="tag",
        sitemap=each({"tag": "x", "fmt": "html"}),
        authorize=everyone,
    )(lambda tag, fmt: "tag")
    # A rival: the plain route takes one address of the marked one.
    app.get("/notes/2", endpoint="second")(lambda: "plain")
    docs = localized(Blueprint("docs", __name__))
    docs.get("/guide", endpoint="guide", sitemap=True, authorize=everyone)(
        lambda: "guide"
    )
    app.register_blueprint(docs)
    return app


def test_the_sitemap_of_every_shape(make_app: Callable[..., Flask]) -> None:
    app = site(make_app)
    answer = app.test_client().get("/sitemap.xml")
    assert answer.status_code == 200
    found = sorted(locs(etree.fromstring(answer.data)))
    assert found == [
        "https://notes.example/de/guide",
        "https://notes.example/en/guide",
        "https://notes.example/files/a/b%20c",
        "https://notes.example/notes/1",
        "https://notes.example/tags/x.html",
    ]


def test_the_route_checks_of_every_shape(make_app: Callable[..., Flask]) -> None:
    app = site(make_app)
    app.get("/n/<int:n>", endpoint="n", sitemap=True, authorize=everyone)(lambda n: "n")
    app.get("/de/guide", endpoint="shadow")(lambda: "plain")
    found = {(p.id, p.rule) for p in check_routes(app)}
    assert found == {("routing.E007", "/n/<int:n>"), ("routing.E008", "/de/guide")}
