"""The locale in a URL: the converter, the rule mark, and paths under the mount.

Every path this package writes (a page's addresses, the redirect's
``Location``) starts with the mount path of the configuration
(:attr:`~flask_marmeon.config.Settings.root`, from ``APPLICATION_ROOT``) and
never with the request's ``SCRIPT_NAME``, which a client can set through
ProxyFix's ``X-Forwarded-Prefix`` or gunicorn's ``SCRIPT_NAME`` header.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from flask import Flask
from flask.globals import request_ctx
from werkzeug.exceptions import HTTPException, NotFound
from werkzeug.routing import BaseConverter, Map, MapAdapter, Rule

from ..locale_tags import LocaleTags, spelling

#: The name of the URL argument that carries the locale.
LOCALE_ARG = "locale"
#: The converter that matches the app's locales.
CONVERTER = "marmeon_locale"
#: What every localized rule starts with.
RULE_PREFIX = f"/<{CONVERTER}:{LOCALE_ARG}>"


class LocaleConverter(BaseConverter):
    """Matches one of the app's locales, in lower case, as a path segment.

    ``to_python`` gives the tag as configured (``"de-at"`` -> ``"de-AT"``);
    ``to_url`` takes any spelling of a configured tag and writes it in lower
    case. Each app gets a subclass that knows its locales.
    """

    #: The app's locales.
    tags: LocaleTags = LocaleTags(())

    def __init__(self, map: Map, *args: Any, **kwargs: Any) -> None:
        super().__init__(map, *args, **kwargs)
        # Longest first, so that "en" does not stop "en-gb" short.
        spellings = sorted(self.tags.by_spelling, key=len, reverse=True)
        self.regex = "(?:" + "|".join(re.escape(s) for s in spellings) + ")"
        if not spellings:
            self.regex = "(?!)"  # no locales: matches nothing

    def to_python(self, value: str) -> str:
        """The tag as configured for the lower-case spelling in the URL."""
        return self.tags.by_spelling[value]

    def to_url(self, value: Any) -> str:
        """The lower-case spelling of a configured tag, for ``url_for``."""
        if not isinstance(value, str):
            raise TypeError(
                f"locale= must be one of APP_LOCALES {list(self.tags)!r},"
                f" not {type(value).__name__} {value!r}."
            )
        if value not in self.tags:
            raise ValueError(
                f"locale={value!r} is not one of APP_LOCALES"
                f" {list(self.tags)!r}.{self.tags.did_you_mean(value)}"
            )
        return spelling(value)


def converter_for(locales: Sequence[str]) -> type[LocaleConverter]:
    """A converter class for one app's locales."""
    return type("LocaleConverter", (LocaleConverter,), {"tags": LocaleTags(locales)})


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


#: The names Flask's URL-processor pattern gives the language variable.
OLD_LANGUAGE_ARGS = ("lang_code", "lang", "language", "locale")
_OLD_PREFIX = re.compile(rf"/<(?:[^<>:]+:)?({'|'.join(OLD_LANGUAGE_ARGS)})>(?:/|$)")


def leftover_language(rule: Rule) -> str | None:
    """The variable of an old language prefix left on a localized rule
    (``url_prefix="/<lang_code>"`` from Flask's URL-processor pattern, whose
    rule is ``/<marmeon_locale:locale>/<lang_code>/about``), or None."""
    if not is_localized_rule(rule) or not rule.rule.startswith(RULE_PREFIX):
        return None
    found = _OLD_PREFIX.match(rule.rule, len(RULE_PREFIX))
    return None if found is None else found.group(1)


def locale_of_path(path: str, locales: Sequence[str]) -> str | None:
    """The configured tag that the first segment of ``path`` spells, or None.

    ``/de-at/notes/9`` gives ``"de-AT"`` (the converter's lower-case
    spelling); a path under no locale gives None.
    """
    segment = path.lstrip("/").split("/", 1)[0]
    return LocaleTags(locales).by_spelling.get(segment)


def root_adapter(app: Flask, root: str) -> MapAdapter:
    """A URL adapter for the current request, bound under the mount path.

    It builds what ``url_for`` builds and matches what Flask matched (same
    host, subdomain, scheme, path, method and query: those of the adapter
    Flask matched the request with), with ``root`` in front of every path
    in place of the request's script root.
    """
    adapter = request_ctx.url_adapter
    assert adapter is not None  # a request always has one
    return MapAdapter(
        app.url_map,
        adapter.server_name,
        root or "/",
        adapter.subdomain,
        adapter.url_scheme,
        adapter.path_info,
        adapter.default_method,
        adapter.query_args,
    )


def build_path(
    app: Flask, adapter: MapAdapter, endpoint: str, values: Mapping[str, Any]
) -> str:
    """``url_for(endpoint, **values)`` through ``adapter`` (see
    :func:`root_adapter`): the app's URL defaults apply as they do for
    ``url_for``."""
    values = dict(values)
    app.inject_url_defaults(endpoint, values)
    return adapter.build(endpoint, values)


def redirects_by_language(adapter: MapAdapter, path: str) -> bool:
    """Whether the address without a locale ``path`` (percent-decoded,
    under the mount path that ``adapter`` is bound to) is the redirect to
    the visitor's locale: no route of the app takes it, as the redirect
    acts only where routing ends in 404 (i18n.redirect).

    A page's values can make it another one's: a route of the app
    (``/contact``), robots.txt, another locale's page (``/en/x`` of
    ``/de/en/x``). Its x-default is then not named.
    """
    try:
        adapter.match(path, method="GET")
    except HTTPException as error:  # else another route's redirect or 405
        return isinstance(error, NotFound)
    return False
