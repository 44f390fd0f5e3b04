"""A page's own addresses: MARMEON_DEFAULT_CANONICAL on every route, none
on an error page whatever was set, none for a path value with a dot
segment (API.md, "More of a page's head" and "Bounds, decided")."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import pytest
from flask import Blueprint, Flask, abort

from flask_marmeon import Marmeon, head, localized, render_head
from tests.documents import parse_head

LOCALES = ["en", "de"]


def _page() -> str:
    return f"<!doctype html><html><head>{render_head()}</head><body></body></html>"


def make_site(make_app: Callable[..., Flask], **config: Any) -> Flask:
    app = make_app(APP_URL="https://notes.example", APP_LOCALES=LOCALES, **config)
    app.config["PROPAGATE_EXCEPTIONS"] = False

    @app.before_request
    def layout() -> None:
        # A layout that names addresses too: an error page drops them.
        head(title_template="%s · Notes", open_graph={"site_name": "Notes"})

    @app.get("/notes/<int:note_id>")
    def note(note_id: int) -> str:
        head(title="Note", open_graph={"url": f"/notes/{note_id}"})
        if note_id == 404:
            head(canonical="/notes/404")
            abort(404)
        if note_id == 500:
            head(canonical="/notes/500")
            raise RuntimeError("boom")
        return _page()

    @app.get("/files/<path:name>")
    def file(name: str) -> str:
        head(title=name)
        return _page()

    @app.get("/hidden")
    def hidden() -> str:
        head(title="Hidden", robots={"index": False})
        return _page()

    @app.get("/own")
    def own() -> str:
        head(title="Own", canonical="/elsewhere?keep=1")
        return _page()

    docs = localized(Blueprint("docs", __name__))

    @docs.get("/d/<path:name>", authorize=None)
    def doc(name: str) -> str:
        head(title=name)
        if name == "gone":
            head(canonical="/en/d/gone")
            abort(404)
        return _page()

    app.register_blueprint(docs)

    def error(exc: Exception) -> tuple[str, int]:
        code = getattr(exc, "code", 500)
        # The handler names addresses too: they are left out as well.
        head(title=f"Error {code}", canonical="/error", open_graph={"url": "/e"})
        return _page(), code

    app.register_error_handler(404, error)
    app.register_error_handler(500, error)
    return app


def _addresses(html: str) -> dict[str, list[str]]:
    el = parse_head(html)
    out: dict[str, list[str]] = {"canonical": [], "hreflang": [], "og:url": []}
    for link in el.iter("link"):
        if link.get("rel") == "canonical":
            out["canonical"].append(link.get("href") or "")
        elif link.get("rel") == "alternate" and link.get("hreflang"):
            out["hreflang"].append(link.get("href") or "")
    for meta in el.iter("meta"):
        prop = meta.get("property")
        if prop == "og:url":
            out["og:url"].append(meta.get("content") or "")
        elif prop == "og:locale:alternate":
            out.setdefault("og:locale:alternate", []).append(meta.get("content") or "")
    return out


@pytest.mark.parametrize(
    ("path", "code"),
    [
        ("/notes/404", 404),  # a plain route: the view named its canonical
        ("/notes/500", 500),
        ("/no-such-page", 404),
        ("/en/d/gone", 404),  # a localized route
        ("/de/no-such-page", 404),
    ],
)
@pytest.mark.parametrize("default", [False, True])
def test_an_error_page_names_no_address_on_any_route(
    make_app: Callable[..., Flask], path: str, code: int, default: bool
) -> None:
    app = make_site(make_app, MARMEON_DEFAULT_CANONICAL=default)
    response = app.test_client().get(path)
    assert response.status_code == code
    found = _addresses(response.text)
    assert found == {"canonical": [], "hreflang": [], "og:url": []}
    # The rest of what the layout, view and handler set stays.
    el = parse_head(response.text)
    assert [
        m.get("content") for m in el.iter("meta") if m.get("property") == "og:site_name"
    ] == ["Notes"]


def test_without_the_setting_a_plain_route_has_no_default_canonical(
    make_app: Callable[..., Flask],
) -> None:
    app = make_site(make_app)
    found = _addresses(app.test_client().get("/notes/7?utm=x").text)
    assert found["canonical"] == []


@pytest.mark.parametrize(
    ("path", "canonical"),
    [
        ("/notes/7?utm=x", "https://notes.example/notes/7"),
        ("/notes/007", "https://notes.example/notes/7"),  # the rule's own spelling
        ("/files/a/b.txt", "https://notes.example/files/a/b.txt"),
        ("/own", "https://notes.example/elsewhere?keep=1"),  # set: kept as set
        ("/en/d/a/b?q=1", "https://notes.example/en/d/a/b"),
    ],
)
def test_the_default_canonical_is_the_routes_own_address(
    make_app: Callable[..., Flask], path: str, canonical: str
) -> None:
    app = make_site(make_app, MARMEON_DEFAULT_CANONICAL=True)
    response = app.test_client().get(
        path, headers={"Host": "evil.example", "X-Forwarded-Host": "evil.example"}
    )
    assert response.status_code == 200
    assert _addresses(response.text)["canonical"] == [canonical]


def test_the_default_canonical_follows_the_mount_path_not_the_request(
    make_app: Callable[..., Flask],
) -> None:
    app = make_site(make_app, MARMEON_DEFAULT_CANONICAL=True, APPLICATION_ROOT="/blog")
    response = app.test_client().get("/notes/7", environ_base={"SCRIPT_NAME": "/evil"})
    assert _addresses(response.text)["canonical"] == [
        "https://notes.example/blog/notes/7"
    ]


def test_a_noindex_page_gets_no_default_canonical(
    make_app: Callable[..., Flask],
) -> None:
    app = make_site(make_app, MARMEON_DEFAULT_CANONICAL=True)
    assert _addresses(app.test_client().get("/hidden").text)["canonical"] == []
    app = make_site(make_app, MARMEON_DEFAULT_CANONICAL=True, MARMEON_INDEXABLE=False)
    assert _addresses(app.test_client().get("/notes/1").text)["canonical"] == []


def test_the_setting_is_checked(make_app: Callable[..., Flask]) -> None:
    with pytest.raises(ValueError, match="MARMEON_DEFAULT_CANONICAL"):
        make_app(MARMEON_DEFAULT_CANONICAL="maybe")


@pytest.mark.parametrize(
    "path",
    [
        "/en/d/x%2F..%2F..%2Fadmin",
        "/en/d/x/%2E%2E/admin",
        "/en/d/a/./b",
        "/files/x%2F..%2F..%2Fadmin",
    ],
)
@pytest.mark.parametrize("default", [False, True])
def test_a_dot_segment_value_gets_no_default_canonical_and_no_hreflang(
    make_app: Callable[..., Flask],
    caplog: pytest.LogCaptureFixture,
    path: str,
    default: bool,
) -> None:
    app = make_site(make_app, MARMEON_DEFAULT_CANONICAL=default)
    app.debug = True
    with caplog.at_level(logging.WARNING, logger="flask_marmeon"):
        response = app.test_client().get(path)
    assert response.status_code == 200
    found = _addresses(response.text)
    assert found["canonical"] == [] and found["hreflang"] == []
    assert "og:locale:alternate" not in found
    if default or path.startswith("/en/"):
        # Development says why, once.
        said = [
            r.getMessage() for r in caplog.records if "'.' or '..'" in r.getMessage()
        ]
        assert len(said) == 1


def test_a_plain_dot_free_path_keeps_its_addresses(
    make_app: Callable[..., Flask],
) -> None:
    app = make_site(make_app)
    found = _addresses(app.test_client().get("/en/d/a..b/c.txt").text)
    assert found["canonical"] == ["https://notes.example/en/d/a..b/c.txt"]
    assert found["hreflang"] == [
        "https://notes.example/en/d/a..b/c.txt",
        "https://notes.example/de/d/a..b/c.txt",
        "https://notes.example/d/a..b/c.txt",
    ]


@pytest.mark.parametrize("host_matching", [False, True])
def test_a_route_on_another_host_gets_no_default_canonical_and_no_hreflang(
    caplog: pytest.LogCaptureFixture, host_matching: bool
) -> None:
    # Its page is at blog.notes.example, never at APP_URL + its path (which
    # answers 404): the sitemap leaves such a route out, and the head names
    # neither address. A canonical the view gives is kept.
    if host_matching:
        app = Flask("hosts", host_matching=True, static_host="notes.example")
        where: dict[str, str] = {"host": "blog.notes.example"}
        own = {"host": "notes.example"}
    else:
        app = Flask("subdomains", subdomain_matching=True)
        app.config["SERVER_NAME"] = "notes.example"
        where, own = {"subdomain": "blog"}, {}
    app.config.update(
        APP_URL="https://notes.example",
        APP_LOCALES=LOCALES,
        MARMEON_DEFAULT_CANONICAL=True,
    )
    Marmeon(app)
    app.debug = True
    blog = Blueprint("blog", __name__)
    blog.get("/posts", endpoint="posts", **where)(
        lambda: head(title="Posts") or _page()
    )
    blog.get("/given", endpoint="given", **where)(
        lambda: head(canonical="/given") or _page()
    )
    app.register_blueprint(blog)
    docs = localized(Blueprint("docs", __name__))
    docs.get("/about", endpoint="about", **where)(
        lambda: head(title="About") or _page()
    )
    app.register_blueprint(docs)
    app.get("/home", endpoint="home", **own)(lambda: head(title="Home") or _page())
    client = app.test_client()
    with caplog.at_level(logging.WARNING, logger="flask_marmeon"):
        posts = client.get("https://blog.notes.example/posts")
        about = client.get("https://blog.notes.example/de/about")
        client.get("https://blog.notes.example/de/about")
    assert posts.status_code == 200 and about.status_code == 200
    assert _addresses(posts.text) == {"canonical": [], "hreflang": [], "og:url": []}
    assert _addresses(about.text) == {"canonical": [], "hreflang": [], "og:url": []}
    said = [
        r.getMessage() for r in caplog.records if "blog.notes.example" in r.getMessage()
    ]
    assert len(said) == 2, said  # development says why, once per endpoint
    given = client.get("https://blog.notes.example/given")
    assert _addresses(given.text)["canonical"] == ["https://notes.example/given"]
    home = client.get("https://notes.example/home")
    assert _addresses(home.text)["canonical"] == ["https://notes.example/home"]
