"""Plain routes that take a localized route's address (an H10 problem).

A plain ``/de/about`` beside a localized ``/<locale>/about`` wins in the
router (a static segment beats the locale converter), so the German page is
never served, and the address without a locale (``/about``) answers a
German visitor 404 and an English one a redirect. The checker finds such a
pair both ways, on sample addresses (every argument filled with a value its
converter reads):

- each localized route's sample address in each of its locales, matched by
  the app: a plain route that answers it shadows the localized one (this
  finds ``/de/<path:rest>`` too);
- each plain route whose first segment is a locale's spelling, its sample
  address matched among the localized routes only: a localized route that
  would answer it is shadowed there (this finds ``/en/notes/3`` beside
  ``/<locale>/notes/<int:note_id>``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from urllib.parse import urlsplit

from flask import Flask
from werkzeug.exceptions import HTTPException
from werkzeug.routing import Map, RequestRedirect, Rule
from werkzeug.routing.converters import NumberConverter, ValidationError

from ..i18n.urls import LOCALE_ARG, is_localized_rule
from ..locale_tags import LocaleTags, spelling
from ..sitemap.rule_parts import rule_parts

_PLACEHOLDER = re.compile(r"<(?:[^<>]*:)?([^<>:]+)>")
_SAMPLES = (
    "1",
    "x",
    "1.0",
    "00000000-0000-0000-0000-000000000000",
    *("x" * n for n in (2, 3, 4, 5, 6, 8, 10, 12, 16, 20, 32, 64)),
)


@dataclass(frozen=True)
class Shadow:
    """A plain route that answers an address of a localized route."""

    plain: Rule
    localized: Rule
    #: The address (a sample one when the routes have arguments).
    address: str
    #: The locale of the address, as configured.
    locale: str

    def reason(self) -> str:
        return (
            f"takes the address {self.address!r} of the localized route"
            f" {self.localized.rule!r} (endpoint {self.localized.endpoint!r})"
            f" in {self.locale!r}: the localized page is never served there,"
            " and its address without a locale answers visitors of that"
            " language differently (a 404). Move the plain route to a path"
            " of its own, or, if the localized route has no page in"
            f" {self.locale!r}, leave it out of that route's locales=[...]"
        )


class _NoSample(Exception):
    pass


def _sample(rule: Rule, fixed: Mapping[str, str]) -> str | None:
    """A path that ``rule`` answers: its arguments filled with values that
    their converters read (``fixed`` first); None when none is found."""
    converters = rule_parts(rule).converters

    def sample_value(match: re.Match[str]) -> str:
        name = match.group(1)
        if name in fixed:
            return fixed[name]
        converter = converters.get(name)
        if converter is None:
            raise _NoSample(name)
        own = [str(item) for item in getattr(converter, "items", ()) or ()]
        if isinstance(converter, NumberConverter):
            low = converter.min if converter.min is not None else 1
            own.append(str(converter.num_convert(low)).zfill(converter.fixed_digits))
        for candidate in (*sorted(own), *_SAMPLES):
            if re.fullmatch(converter.regex, candidate) is None:
                continue
            if isinstance(converter, NumberConverter):
                # min= and max= are checked after the pattern (an app's own
                # converter is not called: it may look the value up).
                try:
                    converter.to_python(candidate)
                except ValidationError:
                    continue
            return candidate
        raise _NoSample(name)

    try:
        return _PLACEHOLDER.sub(sample_value, rule.rule)
    except _NoSample:
        return None


def _winner(url_map: Map, rule: Rule, path: str) -> Rule | None:
    """The rule of ``url_map`` that answers ``path`` (on ``rule``'s host, by
    ``rule``'s method), after a slash redirect; or None."""
    host = rule.host if url_map.host_matching else "localhost"
    if not host or "<" in host:
        return None  # a host pattern: no sample host to match on
    adapter = url_map.bind(host, "/")
    methods = rule.methods or {"GET"}
    method = "GET" if "GET" in methods else sorted(methods)[0]
    for _ in range(2):
        try:
            found, _ = adapter.match(path, method=method, return_rule=True)
        except RequestRedirect as redirect:
            path = urlsplit(redirect.new_url).path
            continue
        except HTTPException:
            return None
        return found
    return None


def _locales_of(rule: Rule, locales: Sequence[str]) -> list[str]:
    """The locales a localized rule exists in, as far as the start knows."""
    option = getattr(rule, "marmeon_locales", None)
    if option is None or callable(option):
        return list(locales)
    return list(LocaleTags(locales).among(option))


def shadows(app: Flask, locales: Sequence[str]) -> list[Shadow]:
    """Every (plain route, localized route) pair where the plain route
    answers an address of the localized one, once per pair."""
    url_map = app.url_map
    rules = list(url_map.iter_rules())
    localized = [rule for rule in rules if is_localized_rule(rule)]
    if not locales or not localized:
        return []
    found: dict[tuple[int, int], Shadow] = {}
    for rule in localized:
        for tag in _locales_of(rule, locales):
            path = _sample(rule, {LOCALE_ARG: spelling(tag)})
            if path is None:
                continue
            winner = _winner(url_map, rule, path)
            if winner is not None and not is_localized_rule(winner):
                shadow = Shadow(winner, rule, path, tag)
                found.setdefault((id(winner), id(rule)), shadow)
    copies = [rule.empty() for rule in localized]
    only_localized = Map(
        copies,
        converters=dict(url_map.converters),
        strict_slashes=url_map.strict_slashes,
        merge_slashes=url_map.merge_slashes,
        host_matching=url_map.host_matching,
    )
    originals = {id(copy): rule for copy, rule in zip(copies, localized, strict=True)}
    spellings = LocaleTags(locales).by_spelling
    for plain in rules:
        first = plain.rule.split("/")[1] if plain.rule.count("/") else ""
        if is_localized_rule(plain) or first not in spellings:
            continue
        path = _sample(plain, {})
        loser = None if path is None else _winner(only_localized, plain, path)
        if path is None or loser is None:
            continue
        original = originals[id(loser)]
        if spellings[first] in _locales_of(original, locales):
            shadow = Shadow(plain, original, path, spellings[first])
            found.setdefault((id(plain), id(original)), shadow)
    return list(found.values())
