"""Messages of head() that point the right way, JSON-LD checked at the call,
and one rule for naive datetimes (issue 20)."""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import date, datetime, timedelta, timezone
from typing import Any

import pytest
from flask import Flask

from flask_marmeon import head, render_head

from .conftest import metas, parse_head


def call(app: Flask, **fields: Any) -> str:
    """head(**fields) in a request of ``app``; the head it writes."""
    with app.test_request_context("/"):
        head(**fields)
        return str(render_head())


@pytest.mark.parametrize(
    ("robots", "fix"),
    [({"noindex": True}, "index=False"), ({"nofollow": True}, "follow=False")],
)
def test_robots_noindex_says_to_write_index_false(
    app: Flask, robots: dict[str, bool], fix: str
) -> None:
    with pytest.raises(TypeError) as info:
        call(app, robots=robots)
    said = str(info.value)
    assert fix in said
    # Not the opposite of what the page meant.
    assert "Did you mean 'index'?" not in said
    assert "Did you mean 'follow'?" not in said


@pytest.mark.parametrize(
    ("argument", "where", "key"),
    [
        ("siteName", "open_graph", "site_name"),
        ("site_name", "open_graph", "site_name"),
        ("og_image", "open_graph", "image"),
        ("og_type", "open_graph", "type"),
        ("twitter_card", "twitter", "card"),
        ("card", "twitter", "card"),
    ],
)
def test_an_open_graph_or_twitter_key_at_the_top_says_where_it_belongs(
    app: Flask, argument: str, where: str, key: str
) -> None:
    with pytest.raises(TypeError) as info:
        call(app, **{argument: "x"})
    said = str(info.value)
    assert f"{argument!r}" in said
    assert f"{where}={{{key!r}: ...}}" in said


def test_an_image_at_the_top_names_both_open_graph_and_twitter(app: Flask) -> None:
    with pytest.raises(TypeError) as info:
        call(app, og_image="/cover.png")
    said = str(info.value)
    assert "open_graph={'image': ...}" in said and "twitter={'image': ...}" in said


@pytest.mark.parametrize(
    "value",
    [date(2024, 5, 1), datetime(2024, 5, 1, tzinfo=timezone.utc), {1, 2}],
)
def test_json_ld_that_json_cannot_write_fails_at_the_call_in_development(
    make_app: Callable[..., Flask], value: object
) -> None:
    app = make_app(APP_URL="https://notes.example")
    app.debug = True
    with app.test_request_context("/"):
        with pytest.raises(ValueError, match=r"'Event'.*startDate") as info:
            head(json_ld={"@type": "Event", "startDate": value})
        # At the call, in head() itself: not later, when the head is written.
        assert info.traceback[-1].name != "render_head"
        assert "render_head" not in {entry.name for entry in info.traceback}


def test_json_ld_that_json_cannot_write_is_left_out_in_production(
    make_app: Callable[..., Flask], caplog: pytest.LogCaptureFixture
) -> None:
    app = make_app(APP_URL="https://notes.example")
    with caplog.at_level(logging.ERROR, logger="flask_marmeon"):
        text = call(app, json_ld={"@type": "Event", "startDate": date(2024, 5, 1)})
    assert "ld+json" not in text
    assert "'Event'" in caplog.text


# -- naive datetimes: one rule ---------------------------------------------------


@pytest.mark.parametrize(
    "article",
    [
        {"modified_time": datetime(2024, 5, 1, 9, 30)},
        {"published_time": datetime(2024, 5, 1, 9, 30)},
    ],
)
def test_a_naive_datetime_in_an_article_is_refused_like_unavailable_after(
    app: Flask, article: dict[str, object]
) -> None:
    with pytest.raises(ValueError, match="has no time zone") as from_article:
        call(app, open_graph={"type": "article", "article": article})
    with pytest.raises(ValueError, match="has no time zone") as from_robots:
        call(app, robots={"unavailable_after": datetime(2024, 5, 1, 9, 30)})
    assert "tzinfo=timezone.utc" in str(from_article.value)
    assert "tzinfo=timezone.utc" in str(from_robots.value)


def test_an_aware_datetime_and_a_date_are_written_in_iso_8601(app: Flask) -> None:
    paris = timezone(timedelta(hours=2))
    text = call(
        app,
        open_graph={
            "type": "article",
            "article": {
                "published_time": date(2024, 5, 1),
                "modified_time": datetime(2024, 5, 1, 9, 30, tzinfo=paris),
            },
        },
    )
    found = dict(metas(parse_head(text)))
    assert found["article:published_time"] == "2024-05-01"
    assert found["article:modified_time"] == "2024-05-01T09:30:00+02:00"
