"""The head names generated images fully; bad input never breaks a page."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask

from flask_marmeon import OgImage, OgImageCard, head

from .conftest import image_of, page


def test_open_graph_without_an_image_gets_one_named_fully(
    og_app: Callable[..., Flask],
) -> None:
    app = og_app()
    metas = page(app, title="Sourdough", open_graph={"site_name": "Notes"})
    assert metas["og:image:width"] == ["1200"]
    assert metas["og:image:height"] == ["630"]
    assert metas["og:image:type"] == ["image/png"]
    assert metas["og:image:alt"] == ["Sourdough"]
    assert image_of(app, metas).size == (1200, 630)
    assert "twitter:image" not in metas  # the page sets no twitter tags


def test_twitter_gets_one_when_the_page_has_twitter_tags(
    og_app: Callable[..., Flask],
) -> None:
    app = og_app()
    metas = page(app, title="T", twitter={"card": "summary_large_image"})
    assert "og:image" not in metas
    assert image_of(app, metas, "twitter:image").size == (1200, 630)
    assert metas["twitter:image:alt"] == ["T"]


def test_a_page_without_open_graph_or_twitter_gets_none(
    og_app: Callable[..., Flask],
) -> None:
    metas = page(og_app(), title="Plain")
    assert not any(key.endswith("image") for key in metas)


def test_an_image_the_page_gives_is_kept(og_app: Callable[..., Flask]) -> None:
    metas = page(og_app(), title="T", open_graph={"image": "/cover.png"})
    assert metas["og:image"] == ["https://notes.example/cover.png"]
    assert "og:image:type" not in metas


def test_og_image_gives_its_own_texts_without_the_setting(
    make_app: Callable[..., Flask],
) -> None:
    app = make_app(APP_URL="https://notes.example", SECRET_KEY="s")
    metas = page(
        app,
        title="Page",
        open_graph={"image": OgImage(title="Own title", alt="A card")},
        twitter={"card": "summary"},
    )
    assert metas["og:image:alt"] == ["A card"]
    assert "twitter:image" not in metas  # MARMEON_OG_IMAGES is off
    assert image_of(app, metas).size == (1200, 630)


def test_og_image_without_a_secret_key_is_refused(
    make_app: Callable[..., Flask],
) -> None:
    app = make_app(APP_URL="https://notes.example")

    @app.get("/")
    def view() -> str:
        head(open_graph={"image": OgImage()})
        return ""

    app.testing = False
    with app.test_request_context("/"), pytest.raises(ValueError, match="SECRET_KEY"):
        view()


def test_the_alt_is_the_site_name_when_there_is_no_title(
    og_app: Callable[..., Flask],
) -> None:
    metas = page(og_app(), open_graph={"site_name": "Notes"})
    assert metas["og:image:alt"] == ["Notes"]


def test_the_address_is_under_the_mount_path(og_app: Callable[..., Flask]) -> None:
    app = og_app(APPLICATION_ROOT="/blog")
    metas = page(app, title="T", open_graph={})
    [url] = metas["og:image"]
    assert url.startswith("https://notes.example/blog/marmeon-og/")


def test_a_drawing_function_that_raises_leaves_the_page_without_an_image(
    og_app: Callable[..., Flask], caplog: pytest.LogCaptureFixture
) -> None:
    def broken(card: OgImageCard) -> Any:
        raise RuntimeError("no")

    metas = page(
        og_app(MARMEON_OG_IMAGE_DRAW=broken), "/notes/3", title="T", open_graph={}
    )
    assert "og:image" not in metas
    assert "og:image:width" not in metas
    assert "/notes/3" in caplog.text


BAD_TITLES = {
    "long": "A" * 10_000,
    "controls": "Title\x00 with\x07 controls\x1b[31m\u202e",
    "script": "</script><script>alert(1)</script>",
    "emoji": "🎉👨\u200d👩\u200d👧🇫🇷",
    "empty": "",
}


@pytest.mark.parametrize("kind", sorted(BAD_TITLES))
def test_bad_titles_give_a_valid_head_and_an_image(
    og_app: Callable[..., Flask], kind: str
) -> None:
    app = og_app()
    title = BAD_TITLES[kind]
    metas = page(app, title=title, description=title, open_graph={"site_name": title})
    image = image_of(app, metas)
    assert image.size == (1200, 630)
    [url] = metas["og:image"]
    assert len(url) < 1000
    for values in metas.values():
        assert all("<script" not in value or kind == "script" for value in values)
