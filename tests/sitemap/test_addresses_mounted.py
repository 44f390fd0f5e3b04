"""Addresses of an app mounted under a path: every one under
APPLICATION_ROOT, never under the request's SCRIPT_NAME or a proxy's
forged prefix."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

import pytest
from flask import Blueprint, Flask
from lxml import etree
from werkzeug.exceptions import NotFound
from werkzeug.middleware.dispatcher import DispatcherMiddleware
from werkzeug.middleware.proxy_fix import ProxyFix
from werkzeug.test import Client

from flask_marmeon import everyone, localized

from .conftest import XHTML, locs, provide, show

ORIGIN = "https://notes.example"


def mounted_app(make_app: Callable[..., Flask], **config: Any) -> Flask:
    app = make_app(
        APP_URL=ORIGIN, APPLICATION_ROOT="/blog", APP_LOCALES=["en", "de-AT"], **config
    )
    app.get("/about", sitemap=True, authorize=everyone)(show)
    app.get("/notes/<int:n>", sitemap=provide({"n": 1}, {"n": 2}), authorize=everyone)(
        show
    )
    app.get("/tags/<tag>", sitemap=provide({"tag": "a b"}), authorize=everyone)(show)
    docs = localized(Blueprint("docs", __name__))
    docs.get("/guide/<int:n>", sitemap=provide({"n": 7}), authorize=everyone)(show)
    app.register_blueprint(docs)
    return app


def all_addresses(root: etree._Element) -> list[str]:
    hrefs = [link.get("href") or "" for link in root.iter(f"{XHTML}link")]
    return locs(root) + hrefs


@pytest.mark.parametrize("index", [False, True], ids=["one file", "index"])
def test_an_app_mounted_under_a_path_lists_its_addresses_under_it(
    make_app: Callable[..., Flask], index: bool
) -> None:
    app = mounted_app(make_app, MARMEON_SITEMAP_INDEX=index)
    # Served as a deployment serves it: under /blog, beside other apps.
    site = Client(DispatcherMiddleware(NotFound(), {"/blog": app}))
    response = site.get("/blog/sitemap.xml")
    assert response.status_code == 200
    root = etree.fromstring(response.data)
    if index:
        parts = locs(root)
        assert parts == [f"{ORIGIN}/blog/sitemap-1.xml"]
        response = site.get(urlsplit(parts[0]).path)
        assert response.status_code == 200
        root = etree.fromstring(response.data)
    found = locs(root)
    assert sorted(found) == sorted(
        [
            f"{ORIGIN}/blog/about",
            f"{ORIGIN}/blog/notes/1",
            f"{ORIGIN}/blog/notes/2",
            f"{ORIGIN}/blog/tags/a%20b",
            f"{ORIGIN}/blog/en/guide/7",
            f"{ORIGIN}/blog/de-at/guide/7",
        ]
    )
    hrefs = {
        link.get("hreflang"): link.get("href") for link in root.iter(f"{XHTML}link")
    }
    assert hrefs == {
        "en": f"{ORIGIN}/blog/en/guide/7",
        "de-AT": f"{ORIGIN}/blog/de-at/guide/7",
        "x-default": f"{ORIGIN}/blog/guide/7",
    }
    for address in all_addresses(root):
        status = site.get(urlsplit(address).path).status_code
        # x-default is the address that redirects by language.
        assert status == (302 if address.endswith("/blog/guide/7") else 200), address


FORGED = ["//evil.example", "https://evil.example", "/evil", "\\\\evil.example"]


@pytest.mark.parametrize("forged", FORGED)
@pytest.mark.parametrize("how", ["SCRIPT_NAME", "ProxyFix"])
def test_a_forged_prefix_changes_no_address(
    make_app: Callable[..., Flask], forged: str, how: str
) -> None:
    # The request that builds the sitemap carries the forged prefix.
    app = mounted_app(make_app)
    if how == "ProxyFix":
        app.wsgi_app = ProxyFix(app.wsgi_app, x_prefix=1)  # type: ignore[method-assign]
        response = app.test_client().get(
            "/sitemap.xml", headers={"X-Forwarded-Prefix": forged}
        )
    else:
        response = app.test_client().get(
            "/sitemap.xml", environ_overrides={"SCRIPT_NAME": forged}
        )
    assert response.status_code == 200
    for address in all_addresses(etree.fromstring(response.data)):
        assert address.startswith(f"{ORIGIN}/blog/"), address
    index_app = mounted_app(make_app, MARMEON_SITEMAP_INDEX=True)
    index = index_app.test_client().get(
        "/sitemap.xml", environ_overrides={"SCRIPT_NAME": forged}
    )
    assert locs(etree.fromstring(index.data)) == [f"{ORIGIN}/blog/sitemap-1.xml"]
