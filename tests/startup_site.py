"""An app with an H10 problem, loaded by a real ``flask run`` and gunicorn
in tests/test_startup.py: ``flask --app startup_site:create_app run``."""

from __future__ import annotations

from flask import Flask

from flask_marmeon import Marmeon, everyone, raise_on_problems


def create_app(check: bool = True) -> Flask:
    """The app factory; with ``check`` it ends as docs/deployment.rst says,
    with ``raise_on_problems(app)``, so a problem stops the start."""
    app = Flask("startup_site")
    app.config["APP_URL"] = "https://notes.example"
    Marmeon(app)

    @app.get("/", sitemap=True, authorize=everyone)
    def home() -> str:
        return "home"

    @app.post("/contact", sitemap=True, authorize=everyone)
    def contact() -> str:  # H10: a crawler only GETs pages
        return "sent"

    if check:
        raise_on_problems(app)
    return app
