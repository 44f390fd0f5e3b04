"""More Open Graph: several images, og:video, og:audio, book:* and profile:*."""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask

from flask_marmeon import head

from .conftest import RenderFn, managed, metas, parse_head

OG_KEYS = ("og:", "book:", "profile:")


def og_metas(head_el: Any) -> list[tuple[str, str]]:
    return [(k, v) for k, v in metas(head_el) if k.startswith(OG_KEYS)]


def test_a_list_of_images_each_with_its_own_size_and_alt(
    app: Flask, head_of: RenderFn
) -> None:
    el = head_of(
        app,
        {
            "open_graph": {
                "image": [
                    {"url": "/a.png", "width": 1200, "height": 630, "alt": "A"},
                    "/b.png",
                    {"url": "/c.png", "alt": "C"},
                ]
            }
        },
    )
    assert [m for m in og_metas(el) if m[0].startswith("og:image")] == [
        ("og:image", "https://notes.example/a.png"),
        ("og:image:width", "1200"),
        ("og:image:height", "630"),
        ("og:image:alt", "A"),
        ("og:image", "https://notes.example/b.png"),
        ("og:image", "https://notes.example/c.png"),
        ("og:image:alt", "C"),
    ]


def test_video_and_audio_with_their_properties(app: Flask, head_of: RenderFn) -> None:
    el = head_of(
        app,
        {
            "open_graph": {
                "video": {
                    "url": "/v.mp4",
                    "secure_url": "https://cdn.example/v.mp4",
                    "type": "video/mp4",
                    "width": 640,
                    "height": 360,
                },
                "audio": ["/a.mp3", {"url": "/b.ogg", "type": "audio/ogg"}],
            }
        },
    )
    assert og_metas(el) == [
        ("og:video", "https://notes.example/v.mp4"),
        ("og:video:secure_url", "https://cdn.example/v.mp4"),
        ("og:video:type", "video/mp4"),
        ("og:video:width", "640"),
        ("og:video:height", "360"),
        ("og:audio", "https://notes.example/a.mp3"),
        ("og:audio", "https://notes.example/b.ogg"),
        ("og:audio:type", "audio/ogg"),
    ]


def test_book_one_tag_per_author_and_tag_only_for_type_book(
    app: Flask, head_of: RenderFn
) -> None:
    book = {
        "authors": ["https://notes.example/ada", "https://notes.example/grace"],
        "isbn": "978-3-16-148410-0",
        "release_date": "2024-05-01",
        "tags": ["maths", "engines"],
    }
    el = head_of(app, {"open_graph": {"type": "book", "book": book}})
    assert og_metas(el) == [
        ("og:type", "book"),
        ("book:author", "https://notes.example/ada"),
        ("book:author", "https://notes.example/grace"),
        ("book:isbn", "978-3-16-148410-0"),
        ("book:release_date", "2024-05-01"),
        ("book:tag", "maths"),
        ("book:tag", "engines"),
    ]
    el = head_of(app, {"open_graph": {"type": "article", "book": book}})
    assert not [m for m in og_metas(el) if m[0].startswith("book:")]


def test_profile_only_for_type_profile(app: Flask, head_of: RenderFn) -> None:
    profile = {
        "first_name": "Ada",
        "last_name": "Lovelace",
        "username": "ada",
        "gender": "female",
    }
    el = head_of(app, {"open_graph": {"type": "profile", "profile": profile}})
    assert og_metas(el) == [
        ("og:type", "profile"),
        ("profile:first_name", "Ada"),
        ("profile:last_name", "Lovelace"),
        ("profile:username", "ada"),
        ("profile:gender", "female"),
    ]
    el = head_of(app, {"open_graph": {"profile": profile}})
    assert og_metas(el) == []


