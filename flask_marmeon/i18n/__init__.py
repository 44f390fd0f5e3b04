"""Localized routes: ``localized(bp)``, per-page locales, the redirect, the page.

A localized blueprint's routes answer at ``/<locale>/...`` for each locale of
``APP_LOCALES``, spelled in lower case; a route's ``locales=`` may say that
its page exists in fewer. The package is an edge: it is the part that reads
the request. ARCHITECTURE.md lists its modules.
"""

from __future__ import annotations

from flask import Flask
from werkzeug.local import LocalProxy

from .._state import MarmeonState
from ..locale_tags import X_DEFAULT
from .availability import LocalesOption, available_locales, locales_problems
from .blueprint import localized
from .negotiate import best_locale
from .pages import (
    current_page,
    error_page,
    make_page,
    selected_locale,
    strip_locale,
    template_page,
)
from .state import I18nState
from .urls import (
    CONVERTER,
    LOCALE_ARG,
    RULE_PREFIX,
    LocaleConverter,
    converter_for,
    is_localized_rule,
    locale_of_path,
)


def init_app(app: Flask, state: MarmeonState) -> None:
    """Install the locale converter and the ``page`` template global.

    The URL processors come with each localized blueprint, and the redirect
    with the first one registered: an app without localized routes runs none
    of them.
    """
    state.add(I18nState())
    app.url_map.converters[CONVERTER] = converter_for(state.settings.locales)
    app.jinja_env.globals["page"] = LocalProxy(template_page)


__all__ = [
    "CONVERTER",
    "LOCALE_ARG",
    "RULE_PREFIX",
    "X_DEFAULT",
    "LocaleConverter",
    "LocalesOption",
    "available_locales",
    "best_locale",
    "converter_for",
    "current_page",
    "error_page",
    "init_app",
    "is_localized_rule",
    "locale_of_path",
    "locales_problems",
    "localized",
    "make_page",
    "selected_locale",
    "strip_locale",
]
