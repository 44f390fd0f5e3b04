"""An image address is the app's own: bound to APP_URL's origin and the
mount path, still valid under SECRET_KEY_FALLBACKS, moved (301) when the
look changes; any method but GET and HEAD is a 405 without a cookie."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from flask import Flask, session

from .conftest import address, drawn, png


def test_another_app_with_the_same_key_finds_the_address_404(
    og_app: Callable[..., Flask],
) -> None:
    path = address(og_app(), "Ours")
    other = og_app(APP_URL="https://other.example")
    assert other.test_client().get(path).status_code == 404
    assert drawn(other) == 0
    # The same configuration draws it.
    assert og_app().test_client().get(path).status_code == 200


def test_the_app_under_another_mount_path_finds_the_address_404(
    og_app: Callable[..., Flask],
) -> None:
    path = address(og_app(APPLICATION_ROOT="/blog"), "Ours")
    at_root = og_app()
    assert at_root.test_client().get(path).status_code == 404
    elsewhere = og_app(APPLICATION_ROOT="/shop")
    response = elsewhere.test_client().get(path, environ_base={"SCRIPT_NAME": "/shop"})
    assert response.status_code == 404
    assert drawn(at_root) == drawn(elsewhere) == 0


def test_an_address_signed_with_a_fallback_key_still_draws(
    og_app: Callable[..., Flask],
) -> None:
    old = og_app(SECRET_KEY="the old key")
    path = address(old, "Published last year")
    rotated = og_app(SECRET_KEY="the new key", SECRET_KEY_FALLBACKS=["the old key"])
    response = rotated.test_client().get(path)
    assert response.status_code == 200
    assert response.data == old.test_client().get(path).data
    # New addresses are signed with the new key alone.
    assert (
        og_app(SECRET_KEY="the new key")
        .test_client()
        .get(address(rotated, "New"))
        .status_code
        == 200
    )
    assert og_app(SECRET_KEY="the new key").test_client().get(path).status_code == 404


def test_an_address_of_another_look_moves_to_the_current_one(
    og_app: Callable[..., Flask],
) -> None:
    path = address(og_app(), "A title")
    restyled = og_app(MARMEON_OG_IMAGE_COLORS={"background": "#ffffff"})
    client = restyled.test_client()
    response = client.get(path, headers={"Host": "evil.example"})
    assert response.status_code == 301
    assert "Set-Cookie" not in response.headers
    current = address(restyled, "A title")
    assert current != path
    assert response.headers["Location"] == "https://notes.example" + current
    assert drawn(restyled) == 0
    image = png(client.get(current).data)
    assert image.getpixel((5, 5)) == (255, 255, 255)


def test_under_a_mount_path_the_move_keeps_it(og_app: Callable[..., Flask]) -> None:
    path = address(og_app(APPLICATION_ROOT="/blog"))
    restyled = og_app(
        APPLICATION_ROOT="/blog", MARMEON_OG_IMAGE_COLORS={"accent": "#ff0000"}
    )
    response = restyled.test_client().get(path, environ_base={"SCRIPT_NAME": "/blog"})
    assert response.status_code == 301
    assert response.headers["Location"].startswith("https://notes.example/blog/")


@pytest.mark.parametrize("method", ["POST", "OPTIONS", "PUT", "DELETE", "PATCH"])
def test_other_methods_are_405_without_a_cookie(
    og_app: Callable[..., Flask], method: str
) -> None:
    app = og_app()

    @app.before_request
    def remember() -> None:
        session["seen"] = True

    path = address(app)
    response = app.test_client().open(
        path, method=method, headers={"Cookie": "session=x"}
    )
    assert response.status_code == 405
    assert set(response.headers["Allow"].replace(" ", "").split(",")) == {
        "GET",
        "HEAD",
    }
    assert "Set-Cookie" not in response.headers
    assert drawn(app) == 0
