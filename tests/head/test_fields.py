"""head(): every argument and key is checked at the call (fragment.py,
field_kinds.py)."""

from __future__ import annotations

import datetime
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from flask_babel import Babel, lazy_gettext

from flask_marmeon import HeadFragment, head
from flask_marmeon._context import request_state
from flask_marmeon.head.field_kinds import Image
from flask_marmeon.head.fragment import build_fragment


def fragment(app: Flask, **kwargs: Any) -> HeadFragment:
    with app.test_request_context("/"):
        head(**kwargs)
        return request_state("test").fragments[-1]


def test_none_means_not_set_and_an_empty_object_counts_as_set(app: Flask) -> None:
    got = fragment(app, title=None, open_graph={}, twitter=None, robots={})
    assert got == HeadFragment(open_graph={}, robots={})


def test_values_are_normalized(app: Flask) -> None:
    got = fragment(
        app,
        title="T",
        open_graph={
            "image": {"url": "/a.png", "width": 1200, "height": 630, "alt": "A"},
            "article": {
                # Aware: a naive datetime is refused (issue 20).
                "published_time": datetime.datetime(
                    2024, 5, 1, 12, 30, tzinfo=datetime.timezone.utc
                ),
                "modified_time": datetime.date(2024, 5, 2),
                "authors": ("https://notes.example/ada",),
                "tags": ["x", "y"],
            },
        },
        twitter={"image": "/t.png"},
    )
    assert got.get("open_graph") == {
        "image": (Image("/a.png", 1200, 630, "A"),),
        "article": {
            "published_time": "2024-05-01T12:30:00+00:00",
            "modified_time": "2024-05-02",
            "authors": ("https://notes.example/ada",),
            "tags": ("x", "y"),
        },
    }
    assert got.get("twitter") == {"image": Image("/t.png")}


@pytest.mark.parametrize(
    ("kwargs", "path"),
    [
        ({"title": 42}, "title"),
        ({"title_template": 42}, "title_template"),
        ({"description": b"x"}, "description"),
        ({"robots": {"index": 1}}, "robots.index"),
        (
            {"open_graph": {"image": {"url": "/a", "width": True}}},
            "open_graph.image.width",
        ),
        ({"twitter": {"card": b"summary"}}, "twitter.card"),
        ({"canonical": 1}, "canonical"),
        ({"robots": "noindex"}, "robots"),
        ({"robots": {"index": "no"}}, "robots.index"),
        ({"robots": {"follow": 0}}, "robots.follow"),
        (
            {"open_graph": {"image": {"url": "/a", "width": "1200"}}},
            "open_graph.image.width",
        ),
        (
            {"open_graph": {"image": {"url": "/a", "height": True}}},
            "open_graph.image.height",
        ),
        (
            {"open_graph": {"image": {"url": "/a", "width": 12.0}}},
            "open_graph.image.width",
        ),
        ({"open_graph": {"image": {"url": 5}}}, "open_graph.image.url"),
        ({"open_graph": {"image": 5}}, "open_graph.image"),
        ({"open_graph": {"title": 42}}, "open_graph.title"),
        ({"open_graph": {"type": 1}}, "open_graph.type"),
        (
            {"open_graph": {"article": {"published_time": 1}}},
            "open_graph.article.published_time",
        ),
        ({"open_graph": {"article": {"authors": "Ada"}}}, "open_graph.article.authors"),
        ({"open_graph": {"article": {"tags": ["a", 1]}}}, "open_graph.article.tags[1]"),
        ({"open_graph": {"article": []}}, "open_graph.article"),
        (
            {"twitter": {"card": None, "image": {"url": "/a", "alt": 3}}},
            "twitter.image.alt",
        ),
        ({"twitter": {"site": ["@x"]}}, "twitter.site"),
        ({"twitter": ["card"]}, "twitter"),
        ({"json_ld": "{}"}, "json_ld"),
        ({"json_ld": [{"@type": "A"}, "x"]}, "json_ld[1]"),
    ],
)
def test_a_wrong_type_is_a_type_error_naming_the_key(
    app: Flask, kwargs: dict[str, Any], path: str
) -> None:
    with pytest.raises(TypeError) as info:
        fragment(app, **kwargs)
    assert str(info.value).startswith(path + " ")


@pytest.mark.parametrize(
    ("kwargs", "wrong", "right"),
    [
        ({"open_graph": {"siteName": "N"}}, "siteName", "site_name"),
        (
            {"open_graph": {"article": {"publishedTime": "2024"}}},
            "publishedTime",
            "published_time",
        ),
        ({"open_graph": {"titel": "x"}}, "titel", "title"),
        ({"twitter": {"crd": "summary"}}, "crd", "card"),
        # robots={"noindex": True} says index=False instead (issue 20):
        # tests/head/test_messages_and_datetimes.py.
        ({"open_graph": {"image": {"url": "/a", "with": 3}}}, "with", "width"),
        ({"openGraph": {}}, "openGraph", "open_graph"),
        ({"jsonLd": {}}, "jsonLd", "json_ld"),
        ({"titleTemplate": "%s"}, "titleTemplate", "title_template"),
        ({"descripton": "x"}, "descripton", "description"),
    ],
)
def test_an_unknown_key_is_a_type_error_with_the_right_spelling(
    app: Flask, kwargs: dict[str, Any], wrong: str, right: str
) -> None:
    with pytest.raises(TypeError) as info:
        fragment(app, **kwargs)
    assert repr(wrong) in str(info.value)
    assert f"Did you mean {right!r}?" in str(info.value)


