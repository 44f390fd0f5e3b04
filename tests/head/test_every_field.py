"""Every field and every nested key of the table, in turn (hypothesis).

Two pages that differ only in that one value render different heads, and
requests that alternate between them (the memo keeping both) never get each
other's head. The fields come from the table itself (table.HEAD), so a new
field is covered the moment it is declared.
"""

from __future__ import annotations

import datetime
import string
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from flask_marmeon import Marmeon, head, render_head
from flask_marmeon.head import field_kinds, page_tag_kinds, table
from flask_marmeon.head.fragment import build_fragment
from flask_marmeon.head.memo import head_key
from flask_marmeon.head.merge import merge

WORD = st.text(string.ascii_letters + string.digits, min_size=1, max_size=12)


def _leaves(obj: field_kinds.ObjectField, path: tuple[str, ...]) -> Iterator[Any]:
    for key, field in obj.fields.items():
        here = (*path, key)
        if isinstance(field, field_kinds.ObjectField):
            yield from _leaves(field, here)
        elif isinstance(field, (field_kinds.RecordField, page_tag_kinds.PriceField)):
            yield from _leaves(field.obj, here)
        else:
            yield here, field


LEAVES = list(_leaves(table.HEAD.check, ()))


def strategy(field: field_kinds.Field) -> st.SearchStrategy[Any]:
    """Valid values of one field (plain ones: the checks have their own tests)."""
    if isinstance(field, page_tag_kinds.CurrencyField):
        return st.sampled_from(["EUR", "USD", "JPY"])
    if isinstance(field, page_tag_kinds.AmountField):
        return st.one_of(
            st.integers(0, 10**6),
            st.decimals(0, 10**6, places=2).map(str),
            st.decimals(0, 10**6, places=2),
        )
    # Lists only: a text and the list of it write the same head.
    if isinstance(field, page_tag_kinds.LinesField):
        return st.lists(WORD, min_size=1, max_size=3)
    if isinstance(field, page_tag_kinds.NamesField):
        name = WORD.filter(lambda w: field.taken(w) is None)
        return st.dictionaries(name, st.lists(WORD, min_size=1, max_size=2), min_size=1)
    if isinstance(field, field_kinds.TemplateField):
        return WORD.map(lambda w: f"{w} %s")
    if isinstance(field, field_kinds.UrlField):
        return WORD.map(lambda w: f"/{w}")
    if isinstance(field, field_kinds.ChoiceField):
        return st.sampled_from(field.choices)
    if isinstance(field, field_kinds.TextListField):
        return st.lists(WORD, min_size=1, max_size=3)
    if isinstance(field, field_kinds.BoolField):
        return st.booleans()
    if isinstance(field, field_kinds.SizeField):
        return st.integers(1, 5000)
    if isinstance(field, field_kinds.LimitField):
        return st.integers(-1, 500)
    if isinstance(field, field_kinds.MomentField):
        return st.datetimes(
            min_value=datetime.datetime(2000, 1, 1),
            max_value=datetime.datetime(2100, 1, 1),
            timezones=st.just(datetime.timezone.utc),
        )
    if isinstance(field, field_kinds.DateField):
        return st.dates(datetime.date(2000, 1, 1), datetime.date(2100, 1, 1))
    if isinstance(field, field_kinds.JsonLdField):
        return WORD.map(lambda w: {"@type": "Thing", "name": w})
    if isinstance(field, field_kinds.TextField):
        return WORD
    raise AssertionError(f"no strategy for {type(field).__name__}")


def call_with(path: tuple[str, ...], value: Any) -> dict[str, Any]:
    """head()'s arguments that set ``path`` to ``value``, with what makes it
    written: the og type its object needs, a title for the template, a URL
    for an image's other keys."""
    call: dict[str, Any] = {}
    where = call
    for key in path[:-1]:
        where = where.setdefault(key, {})
    where[path[-1]] = value
    if path[0] == "title_template":
        call["title"] = "Page"
    if path[0] == "open_graph" and len(path) == 3:
        if path[1] in ("article", "book", "profile", "product"):
            call["open_graph"]["type"] = path[1]
        elif path[2] != "url":
            call["open_graph"][path[1]]["url"] = "/media"
    if path[0] == "twitter" and path[1] == "image" and path[2] != "url":
        call["twitter"]["image"]["url"] = "/media"
    if path[:2] == ("open_graph", "product"):
        call["open_graph"]["type"] = "product"
        if path[2] == "price":
            call["open_graph"]["product"]["price"].update(
                {"amount": 1, "currency": "EUR", path[3]: value}
            )
    # The keys a page's tag needs beside the one set (an icon's URL).
    if path[0] in ("icons", "feeds") and len(path) == 2:
        call[path[0]].setdefault("url", "/media")
    if path[0] == "feeds" and len(path) == 2:
        call["feeds"].setdefault("type", "application/rss+xml")
    if path == ("icons", "color"):
        call["icons"]["rel"] = "mask-icon"
    if path[0] == "theme_color" and len(path) == 2:
        call["theme_color"].setdefault("color", "#fff")
    return call


#: What a layout sets before the page's call.
LAYOUT: dict[str, Any] = {"title": "Layout", "open_graph": {}, "twitter": {}}


def render(app: Flask, call: dict[str, Any]) -> str:
    with app.test_request_context("/"):
        head(**LAYOUT)
        head(**call)
        return str(render_head())


def new_app() -> Flask:
    app = Flask("every_field")
    app.config.update(APP_URL="https://notes.example", TESTING=True)
    Marmeon(app)
    return app


@pytest.mark.parametrize(
    ("path", "field"), LEAVES, ids=[".".join(p) for p, _ in LEAVES]
)
@settings(
    max_examples=8,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(data=st.data())
def test_one_value_changes_the_head_and_the_memo_keeps_them_apart(
    path: tuple[str, ...], field: field_kinds.Field, data: st.DataObject
) -> None:
    one = data.draw(strategy(field), label="one")
    other = data.draw(strategy(field).filter(lambda v: v != one), label="other")
    calls = [call_with(path, one), call_with(path, other)]
    # Each page as a fresh app writes it (nothing kept).
    expected = [render(new_app(), call) for call in calls]
    assert expected[0] != expected[1], path
    # Every value is hashable in the memo's key (else such pages would be
    # written each time, the speed trick silently lost).
    for call in calls:
        merged = merge([build_fragment(LAYOUT), build_fragment(call)])
        hash(head_key(merged, None, ()))
    # One production app, the two pages alternating: kept from their second
    # or third writing on, each must still get its own head.
    app = new_app()
    for _ in range(4):
        for call, text in zip(calls, expected, strict=True):
            assert render(app, call) == text, path


def test_every_leaf_of_the_table_is_covered() -> None:
    names = {".".join(path) for path, _ in LEAVES}
    for expected in (
        "title",
        "robots.unavailable_after",
        "open_graph.image.alt",
        "open_graph.video.secure_url",
        "open_graph.audio.type",
        "open_graph.book.isbn",
        "open_graph.profile.gender",
        "twitter.image.alt",
        "icons.sizes",
        "theme_color.media",
        "manifest",
        "feeds.title",
        "verification.pinterest",
        "other",
        "facebook.app_id",
        "open_graph.product.price.amount",
        "open_graph.product.retailer_item_id",
        "json_ld",
    ):
        assert expected in names
