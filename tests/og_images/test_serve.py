"""The endpoint: signed addresses only, long caching, 304, no cookie, once."""

from __future__ import annotations

import threading
from collections.abc import Callable

import pytest
from flask import Flask, session
from protego import Protego

from flask_marmeon import everyone
from flask_marmeon.og_images.address import PREFIX, Texts, path_for, serializer
from flask_marmeon.og_images.generator import loaded
from flask_marmeon.og_images.state import og_images_of

from .conftest import address, drawn, png


def test_an_image_is_served_for_a_year_with_an_etag(
    og_app: Callable[..., Flask],
) -> None:
    app = og_app()
    response = app.test_client().get(address(app))
    assert response.status_code == 200
    assert response.mimetype == "image/png"
    assert response.headers["Cache-Control"] == "public, max-age=31536000, immutable"
    assert response.headers["ETag"].startswith('"')
    assert png(response.data).size == (1200, 630)


def test_if_none_match_is_304_without_drawing_again(
    og_app: Callable[..., Flask],
) -> None:
    app = og_app()
    client = app.test_client()
    path = address(app)
    tag = client.get(path).headers["ETag"]
    before = drawn(app)
    again = client.get(path, headers={"If-None-Match": tag})
    assert again.status_code == 304
    assert again.data == b""
    assert again.headers["ETag"] == tag
    assert drawn(app) == before


def test_if_match_without_the_tag_is_a_412_without_drawing(
    og_app: Callable[..., Flask],
) -> None:
    app = og_app()
    client = app.test_client()
    path = address(app)
    first = client.get(path)
    tag = first.headers["ETag"]
    other = address(app, title="Not drawn yet")
    before = drawn(app)
    for method in ("GET", "HEAD"):
        failed = client.open(other, method=method, headers={"If-Match": '"nope"'})
        assert failed.status_code == 412
        assert failed.data == b""
        assert failed.cache_control.no_store and not failed.cache_control.public
    assert drawn(app) == before
    for given in (tag, "*"):
        passed = client.get(path, headers={"If-Match": given})
        assert passed.status_code == 200 and passed.data == first.data


def test_no_cookie_even_when_the_app_writes_the_session(
    og_app: Callable[..., Flask],
) -> None:
    app = og_app()

    @app.before_request
    def remember() -> None:
        session["seen"] = True

    @app.route("/")
    def index() -> str:
        return "home"

    client = app.test_client()
    assert "Set-Cookie" in client.get("/").headers  # the app does write it
    response = client.get(address(app), headers={"Cookie": "session=x"})
    assert response.status_code == 200
    assert "Set-Cookie" not in response.headers


@pytest.mark.parametrize(
    "path",
    [
        PREFIX + "not-signed-at-all.png",
        PREFIX + "WzEsImEiLCJiIiwiYyIsImQiXQ.bad-signature-here.png",
    ],
)
def test_an_address_the_app_did_not_write_is_404_without_drawing(
    og_app: Callable[..., Flask], path: str
) -> None:
    app = og_app()
    response = app.test_client().get(path)
    assert response.status_code == 404
    assert drawn(app) == 0


def test_an_address_signed_with_another_key_is_404(
    og_app: Callable[..., Flask],
) -> None:
    app = og_app()
    digest = loaded(og_images_of(app)).digest
    signer = serializer("another key", og_images_of(app).scope)
    forged = path_for(signer, Texts("Buy pills", "", ""), digest)
    assert app.test_client().get(forged).status_code == 404
    assert drawn(app) == 0


def test_a_changed_address_is_404(og_app: Callable[..., Flask]) -> None:
    app = og_app()
    path = address(app)
    token = path[len(PREFIX) : -len(".png")]
    payload, signature = token.split(".")
    tampered = f"{PREFIX}{payload[:-2]}xx.{signature}.png"
    assert app.test_client().get(tampered).status_code == 404


def test_another_process_draws_the_image_from_its_address_alone(
    og_app: Callable[..., Flask],
) -> None:
    writer, server = og_app(), og_app()
    path = address(writer, "Drawn elsewhere")
    response = server.test_client().get(path)
    assert response.status_code == 200
    assert drawn(server) == 1
    assert response.data == writer.test_client().get(path).data


def test_requests_arriving_together_draw_once(og_app: Callable[..., Flask]) -> None:
    app = og_app()
    path = address(app, "Everyone at once")
    barrier = threading.Barrier(8)
    statuses: list[int] = []

    def fetch() -> None:
        client = app.test_client()
        barrier.wait()
        statuses.append(client.get(path).status_code)

    threads = [threading.Thread(target=fetch) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert statuses == [200] * 8
    assert drawn(app) == 1


def test_the_address_is_under_the_mount_path_and_robots_allows_it(
    og_app: Callable[..., Flask],
) -> None:
    app = og_app(APPLICATION_ROOT="/blog")

    @app.route("/", sitemap=True, authorize=everyone)
    def index() -> str:
        return "home"

    path = address(app)
    client = app.test_client()
    robots = client.get("/robots.txt", environ_base={"SCRIPT_NAME": "/blog"})
    rules = Protego.parse(robots.get_data(as_text=True))
    assert rules.can_fetch("https://notes.example/blog" + path, "facebookexternalhit")
    assert not path.startswith("/_marmeon/")
    response = client.get(path, environ_base={"SCRIPT_NAME": "/blog"})
    assert response.status_code == 200


def test_the_address_changes_when_the_look_changes(
    og_app: Callable[..., Flask],
) -> None:
    plain = address(og_app())
    colored = address(og_app(MARMEON_OG_IMAGE_COLORS={"background": "#ffffff"}))
    assert plain != colored
    assert address(og_app()) == plain  # and only then


def test_texts_are_cut_to_what_is_drawn_before_the_address(
    og_app: Callable[..., Flask],
) -> None:
    app = og_app()
    path = address(app, "x" * 10_000)
    assert len(path) < 600
