"""A site as issue 21's attacker found it in production, for the hardening
tests (tests/test_hardening.py), also served by a real gunicorn:
``gunicorn --pythonpath tests 'hostile_site:create_app()'``.

A session cookie on every answer (a hook that writes the session), mounted at
``/blog`` (APPLICATION_ROOT), localized routes (one ending in a slash), a
marked plain route with an argument, the sitemap split into an index and
parts.
"""

from __future__ import annotations

from flask import Blueprint, Flask, session

from flask_marmeon import Marmeon, SitemapEntry, everyone, localized

ORIGIN = "https://notes.example"
LOCALES = ["en", "de"]


def create_app(root: str = "/blog", proxy_fix: bool = False) -> Flask:
    """The site under ``root``; ``proxy_fix`` puts Werkzeug's ProxyFix in
    front (X-Forwarded-Host and X-Forwarded-Prefix trusted)."""
    app = Flask("hostile_site")
    app.config.update(
        SECRET_KEY="not a secret",
        APP_URL=ORIGIN,
        APP_LOCALES=LOCALES,
        APPLICATION_ROOT=root,
        MARMEON_SITEMAP_INDEX=True,
        MARMEON_SITEMAP_MAX_URLS=2,
    )
    Marmeon(app)

    @app.before_request
    def count_visits() -> None:
        # Every answer sets the session cookie, as the attacker's site did.
        session["visits"] = session.get("visits", 0) + 1

    @app.get("/", sitemap=True, authorize=everyone)
    def home() -> str:
        return "home"

    @app.get(
        "/notes/<int:note_id>",
        sitemap=lambda: [SitemapEntry({"note_id": n}) for n in (1, 2, 3)],
        authorize=everyone,
    )
    def note(note_id: int) -> str:
        return f"note {note_id}"

    docs = localized(Blueprint("docs", __name__))

    @docs.get("/about", sitemap=True, authorize=everyone)
    def about() -> str:
        return "about"

    @docs.get("/guide/", sitemap=True, authorize=everyone)
    def guide() -> str:
        return "guide"

    app.register_blueprint(docs)
    if proxy_fix:
        from werkzeug.middleware.proxy_fix import ProxyFix

        app.wsgi_app = ProxyFix(  # type: ignore[method-assign]
            app.wsgi_app, x_host=1, x_prefix=1, x_proto=1
        )
    return app
