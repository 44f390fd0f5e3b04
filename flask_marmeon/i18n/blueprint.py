"""``localized(bp)`` and the blueprint's URL processors.

The pieces follow Flask's own URL processors pattern
(``docs/patterns/urlprocessors.rst``):

- :func:`localized` records a setup function that runs first when the
  blueprint is registered and puts ``/<marmeon_locale:locale>`` in front of
  the blueprint's URL prefix (the setup state is shared by all the
  blueprint's deferred functions, and nested blueprints inherit the prefix);
- a URL value preprocessor pops ``locale`` (the view never sees it) and puts
  the :class:`~flask_marmeon.Page` on the request state, before any
  ``before_request`` hook runs; a locale the page does not exist in (its
  ``locales=``) answers 404 (set as the request's routing exception);
- a URL defaults function keeps the current locale for ``url_for``.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Flask, current_app, request
from flask.sansio.blueprints import BlueprintSetupState
from werkzeug.exceptions import NotFound

from .._log import warn_once
from .._state import MarmeonState, get_state
from .errors import wrap_error_handlers
from .pages import error_page, page_for, page_locale, set_page
from .redirect import redirect_to_locale
from .state import i18n_state
from .urls import LOCALE_ARG, OLD_LANGUAGE_ARGS, RULE_PREFIX, is_localized_rule


def localized(bp: Blueprint) -> Blueprint:
    """Mark a blueprint whose routes answer under each locale of the app.

    ::

        docs = localized(Blueprint("docs", __name__))

        @docs.get("/about")
        def about(): ...  # /en/about, /de-at/about; /about redirects

    Returns the same blueprint. Call it before ``app.register_blueprint``;
    the app must have ``Marmeon(app)`` and ``APP_LOCALES`` by then. Blueprints
    registered on a localized blueprint are localized too. A route may say
    which locales its page exists in with ``locales=``.
    """
    if not isinstance(bp, Blueprint):
        raise TypeError(
            f"localized() takes a flask.Blueprint, not {type(bp).__name__} {bp!r}."
            " Put the localized routes in a Blueprint and pass that."
        )
    if getattr(bp, "marmeon_localized", False):
        return bp
    if getattr(bp, "_got_registered_once", False):
        raise ValueError(
            f"localized() was called on the blueprint {bp.name!r} after it was"
            " registered on an app. Call localized(bp) before"
            " app.register_blueprint(bp)."
        )
    # First of the deferred functions: the URL prefix must be in place before
    # any of the blueprint's rules is added.
    bp.deferred_functions.insert(0, _prefix_with_locale)
    # The blueprint's own URL processors (Flask's pattern): they run for its
    # requests and its endpoints only (and its nested blueprints'), so the
    # app's other pages pay nothing for them.
    bp.url_value_preprocessor(_pull_locale)
    bp.url_defaults(_add_locale)
    bp.marmeon_localized = True  # type: ignore[attr-defined]
    return bp


def _prefix_with_locale(setup: BlueprintSetupState) -> None:
    app = setup.app
    name = f"{setup.name_prefix}.{setup.name}".lstrip(".")
    state: MarmeonState | None = app.extensions.get("marmeon")
    if state is None:
        raise RuntimeError(
            f"The blueprint {name!r} is localized, but flask_marmeon is not set"
            f" up on the app {app.name!r}. Call Marmeon(app) (or"
            " marmeon.init_app(app)) before app.register_blueprint()."
        )
    if not state.settings.locales:
        raise ValueError(
            f"The blueprint {name!r} is localized, but APP_LOCALES is empty."
            " Set APP_LOCALES to the app's locales, such as ['en', 'de-AT'] (or"
            " the environment variable APP_LOCALES='en,de-AT')."
        )
    localized_blueprints = i18n_state(state).localized_blueprints
    if not localized_blueprints:
        # The redirect is app-wide (a 404 has no blueprint), but only an app
        # with localized routes needs it.
        app.before_request(redirect_to_locale)
    localized_blueprints.add(name)
    prefix = setup.url_prefix or ""
    # Nested in a localized blueprint, the locale is there already.
    if not prefix.startswith(RULE_PREFIX):
        rest = prefix.lstrip("/")
        setup.url_prefix = f"{RULE_PREFIX}/{rest}" if rest else RULE_PREFIX


def _pull_locale(endpoint: str | None, values: dict[str, Any] | None) -> None:
    # Runs before every before_request hook, so layouts, views and
    # Flask-Babel already see the page's locale.
    if values is None or endpoint is None:
        return
    # The request itself: each read through the proxy costs about 0.7 us.
    req = request._get_current_object()  # type: ignore[attr-defined]
    rule = req.url_rule
    if rule is None or not is_localized_rule(rule) or LOCALE_ARG not in values:
        return
    tag = values.pop(LOCALE_ARG)
    app: Flask = current_app._get_current_object()  # type: ignore[attr-defined]
    state = get_state(app)
    wrap_error_handlers(app, state)
    page = page_for(state, rule, endpoint, values, tag)
    if page is None:
        # The page does not exist in this locale: a 404, in the visitor's
        # language, that names no address. Routing says so, as for an
        # address no route matches: the app's before_request hooks (its
        # layouts) still run, then Flask raises it instead of calling the
        # view.
        page = error_page(tag)
        req.routing_exception = NotFound()
    set_page(state, page)


def _add_locale(endpoint: str, values: dict[str, Any]) -> None:
    # url_for on a localized endpoint: keep the page's locale unless the
    # call names one (locale=None counts as not naming one).
    if not _OLD_ARGS.isdisjoint(values):
        _warn_old_language(endpoint, values)
    if values.get(LOCALE_ARG) is not None:
        return
    if _endpoint_is_localized(current_app, endpoint):
        # Elsewhere than on a localized page (a plain page, a CLI command)
        # the app's first locale, which is its fallback.
        values[LOCALE_ARG] = page_locale() or get_state().settings.locales[0]


#: What Flask's URL-processor pattern passed to url_for for the language.
_OLD_ARGS = frozenset(OLD_LANGUAGE_ARGS) - {LOCALE_ARG}


def _warn_old_language(endpoint: str, values: dict[str, Any]) -> None:
    """Development's warning, once per app, for ``url_for(...,
    lang_code="de")`` on a localized endpoint: the value is no argument of
    its rule, so Flask would write it as ``?lang_code=de``."""
    app: Flask = current_app._get_current_object()  # type: ignore[attr-defined]
    if not app.debug or not _endpoint_is_localized(app, endpoint):
        return
    arguments = set().union(*(r.arguments for r in app.url_map.iter_rules(endpoint)))
    for name in sorted(_OLD_ARGS.intersection(values) - arguments):
        value = values[name]
        warn_once(
            get_state(app),
            ("i18n.old-language-argument", name),
            f"url_for({endpoint!r}, {name}={value!r}) names the language as"
            f" Flask's URL-processor pattern did, but {endpoint!r} is a localized"
            f" endpoint: {name}= is no argument of its rule and ends up in the"
            f" query string (?{name}=...). Write url_for({endpoint!r},"
            f" locale={value!r}).",
        )


def _endpoint_is_localized(app: Flask, endpoint: str) -> bool:
    try:
        rules = list(app.url_map.iter_rules(endpoint))
    except KeyError:  # unknown endpoint: url_for raises its own BuildError
        return False
    return any(is_localized_rule(rule) for rule in rules)
