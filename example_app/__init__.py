"""A small notes site that shows flask_marmeon at work.

``flask --app example_app run`` finds :func:`create_app` and calls it (Flask
looks for a factory of that name when the module has no ``app``). There is
no module-level app on purpose: importing the package creates no database,
and every test builds its own app.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from babel import Locale
from flask import Flask, render_template
from flask_babel import Babel
from sqlalchemy.pool import NullPool
from werkzeug.exceptions import NotFound

from flask_marmeon import Marmeon, head

from . import pages
from .catalog import FeatureCatalog, default_catalog
from .layout import layout
from .locales import compile_translations
from .models import db
from .notes import notes
from .seed import prepare_database

HERE = Path(__file__).parent

#: ``flask run`` answers here; set APP_URL in the environment to change it.
DEFAULT_APP_URL = "http://127.0.0.1:5000"


def create_app(
    config: Mapping[str, Any] | None = None,
    *,
    instance_path: str | os.PathLike[str] | None = None,
    catalog: FeatureCatalog | None = None,
) -> Flask:
    """Build the notes site.

    ``config`` overrides the defaults below; ``instance_path`` is where the
    SQLite database and the compiled translations go (``example_app/instance``
    unless given). The database is created and seeded on the first start.
    """
    app = Flask(
        __name__,
        instance_path=str(instance_path or HERE / "instance"),
        instance_relative_config=True,
    )
    os.makedirs(app.instance_path, exist_ok=True)
    translations = compile_translations(Path(app.instance_path) / "translations")
    app.config.from_mapping(
        SECRET_KEY="only-for-the-example",
        APP_URL=os.environ.get("APP_URL") or DEFAULT_APP_URL,
        APP_LOCALES=["en", "de"],
        # A path relative to the instance folder (Flask-SQLAlchemy 3).
        SQLALCHEMY_DATABASE_URI="sqlite:///notes.sqlite3",
        # A connection per use, closed after it: SQLite opens one in
        # microseconds, and no pooled connection outlives its app (Python
        # 3.13 warns of each one the garbage collector closes).
        SQLALCHEMY_ENGINE_OPTIONS={"poolclass": NullPool},
        BABEL_TRANSLATION_DIRECTORIES=str(translations),
        # A picture in every link preview: pages without a cover of their
        # own get one drawn from their title and description.
        MARMEON_OG_IMAGES=True,
        # `flask marmeon indexnow` tells Bing, Yandex and the others which
        # notes changed; the key is served at /<key>.txt. Use your own.
        MARMEON_INDEXNOW_KEY="notes-example-5f1c0e7d9a2b",
    )
    if config is not None:
        app.config.from_mapping(config)

    marmeon = Marmeon(app)
    Babel(app, locale_selector=marmeon.locale_selector)
    db.init_app(app)

    app.before_request(layout)
    app.register_blueprint(notes)
    app.register_blueprint(pages.create_blueprint(catalog or default_catalog()))
    app.register_error_handler(404, not_found)

    app.jinja_env.globals["language_name"] = language_name
    # htmx is installed by `make run` (npm) into static/vendor; without it
    # the site works the same, with full page loads.
    app.jinja_env.globals["has_htmx"] = (HERE / "static/vendor/htmx.min.js").exists()

    with app.app_context():
        prepare_database()
        # Close the pool's connections, so that none crosses a fork when a
        # server builds the app before starting its workers (--preload).
        db.engine.dispose()
    return app


def not_found(error: NotFound) -> tuple[str, int]:
    """A 404 page with a head of its own, kept out of search indexes."""
    # The title and the description are the template's (404.html).
    head(robots={"index": False})
    return render_template("404.html"), 404


def language_name(tag: str) -> str:
    """The name of a language in that language ("Deutsch" for "de")."""
    name = Locale.parse(tag, sep="-").get_display_name() or tag
    return name[:1].upper() + name[1:]
