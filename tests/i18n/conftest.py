"""The apps of the localized-route tests (tests/i18n/docs_site.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask

from flask_marmeon import current_page

from .docs_site import LOCALES, docs_blueprint, page_json


@pytest.fixture
def make_localized(make_app: Callable[..., Flask]) -> Callable[..., Flask]:
    """An app with APP_URL, two locales and the docs blueprint."""

    def make(
        bp_options: dict[str, Any] | None = None,
        register: dict[str, Any] | None = None,
        **config: Any,
    ) -> Flask:
        config.setdefault("APP_URL", "https://notes.example")
        config.setdefault("APP_LOCALES", LOCALES)
        app = make_app(**config)

        @app.get("/plain")
        def plain() -> dict[str, Any]:
            return page_json(current_page())

        @app.get("/de/looks-localized")
        def looks_localized() -> dict[str, Any]:
            return page_json(current_page())

        app.register_blueprint(docs_blueprint(**(bp_options or {})), **(register or {}))
        return app

    return make


@pytest.fixture
def loc_app(make_localized: Callable[..., Flask]) -> Flask:
    return make_localized()
