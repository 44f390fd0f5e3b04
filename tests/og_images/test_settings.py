"""The look's configuration: shapes at init_app, files as start-up problems."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from flask import Flask

from flask_marmeon import StartupError, check_routes


def reasons(app: Flask) -> list[str]:
    return [problem.reason for problem in check_routes(app)]


def ids(app: Flask) -> list[str]:
    return [problem.id for problem in check_routes(app)]


def test_images_on_without_a_secret_key_is_h10(og_app: Callable[..., Flask]) -> None:
    app = og_app(SECRET_KEY=None)
    assert any("SECRET_KEY is not set" in r for r in reasons(app))
    assert ids(app) == ["og_images.E001"]
    with pytest.raises(StartupError) as caught:
        app.test_client().get("/")
    assert caught.value.code == "H10"
    assert "MARMEON_OG_IMAGES" in str(caught.value)


def test_images_off_without_a_secret_key_is_fine(
    make_app: Callable[..., Flask],
) -> None:
    assert reasons(make_app(APP_URL="https://notes.example")) == []


def test_a_missing_logo_is_named(og_app: Callable[..., Flask]) -> None:
    app = og_app(MARMEON_OG_IMAGE_LOGO="img/nowhere.png")
    [reason] = reasons(app)
    assert "MARMEON_OG_IMAGE_LOGO" in reason
    assert "nowhere.png" in reason
    assert "does not exist" in reason
    assert ids(app) == ["og_images.E003"]


def test_a_logo_that_is_not_an_image_is_named(
    og_app: Callable[..., Flask], tmp_path: Path
) -> None:
    (tmp_path / "logo.png").write_text("not a picture")
    app = og_app(MARMEON_OG_IMAGE_LOGO=str(tmp_path / "logo.png"))
    [reason] = reasons(app)
    assert str(tmp_path / "logo.png") in reason
    assert "not an image" in reason
    assert ids(app) == ["og_images.E003"]


def test_a_font_that_cannot_be_read_is_named(
    og_app: Callable[..., Flask], tmp_path: Path
) -> None:
    (tmp_path / "broken.ttf").write_bytes(b"\0" * 100)
    app = og_app(
        MARMEON_OG_IMAGE_FONTS={
            "arabic": str(tmp_path / "broken.ttf"),
            "cjk": str(tmp_path / "absent.otf"),
        }
    )
    found = reasons(app)
    assert len(found) == 2
    assert "broken.ttf" in found[0] and "'arabic'" in found[0]
    assert "absent.otf" in found[1] and "'cjk'" in found[1]
    assert ids(app) == ["og_images.E004", "og_images.E004"]


def test_fonts_of_every_script_start_the_app(
    og_app: Callable[..., Flask], script_fonts: dict[str, tuple[str, str]]
) -> None:
    # The color emoji font is made of bitmaps of one size: it must not be
    # refused at start as unreadable.
    assert reasons(og_app(MARMEON_OG_IMAGE_FONTS=script_fonts)) == []


@pytest.mark.parametrize(
    ("config", "error", "words"),
    [
        (
            {"MARMEON_OG_IMAGE_COLORS": {"backgroud": "#fff"}},
            ValueError,
            "'background'",
        ),
        ({"MARMEON_OG_IMAGE_COLORS": {"title": "red"}}, ValueError, "'#rrggbb'"),
        ({"MARMEON_OG_IMAGE_COLORS": {"title": (300, 0, 0)}}, ValueError, "0-255"),
        ({"MARMEON_OG_IMAGE_COLORS": "#fff"}, TypeError, "a dict"),
        ({"MARMEON_OG_IMAGE_FONTS": {"arabik": "a.ttf"}}, ValueError, "'arabic'"),
        ({"MARMEON_OG_IMAGE_FONTS": {"cjk": 3}}, TypeError, "(regular, bold)"),
        ({"MARMEON_OG_IMAGE_DRAW": "draw"}, TypeError, "OgImageCard"),
        ({"MARMEON_OG_IMAGE_LOGO": 3}, TypeError, "static folder"),
        ({"MARMEON_OG_IMAGES": "maybe"}, ValueError, "MARMEON_OG_IMAGES"),
    ],
)
def test_a_wrong_shape_is_refused_at_init_app(
    og_app: Callable[..., Flask], config: dict[str, object], error: type, words: str
) -> None:
    with pytest.raises(error) as caught:  # type: ignore[call-overload]
        og_app(**config)
    assert words in str(caught.value)


def test_the_defaults_are_visible_in_the_config(og_app: Callable[..., Flask]) -> None:
    app = og_app()
    assert app.config["MARMEON_OG_IMAGE_COLORS"] == {}
    assert app.config["MARMEON_OG_IMAGE_DRAW"] is None
