"""Issue 21, point 2: Werkzeug's own redirects (merged slashes, strict
slashes, a rule's redirect_to) give a Location under the mount path, never
one built from the request's Host, SCRIPT_NAME or X-Forwarded-*."""

from __future__ import annotations

from collections.abc import Callable
from importlib.metadata import version

import pytest
from flask import Flask
from hostile_site import create_app

from flask_marmeon import everyone

FORGED_HOSTS = ["evil.example", "evil.example:8443"]
FORGED_PREFIXES = ["", "//evil.example", "/evil", "/https://evil.example"]

#: (request path, Location) for hostile_site mounted at /blog.
REDIRECTS = [
    ("/notes//1", "/blog/notes/1"),  # merged slashes, a marked route
    ("/notes//1?page=2&q=%2F", "/blog/notes/1?page=2&q=%2F"),
    ("/de//about", "/blog/de/about"),  # merged slashes, a localized route
    ("/de/guide", "/blog/de/guide/"),  # strict slashes, a localized route
    ("/de/guide?x=1", "/blog/de/guide/?x=1"),
]


@pytest.mark.parametrize("host", FORGED_HOSTS)
@pytest.mark.parametrize("prefix", FORGED_PREFIXES)
@pytest.mark.parametrize(("path", "location"), REDIRECTS)
def test_the_routings_redirects_with_a_forged_host_and_script_name(
    host: str, prefix: str, path: str, location: str
) -> None:
    app = create_app()
    response = app.test_client().get(
        path, base_url=f"http://{host}", environ_overrides={"SCRIPT_NAME": prefix}
    )
    assert response.status_code == 308
    assert response.headers["Location"] == location


@pytest.mark.parametrize("prefix", FORGED_PREFIXES)
@pytest.mark.parametrize(("path", "location"), REDIRECTS)
def test_the_routings_redirects_behind_proxy_fix(
    prefix: str, path: str, location: str
) -> None:
    app = create_app(proxy_fix=True)
    headers = {
        "X-Forwarded-Host": "evil.example",
        "X-Forwarded-Proto": "https",
        "X-Forwarded-Prefix": prefix,
    }
    response = app.test_client().get(path, headers=headers)
    assert response.status_code == 308
    assert response.headers["Location"] == location


#: Werkzeug merges three slashes and more from 3.1.7 on; before, such a
#: path matches no rule (404, no Location at all).
MERGES_ANY_RUN = tuple(int(n) for n in version("werkzeug").split(".")[:3]) >= (3, 1, 7)


def test_at_the_root_a_location_never_names_a_host() -> None:
    app = create_app("/")
    client = app.test_client()
    for path, location in [
        ("/notes//1", "/notes/1"),
        ("/notes///1?x=1", "/notes/1?x=1" if MERGES_ANY_RUN else None),
        ("/de/guide", "/de/guide/"),
    ]:
        response = client.get(path, base_url="http://evil.example")
        assert response.headers.get("Location") == location, path
        assert response.status_code == (308 if location else 404), path


def test_any_route_of_the_app(make_app: Callable[..., Flask]) -> None:
    app = make_app(APPLICATION_ROOT="/shop")
    app.get("/cart/", endpoint="cart")(lambda: "cart")
    app.get("/items/<path:name>", endpoint="items")(lambda name: name)
    app.add_url_rule("/old/<int:n>", redirect_to="items/<n>", endpoint="old")
    client = app.test_client()

    def location(path: str) -> str:
        response = client.get(path, base_url="https://evil.example")
        assert response.status_code == 308, path
        return response.headers["Location"]

    assert location("/cart") == "/shop/cart/"
    assert location("/items//a//b") == "/shop/items/a/b"
    assert location("/old/3") == "/shop/items/3"


def test_a_redirect_to_another_host_is_the_apps_choice(
    make_app: Callable[..., Flask],
) -> None:
    app = make_app()
    app.add_url_rule("/away", redirect_to="https://elsewhere.example/x", endpoint="a")
    response = app.test_client().get("/away", base_url="http://evil.example")
    assert response.headers["Location"] == "https://elsewhere.example/x"


def test_a_post_keeps_its_308(make_app: Callable[..., Flask]) -> None:
    app = make_app(APPLICATION_ROOT="/shop")
    app.post("/cart/", endpoint="cart")(lambda: "posted")
    response = app.test_client().post("/cart", base_url="http://evil.example")
    assert response.status_code == 308
    assert response.headers["Location"] == "/shop/cart/"


def test_the_sitemap_routes(make_app: Callable[..., Flask]) -> None:
    app = make_app(APP_URL="https://notes.example", APPLICATION_ROOT="/blog")
    app.get("/", sitemap=True, authorize=everyone)(lambda: "home")
    response = app.test_client().get("/a//..//", base_url="http://evil.example")
    assert "evil" not in response.headers.get("Location", "")