def test_an_unknown_key_far_from_any_gets_no_guess(app: Flask) -> None:
    with pytest.raises(TypeError) as info:
        fragment(app, open_graph={"zzzzzz": 1})
    assert "Did you mean" not in str(info.value)
    assert "'site_name'" in str(info.value)  # it lists the keys it takes


def test_a_missing_image_url_is_a_type_error(app: Flask) -> None:
    with pytest.raises(TypeError, match=r"open_graph\.image needs the key 'url'"):
        fragment(app, open_graph={"image": {"alt": "A"}})


@pytest.mark.parametrize(
    ("kwargs", "path"),
    [
        ({"open_graph": {"type": "video"}}, "open_graph.type"),
        ({"twitter": {"card": "player"}}, "twitter.card"),
        (
            {"open_graph": {"image": {"url": "/a", "width": 0}}},
            "open_graph.image.width",
        ),
        (
            {"open_graph": {"image": {"url": "/a", "height": -5}}},
            "open_graph.image.height",
        ),
        ({"title_template": "Notes"}, "title_template"),
    ],
)
def test_a_value_outside_the_choices_is_a_value_error(
    app: Flask, kwargs: dict[str, Any], path: str
) -> None:
    with pytest.raises(ValueError) as info:
        fragment(app, **kwargs)
    assert str(info.value).startswith(path + " ")


def test_a_close_choice_is_suggested(app: Flask) -> None:
    with pytest.raises(ValueError, match="Did you mean 'summary_large_image'"):
        fragment(app, twitter={"card": "summary_large"})


def test_head_outside_a_request_says_where_it_may_be_called(app: Flask) -> None:
    with pytest.raises(RuntimeError) as info:
        head(title="x")
    message = str(info.value)
    assert "head()" in message
    assert "view" in message and "before_request" in message
    with app.app_context(), pytest.raises(RuntimeError, match="error handler"):
        head(title="x")


def test_lazy_strings_are_text_everywhere(make_app: Callable[..., Flask]) -> None:
    app = make_app(APP_URL="https://notes.example")
    Babel(app)
    lazy = lazy_gettext("Notes")
    got = fragment(
        app,
        title=lazy,
        title_template=lazy_gettext("%s · Notes"),
        description=lazy,
        canonical=lazy_gettext("/notes"),
        open_graph={
            "title": lazy,
            "site_name": lazy,
            "locale": lazy_gettext("en_US"),
            "image": {"url": lazy_gettext("/a.png"), "alt": lazy},
            "article": {"authors": [lazy], "tags": [lazy], "published_time": lazy},
        },
        twitter={"site": lazy, "title": lazy, "image": lazy_gettext("/t.png")},
    )
    assert got.get("title") == "Notes" and type(got.get("title")) is str
    assert got.get("title_template") == "%s · Notes"
    assert got.get("canonical") == "/notes"
    assert got.get("open_graph") is not None and got.get("twitter") is not None
    assert got.get("open_graph")["image"] == (Image("/a.png", alt="Notes"),)
    assert got.get("open_graph")["article"]["authors"] == ("Notes",)
    assert got.get("twitter")["image"] == Image("/t.png")
    assert (
        type(got.get("open_graph")["image"][0]) is Image
        and type(got.get("twitter")["image"]) is Image
    )


def test_lazy_strings_are_text_in_the_choices_too(
    make_app: Callable[..., Flask],
) -> None:
    # "Lazy strings are accepted wherever text is": an og type, a card.
    app = make_app(APP_URL="https://notes.example")
    Babel(app)
    got = fragment(
        app,
        open_graph={"type": lazy_gettext("article")},
        twitter={"card": lazy_gettext("summary")},
    )
    assert got.get("open_graph") == {"type": "article"}
    assert got.get("twitter") == {"card": "summary"}
    assert type(got.get("twitter")["card"]) is str


def test_text_that_html_cannot_carry_is_replaced() -> None:
    got = build_fragment({"title": "a\x00b\x01c\x7fd\x85e\ufdd0f\ud800g\uffffh"})
    assert got.get("title") == "a\ufffdb\ufffdc\ufffdd\ufffde\ufffdf\ufffdg\ufffdh"
    assert build_fragment({"description": "a\r\nb\rc\td\x0ce"})["description"] == (
        "a\nb\nc\td\x0ce"
    )
