"""Localized routes: ``localized(bp)``, the locale URL processors, the redirect.

A localized blueprint's routes answer at ``/<locale>/...`` for each locale of
``APP_LOCALES``, spelled in lower case. The pieces follow Flask's own URL
processors pattern (``docs/patterns/urlprocessors.rst``):

- :func:`localized` records a setup function that runs first when the
  blueprint is registered and puts ``/<marmeon_locale:locale>`` in front of
  the blueprint's URL prefix (the setup state is shared by all the
  blueprint's deferred functions, and nested blueprints inherit the prefix);
- the ``marmeon_locale`` converter matches the app's locales only;
- a URL value preprocessor pops ``locale`` (the view never sees it) and puts
  the :class:`~flask_marmeon.Page` on the request state, before any
  ``before_request`` hook runs;
- a URL defaults function keeps the current locale for ``url_for``;
- a ``before_request`` hook redirects an address that the app does not know
  (a 404) to the visitor's locale when that address exists there, so the
  redirect never shadows a route of the app.

This is an edge module: it is the one that reads the request.
"""

from __future__ import annotations

import difflib
import importlib
from collections.abc import Iterable, Mapping, Sequence
from typing import Any
from urllib.parse import quote

from flask import Blueprint, Flask, current_app, redirect, request
from flask.sansio.blueprints import BlueprintSetupState
from werkzeug.datastructures import LanguageAccept
from werkzeug.exceptions import HTTPException, NotFound
from werkzeug.local import LocalProxy
from werkzeug.routing import BaseConverter, Map, RequestRedirect, Rule
from werkzeug.wrappers import Response

from ._context import peek_request_state, request_state
from ._state import MarmeonState, get_state
from .page import Alternate, Page

#: The name of the URL argument that carries the locale.
LOCALE_ARG = "locale"
#: The converter that matches the app's locales.
CONVERTER = "marmeon_locale"
#: What every localized rule starts with.
RULE_PREFIX = f"/<{CONVERTER}:{LOCALE_ARG}>"
#: The hreflang value of the address without a locale.
X_DEFAULT = "x-default"

# Characters a query string may keep as they are; everything else (spaces,
# quotes, angle brackets, bytes beyond ASCII) is percent-encoded, and "%" is
# kept so that what the client already encoded stays encoded once.
_QUERY_SAFE = "!#$%&'()*+,/:;=?@[]~"


class LocaleConverter(BaseConverter):
    """Matches one of the app's locales, in lower case, as a path segment.

    ``to_python`` gives the tag as configured (``"de-at"`` -> ``"de-AT"``);
    ``to_url`` takes any spelling of a configured tag and writes it in lower
    case. Each app gets a subclass that knows its locales.
    """

    #: Lower-case spelling -> the tag as configured.
    tags: Mapping[str, str] = {}

    def __init__(self, map: Map, *args: Any, **kwargs: Any) -> None:
        super().__init__(map, *args, **kwargs)
        # Longest first, so that "en" does not stop "en-gb" short.
        spellings = sorted(self.tags, key=len, reverse=True)
        self.regex = "(?:" + "|".join(_regex_escape(s) for s in spellings) + ")"
        if not spellings:
            self.regex = "(?!)"  # no locales: matches nothing

    def to_python(self, value: str) -> str:
        """The tag as configured for the lower-case spelling in the URL."""
        return self.tags[value]

    def to_url(self, value: Any) -> str:
        """The lower-case spelling of a configured tag, for ``url_for``."""
        if not isinstance(value, str):
            raise TypeError(
                f"locale= must be one of APP_LOCALES {list(self.tags.values())!r},"
                f" not {type(value).__name__} {value!r}."
            )
        spelling = value.lower()
        if spelling not in self.tags:
            raise ValueError(
                f"locale={value!r} is not one of APP_LOCALES"
                f" {list(self.tags.values())!r}.{_did_you_mean(value, self.tags)}"
            )
        return spelling


def _regex_escape(text: str) -> str:
    # BCP 47 tags hold letters, digits and "-" only (config.py checks them);
    # "-" needs no escape outside a character class.
    return "".join(c if c.isalnum() or c == "-" else "\\" + c for c in text)


def _did_you_mean(value: str, tags: Mapping[str, str]) -> str:
    # "de" for "de-AT": the same language is the likeliest meaning.
    language = value.lower().split("-")[0]
    close = [s for s in tags if s.split("-")[0] == language]
    close = close or difflib.get_close_matches(value.lower(), list(tags), n=1)
    return f" Did you mean {tags[close[0]]!r}?" if close else ""


def converter_for(locales: Sequence[str]) -> type[LocaleConverter]:
    """A converter class for one app's locales."""
    tags = {tag.lower(): tag for tag in locales}
    return type("LocaleConverter", (LocaleConverter,), {"tags": tags})


def is_localized_rule(rule: Rule) -> bool:
    """Whether ``rule`` comes from a localized blueprint.

    Only such rules get alternates: a plain route whose URL looks localized
    (``/de/about``, ``/<lang>/about``) is not one.
    """
    # The rule string is the source of truth: only localized() puts the
    # converter first. MarmeonRule also carries it as ``marmeon_localized``.
    return bool(getattr(rule, "marmeon_localized", False)) or rule.rule.startswith(
        RULE_PREFIX
    )


