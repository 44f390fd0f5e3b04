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
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass

from flask import Flask
from werkzeug.exceptions import HTTPException
from werkzeug.routing import Map, MapAdapter, RequestRedirect, Rule
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


def _sample(rule: Rule, fixed: Mapping[str, str]) -> str:
    """A path that ``rule`` answers: its arguments filled with values that
    their converters read (``fixed`` first); _NoSample when none is found."""
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

    return _PLACEHOLDER.sub(sample_value, rule.rule)


def _winner(adapter: MapAdapter, path: str, method: str) -> Rule | None:
    """The rule that answers ``path``, after a slash redirect; or None."""
    for _ in range(2):
        try:
            rule, _ = adapter.match(path, method=method, return_rule=True)
        except RequestRedirect as redirect:
            path = "/" + redirect.new_url.split("://", 1)[-1].split("/", 1)[-1]
            path = path.split("?", 1)[0]
            continue
        except HTTPException:
            return None
        return rule
    return None


def _method(rule: Rule) -> str:
    methods = rule.methods or {"GET"}
    return "GET" if "GET" in methods else sorted(methods)[0]


def _locales_of(rule: Rule, locales: Sequence[str]) -> list[str]:
    """The locales a localized rule exists in, as far as the start knows."""
    option = getattr(rule, "marmeon_locales", None)
    if option is None or callable(option):
        return list(locales)
    return list(LocaleTags(locales).among(option))


def _bind(url_map: Map, rule: Rule) -> MapAdapter | None:
    host = rule.host if url_map.host_matching else "localhost"
    if not host or "<" in host:
        return None  # a host pattern: no sample host to match on
    return url_map.bind(host, "/")


def shadows(app: Flask, locales: Sequence[str]) -> Iterator[Shadow]:
    """Every (plain route, localized route) pair where the plain route
    answers an address of the localized one, once per pair."""
    if not locales:
        return
    url_map = app.url_map
    rules = list(url_map.iter_rules())
    localized = [rule for rule in rules if is_localized_rule(rule)]
    if not localized:
        return
    seen: set[tuple[int, int]] = set()
    for rule in localized:
        adapter = _bind(url_map, rule)
        if adapter is None:
            continue
        for tag in _locales_of(rule, locales):
            try:
                path = _sample(rule, {LOCALE_ARG: spelling(tag)})
            except _NoSample:
                continue
            winner = _winner(adapter, path, _method(rule))
            if winner is None or is_localized_rule(winner):
                continue
            if (id(winner), id(rule)) not in seen:
                seen.add((id(winner), id(rule)))
                yield Shadow(winner, rule, path, tag)
    only_localized = Map(
        [rule.empty() for rule in localized],
        converters=dict(url_map.converters),
        strict_slashes=url_map.strict_slashes,
        merge_slashes=url_map.merge_slashes,
        host_matching=url_map.host_matching,
    )
    spellings = LocaleTags(locales).by_spelling
    for plain in rules:
        first = plain.rule.split("/")[1] if plain.rule.count("/") else ""
        if is_localized_rule(plain) or first not in spellings:
            continue
        adapter = _bind(only_localized, plain)
        if adapter is None:
            continue
        try:
            path = _sample(plain, {})
        except _NoSample:
            continue
        loser = _winner(adapter, path, _method(plain))
        if loser is None:
            continue
        original = next(
            (
                r
                for r in localized
                if r.endpoint == loser.endpoint and r.rule == loser.rule
            ),
            loser,
        )
        if spellings[first] not in _locales_of(original, locales):
            continue
        if (id(plain), id(original)) not in seen:
            seen.add((id(plain), id(original)))
            yield Shadow(plain, original, path, spellings[first])
