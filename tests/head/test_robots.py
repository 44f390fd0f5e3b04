"""robots: Google's directives, and a deployment that must not be indexed."""

from __future__ import annotations

import datetime
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask, render_template_string

from flask_marmeon import head

from .conftest import RenderFn, meta, parse_head

UTC = datetime.timezone.utc


def test_every_directive_after_index_and_follow(app: Flask, head_of: RenderFn) -> None:
    moment = datetime.datetime(2025, 7, 1, 12, 30, tzinfo=UTC)
    robots = {
        "unavailable_after": moment,
        "noimageindex": True,
        "nosnippet": True,
        "max_video_preview": 0,
        "max_snippet": -1,
        "max_image_preview": "large",
        "follow": True,
        "index": False,
    }
    assert meta(head_of(app, {"robots": robots}), "robots") == [
        "noindex, follow, max-image-preview:large, max-snippet:-1,"
        " max-video-preview:0, nosnippet, noimageindex,"
        " unavailable_after: 2025-07-01T12:30:00+00:00"
    ]


def test_a_directive_alone_and_false_flags(app: Flask, head_of: RenderFn) -> None:
    call = {"robots": {"max_snippet": 50, "nosnippet": False, "noimageindex": False}}
    assert meta(head_of(app, call), "robots") == ["max-snippet:50"]
    assert meta(head_of(app, {"robots": {"nosnippet": False}}), "robots") == []


def test_the_directives_merge_key_by_key(app: Flask, head_of: RenderFn) -> None:
    layout = {"robots": {"max_image_preview": "large", "max_snippet": -1}}
    page = {"robots": {"index": False, "max_snippet": 20}}
    assert meta(head_of(app, layout, page), "robots") == [
        "noindex, max-image-preview:large, max-snippet:20"
    ]


@pytest.mark.parametrize(
    ("robots", "error", "named"),
    [
        ({"max_image_preview": "huge"}, ValueError, "robots.max_image_preview"),
        ({"max_snippet": -2}, ValueError, "robots.max_snippet"),
        ({"max_video_preview": True}, TypeError, "robots.max_video_preview"),
        ({"max_snippet": "10"}, TypeError, "robots.max_snippet"),
        ({"max_snippet": 1.5}, TypeError, "robots.max_snippet"),
        ({"nosnippet": 1}, TypeError, "robots.nosnippet"),
        ({"noimageindex": "yes"}, TypeError, "robots.noimageindex"),
        ({"max_image_preview": 3}, TypeError, "robots.max_image_preview"),
        (
            {"unavailable_after": datetime.date(2025, 7, 1)},
            TypeError,
            "robots.unavailable_after",
        ),
        (
            {"unavailable_after": "2025-07-01"},
            TypeError,
            "robots.unavailable_after",
        ),
        (
            {"unavailable_after": datetime.datetime(2025, 7, 1)},
            ValueError,
            "time zone",
        ),
    ],
)
def test_a_wrong_value_names_the_key(
    app: Flask, robots: dict[str, Any], error: type[Exception], named: str
) -> None:
    with app.test_request_context("/"), pytest.raises(error, match=named):
        head(robots=robots)


def test_an_aware_datetime_keeps_its_offset(app: Flask, head_of: RenderFn) -> None:
    zone = datetime.timezone(datetime.timedelta(hours=2))
    moment = datetime.datetime(2025, 7, 1, 9, 0, 5, tzinfo=zone)
    content = meta(head_of(app, {"robots": {"unavailable_after": moment}}), "robots")
    assert content == ["unavailable_after: 2025-07-01T09:00:05+02:00"]


def test_a_site_that_must_not_be_indexed_says_so_on_every_head(
    make_app: Callable[..., Flask], head_of: RenderFn
) -> None:
    app = make_app(APP_URL="https://staging.example", MARMEON_INDEXABLE=False)
    call = {"robots": {"index": True, "follow": True, "max_snippet": -1}}
    assert meta(head_of(app, call), "robots") == ["noindex, nofollow, max-snippet:-1"]
    assert meta(head_of(app, {"title": "T"}), "robots") == ["noindex, nofollow"]

    # A page that never calls head() says it too.
    @app.get("/bare")
    def bare() -> str:
        return render_template_string("<head>{{ render_head() }}</head>")

    el = parse_head(
        app.test_client()
        .get("/bare")
        .text.removeprefix("<head>")
        .removesuffix("</head>")
    )
    assert meta(el, "robots") == ["noindex, nofollow"]


def test_an_indexable_site_writes_robots_only_when_set(
    app: Flask, head_of: RenderFn
) -> None:
    assert meta(head_of(app, {"title": "T"}), "robots") == []