# -- localized(bp) ----------------------------------------------------------


def localized(bp: Blueprint) -> Blueprint:
    """Mark a blueprint whose routes answer under each locale of the app.

    ::

        docs = localized(Blueprint("docs", __name__))

        @docs.get("/about")
        def about(): ...  # /en/about, /de-at/about; /about redirects

    Returns the same blueprint. Call it before ``app.register_blueprint``;
    the app must have ``Marmeon(app)`` and ``APP_LOCALES`` by then. Blueprints
    registered on a localized blueprint are localized too.
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
    if not state.localized_blueprints:
        # The redirect is app-wide (a 404 has no blueprint), but only an app
        # with localized routes needs it.
        app.before_request(_redirect_to_locale)
    state.localized_blueprints.add(name)
    prefix = setup.url_prefix
    if prefix is not None and prefix.startswith(RULE_PREFIX):
        return  # nested in a localized blueprint: the locale is there already
    if prefix is None or prefix.strip("/") == "":
        setup.url_prefix = RULE_PREFIX
    else:
        setup.url_prefix = f"{RULE_PREFIX}/{prefix.lstrip('/')}"


# -- init_app ---------------------------------------------------------------


def init_app(app: Flask, state: MarmeonState) -> None:
    """Install the locale converter and the ``page`` template global.

    The URL processors come with each localized blueprint, and the redirect
    with the first one registered: an app without localized routes runs none
    of them.
    """
    app.url_map.converters[CONVERTER] = converter_for(state.settings.locales)
    app.jinja_env.globals["page"] = LocalProxy(_template_page)


def _pull_locale(endpoint: str | None, values: dict[str, Any] | None) -> None:
    # Runs before every before_request hook, so layouts, views and
    # Flask-Babel already see the page's locale.
    rule = request.url_rule
    if values is None or endpoint is None or rule is None:
        return
    if not is_localized_rule(rule) or LOCALE_ARG not in values:
        return
    tag = values.pop(LOCALE_ARG)
    state = get_state()
    request_state("the locale preprocessor").page = _page_for(
        state, endpoint, values, tag
    )
    _tell_babel(current_app, state)


def _add_locale(endpoint: str, values: dict[str, Any]) -> None:
    # url_for on a localized endpoint: keep the page's locale unless the
    # call names one (locale=None counts as not naming one).
    if values.get(LOCALE_ARG) is not None:
        return
    if not _endpoint_is_localized(current_app, endpoint):
        return
    values[LOCALE_ARG] = _default_locale(get_state())


def _endpoint_is_localized(app: Flask, endpoint: str) -> bool:
    try:
        rules = list(app.url_map.iter_rules(endpoint))
    except KeyError:  # unknown endpoint: url_for raises its own BuildError
        return False
    return any(is_localized_rule(rule) for rule in rules)


def _default_locale(state: MarmeonState) -> str:
    # The page's locale on a localized page; elsewhere (a plain page, a CLI
    # command) the app's first locale, which is its fallback.
    rs = peek_request_state()
    if rs is not None and rs.page is not None and rs.page.locale is not None:
        return rs.page.locale
    return state.settings.locales[0]


# -- the page object --------------------------------------------------------


def make_page(
    locales: Sequence[str],
    locale: str,
    paths: Mapping[str, str],
    x_default: str,
    query: str = "",
) -> Page:
    """The page object of a localized page.

    ``paths`` maps each locale to the page's path in it (no query);
    ``x_default`` is the path without a locale; ``query`` is the request's
    query string (already URL-safe), kept in the alternates only.
    """
    suffix = f"?{query}" if query else ""
    alternates = [
        Alternate(locale=tag, hreflang=tag, href=paths[tag] + suffix) for tag in locales
    ]
    hreflang = tuple((tag, paths[tag]) for tag in locales)
    return Page(
        locale=locale,
        alternates=alternates,
        canonical_path=paths[locale],
        hreflang_paths=(*hreflang, (X_DEFAULT, x_default)),
    )


def strip_locale(path: str, locale: str, script_root: str = "") -> str:
    """The address without a locale: ``/app/de-at/about`` -> ``/app/about``."""
    segment = "/" + locale.lower()
    rest = path[len(script_root) :] if path.startswith(script_root) else path
    if rest == segment or rest.startswith(segment + "/"):
        rest = rest[len(segment) :]
    return script_root + (rest or "/")


def _page_for(
    state: MarmeonState, endpoint: str, values: Mapping[str, Any], locale: str
) -> Page:
    locales = state.settings.locales
    # Built with url_for, so each address is the canonical spelling of the
    # endpoint, encoded like every other URL the app writes.
    paths = {
        tag: current_app.url_for(endpoint, **_with_locale(values, tag))
        for tag in locales
    }
    x_default = strip_locale(paths[locale], locale, request.script_root)
    query = quote(request.query_string, safe=_QUERY_SAFE)
    return make_page(locales, locale, paths, x_default, query)


def _with_locale(values: Mapping[str, Any], locale: str) -> dict[str, Any]:
    return {**values, LOCALE_ARG: locale}


def current_page() -> Page:
    """The page object of the current request, for a language switcher.

    On a localized route, ``locale`` is the page's locale (the tag as
    configured) and ``alternates`` holds one ``{"locale", "hreflang",
    "href"}`` per locale of the app, ``href`` keeping the query string. On
    any other route, ``locale`` is None and there are no alternates.
    Templates read the same object as ``page``.
    """
    page = request_state("current_page()").page
    return page if page is not None else Page()


def _template_page() -> Page:
    # The Jinja global: outside a request (a template rendered for an
    # e-mail) it is an empty page rather than an error.
    rs = peek_request_state()
    if rs is None or rs.page is None:
        return Page()
    return rs.page


def selected_locale() -> str | None:
    """The locale of the current localized route in Babel's spelling, or None.

    ``"de-AT"`` is returned as ``"de_AT"``, the form ``babel.Locale.parse``
    reads, so that it can serve as Flask-Babel's ``locale_selector``.
    """
    rs = peek_request_state()
    if rs is None or rs.page is None or rs.page.locale is None:
        return None
    return rs.page.locale.replace("-", "_")


def _tell_babel(app: Flask, state: MarmeonState) -> None:
    # Flask-Babel caches the locale per app context. With marmeon's selector,
    # or with no selector of the app's own, the route's locale must win even
    # if something asked Babel before the URL was matched.
    babel = app.extensions.get("babel")
    if babel is None:
        return
    selector = getattr(babel, "locale_selector", None)
    if selector is None:
        # No selector of the app's own: the route's locale is the answer on
        # localized routes, Babel's default elsewhere (ours returns None).
        babel.locale_selector = state.extension.locale_selector
    elif (
        getattr(selector, "__func__", None) is not type(state.extension).locale_selector
    ):
        return  # the app's own selector decides
    # Flask-Babel is optional: it is imported only when the app has set it up.
    importlib.import_module("flask_babel").refresh()


# -- the address without a locale -------------------------------------------


def _redirect_to_locale() -> Response | None:
    # Acts only on a 404 of a GET or HEAD: a route of the app, a catch-all
    # included, always wins over the redirect.
    # The routing exception first: most requests have none.
    if not isinstance(request.routing_exception, NotFound):
        return None
    if request.method not in ("GET", "HEAD"):
        return None
    state = get_state()
    if not state.localized_blueprints:
        return None
    locales = state.settings.locales
    best = best_locale(request.accept_languages, locales) or locales[0]
    target = _localized_address(current_app, request.path, best)
    if target is None:
        return None
    if request.query_string:
        target += "?" + quote(request.query_string, safe=_QUERY_SAFE)
    response = redirect(target, code=302)
    response.vary.add("Accept-Language")
    # The answer depends on the visitor's languages: a shared cache must not
    # keep one visitor's redirect for the next.
    response.headers["Cache-Control"] = "private"
    return response


def best_locale(
    accept: Iterable[tuple[str, float]], locales: Sequence[str]
) -> str | None:
    """The visitor's most preferred language that the app has, or None.

    Each language of ``Accept-Language`` is tried in the order of its
    q-value with Werkzeug's ``best_match``, which lets a region fall back to
    its language (``de-CH`` reaches a configured ``de``) and a language reach
    a configured region (``de`` reaches ``de-AT``). Matching the header as a
    whole would let an exact ``en;q=0.5`` beat a ``de-CH`` the visitor
    prefers.
    """
    ordered = sorted(accept, key=lambda item: -item[1])
    # q=0 means "not acceptable" (RFC 9110): a refused language (and its
    # regions) is never chosen, not even through "*".
    refused = tuple(value.lower() for value, quality in ordered if quality <= 0)
    if refused:
        locales = [
            tag
            for tag in locales
            if not any(
                tag.lower() == r or tag.lower().startswith(r + "-") for r in refused
            )
        ]
    for value, quality in ordered:
        if quality <= 0:
            continue
        match = LanguageAccept([(value, 1)]).best_match(locales)
        if match is not None:
            return match
    return None


def _localized_address(app: Flask, path: str, locale: str) -> str | None:
    """The address of ``path`` in ``locale`` if a localized route answers it."""
    adapter = app.create_url_adapter(request)
    if adapter is None:  # pragma: no cover - a request always has one
        return None
    candidates = [f"/{locale.lower()}{path}"]
    if path == "/":
        candidates.append(f"/{locale.lower()}")
    for candidate in candidates:
        try:
            try:
                rule, args = adapter.match(candidate, method="GET", return_rule=True)
            except RequestRedirect:
                # The route ends in a slash ("/docs/"): go there at once
                # rather than through a second redirect.
                rule, args = adapter.match(
                    candidate + "/", method="GET", return_rule=True
                )
        except HTTPException:  # no such page in that locale
            continue
        if not is_localized_rule(rule):
            return None
        return app.url_for(rule.endpoint, **_with_locale(args, locale))
    return None


__all__ = ["current_page", "init_app", "localized", "selected_locale"]