def test_book_and_profile_merge_key_by_key_video_and_audio_whole(
    app: Flask, head_of: RenderFn
) -> None:
    el = head_of(
        app,
        {
            "open_graph": {
                "type": "profile",
                "profile": {"first_name": "Ada", "username": "ada"},
                "video": {"url": "/layout.mp4", "type": "video/mp4"},
            }
        },
        {"open_graph": {"profile": {"username": "lovelace"}, "video": "/page.mp4"}},
    )
    assert og_metas(el) == [
        ("og:type", "profile"),
        ("og:video", "https://notes.example/page.mp4"),
        ("profile:first_name", "Ada"),
        ("profile:username", "lovelace"),
    ]


@pytest.mark.parametrize(
    ("value", "error", "words"),
    [
        ({"video": {"url": "/v", "secure": "/s"}}, TypeError, "'secure_url'"),
        ({"audio": {"url": "/a", "width": 3}}, TypeError, "no key 'width'"),
        ({"video": {"secure_url": "/s"}}, TypeError, "needs the key 'url'"),
        ({"video": {"url": "/v", "width": "640"}}, TypeError, "width"),
        ({"book": {"isbnn": "1"}}, TypeError, "Did you mean 'isbn'?"),
        ({"profile": {"firstName": "A"}}, TypeError, "Did you mean 'first_name'?"),
        ({"profile": {"gender": "other"}}, ValueError, "'male', 'female'"),
        ({"type": "movie"}, ValueError, "'book'"),
        ({"image": ["/a.png", 3]}, TypeError, "open_graph.image[1]"),
        ({"bok": {}}, TypeError, "Did you mean 'book'?"),
    ],
)
def test_bad_input_is_named(
    app: Flask, value: dict[str, Any], error: type[Exception], words: str
) -> None:
    with app.test_request_context("/"), pytest.raises(error) as raised:
        head(open_graph=value)  # type: ignore[typeddict-item, typeddict-unknown-key]
    assert words in str(raised.value)


@pytest.mark.parametrize("bad", ["javascript:alert(1)", "//other.example/v.mp4"])
@pytest.mark.parametrize("where", ["url", "secure_url"])
def test_a_bad_url_takes_its_whole_group_with_it(
    make_app: Callable[..., Flask],
    render_calls: Callable[..., str],
    caplog: pytest.LogCaptureFixture,
    bad: str,
    where: str,
) -> None:
    app = make_app(APP_URL="https://notes.example")
    app.debug = True
    video = {"url": "/v.mp4", "type": "video/mp4", "width": 640, where: bad}
    audio = {"url": "/a.mp3", "type": "audio/mpeg", where: bad}
    with caplog.at_level(logging.WARNING, logger="flask_marmeon"):
        el = parse_head(
            render_calls(
                app, {"open_graph": {"video": [video, "/ok.mp4"], "audio": audio}}
            )
        )
    assert og_metas(el) == [("og:video", "https://notes.example/ok.mp4")]
    # Development warns, naming the field and the value.
    assert any(bad in r.getMessage() for r in caplog.records)


def test_without_app_url_a_relative_video_goes_to_the_browser_with_its_group(
    make_app: Callable[..., Flask], render_calls: Callable[..., str]
) -> None:
    app = make_app()
    html = render_calls(
        app,
        {
            "open_graph": {
                "video": {"url": "/v.mp4", "secure_url": "/s.mp4", "type": "t/v"},
                "audio": {"url": "/a.mp3", "secure_url": "https://cdn.example/a"},
            }
        },
    )
    el = parse_head(html)
    assert [m for m in og_metas(el)] == []
    (data,) = [s for s in el.iter("script") if "data-marmeon-data" in s.attrib]
    items = json.loads(data.text or "")["missing"]
    assert [(i["attrs"]["property"], i.get("url"), i["group"]) for i in items] == [
        ("og:video", "content", 1),
        ("og:video:secure_url", "content", 1),
        ("og:video:type", None, 1),
        ("og:audio", "content", 2),
        ("og:audio:secure_url", "content", 2),
    ]
    assert items[4]["attrs"]["content"] == "https://cdn.example/a"
    assert not managed(el)[1:]
