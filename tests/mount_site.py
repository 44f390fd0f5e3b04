"""A small site for the mount path tests (tests/test_mount.py), also served
by a real gunicorn: ``gunicorn --pythonpath tests 'mount_site:create_app()'``.

Every kind of address the extension writes is on it: a plain marked page
with a canonical of its own, a localized page (default canonical, hreflang,
x-default, og:url), a localized page in one locale only, the redirect, an
error page, the sitemap (plain, localized, or an index and its parts) and
robots.txt.
"""

from __future__ import annotations

from flask import Blueprint, Flask, abort

from flask_marmeon import Marmeon, SitemapEntry, everyone, head, localized, render_head

LOCALES = ["en", "de"]
ORIGIN = "https://notes.example"


def document(title: str) -> str:
    return (
        f"<!doctype html><html><head>{render_head()}</head>"
        f"<body><h1>{title}</h1></body></html>"
    )


def note_locales(note_id: int) -> list[str]:
    # Note 3 is written in English only.
    return ["en"] if note_id == 3 else LOCALES


def create_app(root: str = "/", index: bool = False) -> Flask:
    """The site, mounted at ``root`` (APPLICATION_ROOT); ``index`` splits
    the sitemap into an index and parts of two URLs each."""
    app = Flask("mount_site")
    app.config.update(
        APP_URL=ORIGIN,
        APP_LOCALES=LOCALES,
        APPLICATION_ROOT=root,
        MARMEON_SITEMAP_INDEX=index,
        MARMEON_SITEMAP_MAX_URLS=2 if index else 50_000,
    )
    Marmeon(app)
    mount = root.rstrip("/")

    @app.get("/", sitemap=True, authorize=everyone)
    def home() -> str:
        # A path the app passes itself is taken as it is: the app puts its
        # mount path in front, from its configuration.
        head(title="Home", canonical=f"{mount}/")
        return document("Home")

    docs = localized(Blueprint("docs", __name__))

    @docs.get("/about", sitemap=True, authorize=everyone)
    def about() -> str:
        head(title="About", open_graph={"type": "website", "title": "About"})
        return document("About")

    @docs.get(
        "/notes/<int:note_id>",
        sitemap=lambda: [SitemapEntry({"note_id": n}) for n in (1, 2, 3)],
        authorize=everyone,
        locales=note_locales,
    )
    def note(note_id: int) -> str:
        if note_id > 3:
            abort(404)
        head(title=f"Note {note_id}")
        return document(f"Note {note_id}")

    app.register_blueprint(docs)

    @app.errorhandler(404)
    def not_found(error: Exception) -> tuple[str, int]:
        head(title="Not found", open_graph={"type": "website"})
        return document("Not found"), 404

    return app
