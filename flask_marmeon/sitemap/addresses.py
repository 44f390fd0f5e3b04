"""From an entry's params to its addresses: build, the 404 filter, locales.

Each marked rule is compiled once per build (:func:`compile_rule`) into the
static parts of its path and one converter per argument. An entry's address
is then built by filling the parts and checked cheaply: every value must be
one the converter would read from a URL (no bool or float where it reads an
int), as the router sees it (percent-decoded), may not be ``.`` or ``..``
(nor hold such a segment), may hold a slash only where the converter allows
one, and no other route may answer the address. Building and matching back
is what makes this exact; the compiled checks make it cheap, and the full
router match runs only for the addresses that another route's pattern could
take (:mod:`.overlaps`).

Every address is APP_URL's origin + the mount path (``Settings.root``, from
APPLICATION_ROOT, never a request's SCRIPT_NAME) + the route's path.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote, unquote

from werkzeug.exceptions import HTTPException
from werkzeug.routing import BaseConverter, Map, MapAdapter, Rule
from werkzeug.routing.exceptions import RequestRedirect

from ..config import own_host
from ..i18n.availability import stranger_tag, tags_from
from ..i18n.pages import strip_locale
from ..i18n.urls import (
    LOCALE_ARG,
    RULE_PREFIX,
    is_localized_rule,
    redirects_by_language,
)
from ..locale_tags import X_DEFAULT, LocaleTags, spelling
from .arguments import MAX_LOC_LENGTH, STATIC_SAFE, Arg, Refused, make_arg
from .overlaps import NO_RIVALS, Rivals, answers_get, could_take, rivals_of
from .rule_parts import rule_parts


@dataclass(frozen=True, slots=True)
class Addresses:
    """An entry's ``<url>`` addresses: one, or one per locale of a localized
    page, then the alternates every one of them lists (``(hreflang,
    address)`` per locale, then ``x-default``), or ``()``."""

    locs: tuple[str, ...]
    alternates: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class CompiledRule:
    """A marked rule, compiled once per build."""

    rule: Rule
    #: APP_URL's origin and the mount path: what every address starts with.
    base: str
    #: The path's static text with a None where an argument goes.
    parts: tuple[str | None, ...]
    args: tuple[Arg, ...]
    #: Names a provider's params must have (a localized rule's locale too).
    names: frozenset[str]
    #: Decoded paths that a route without arguments takes, and a pattern for
    #: the addresses another GET route with arguments could take.
    rivals: Rivals
    #: When two arguments share a segment only the router can say how it
    #: splits them, so every address is matched back in full.
    match_always: bool
    #: The app's router, bound to its own host and the mount path (never a
    #: request's), for the addresses that are matched back.
    adapter: MapAdapter
    #: The app's locales for a localized rule (the first segment), else ().
    locales: tuple[str, ...] = ()
    #: The route's ``locales=`` option: None (all), configured tags (in
    #: APP_LOCALES order), or a callable of the entry's params.
    locale_option: tuple[str, ...] | Callable[..., Any] | None = None
    #: Tags the route's option names that APP_LOCALES does not hold.
    unknown_locales: tuple[str, ...] = ()
    #: For a localized rule, the rivals of each locale's addresses, which
    #: start with the locale: usually none.
    locale_rivals: Mapping[str, Rivals] = field(default_factory=dict)
    #: For a localized rule, the rivals of its addresses without a locale
    #: (x-default): usually none.
    default_rivals: Rivals = NO_RIVALS

    def path(self, params: Mapping[str, Any]) -> str:
        """The encoded path of ``params`` (a localized rule's locale among
        them); raises :class:`Refused` saying why not."""
        if params.keys() != self.names:
            self._refuse_names(params.keys())
        parts = list(self.parts)
        decoded_values = {}
        for arg in self.args:
            text, decoded_values[arg.name] = arg.text(params[arg.name])
            parts[arg.index] = text
        path = "".join(parts)  # type: ignore[arg-type]
        decoded_path = unquote(path) if "%" in path else path
        rivals = (
            self.locale_rivals.get(params[LOCALE_ARG], self.rivals)
            if self.locales
            else self.rivals
        )
        if self.match_always or could_take(rivals, decoded_path):
            self._match_back(decoded_path, decoded_values)
        if len(self.base) + len(path) > MAX_LOC_LENGTH:
            raise Refused(
                f"the address is longer than {MAX_LOC_LENGTH} characters", "length"
            )
        return path

    def _refuse_names(self, keys: Iterable[str]) -> None:
        """Raise :class:`Refused` naming the missing and unknown parameters
        among ``keys`` (a localized rule's locale counts as given)."""
        given = set(keys) | ({LOCALE_ARG} if self.locales else set())
        missing = sorted(self.names - given)
        unknown = sorted(given - self.names)
        if missing and unknown:
            names = ", ".join(map(repr, sorted(self.names - {LOCALE_ARG})))
            raise Refused(
                f"the parameter {missing[0]!r} is missing and the parameter"
                f" {unknown[0]!r} is unknown to the route (the route's"
                f" parameters are {names})",
                "missing",
            )
        if missing:
            raise Refused(f"the parameter {missing[0]!r} is missing", "missing")
        raise Refused(
            f"the parameter {unknown[0]!r} is unknown to the route", "unknown"
        )

    def _match_back(self, decoded_path: str, decoded: dict[str, str]) -> None:
        try:
            rule, matched = self.adapter.match(
                decoded_path, method="GET", return_rule=True
            )
        except RequestRedirect as redirect:
            raise Refused(
                f"the address redirects to {redirect.new_url!r}", "other route"
            ) from None
        except HTTPException as error:
            raise Refused(
                f"the router answers {error.code} for it", "other route"
            ) from None
        if rule is not self.rule:
            raise Refused(
                f"the route {rule.rule!r} answers its address instead", "other route"
            )
        converters = rule_parts(self.rule).converters
        expected = {
            name: converters[name].to_python(text) for name, text in decoded.items()
        }
        if {name: matched.get(name) for name in expected} != expected:
            raise Refused(f"the router reads the address as {matched!r}", "other route")

    def loc(self, params: Mapping[str, Any]) -> str:
        """The full address of ``params`` (not localized)."""
        return self.base + self.path(params)

    def chosen_locales(
        self, params: Mapping[str, Any], given: tuple[str, ...] | None
    ) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
        """The locales an entry's page exists in, in APP_LOCALES order; the
        tags it names that APP_LOCALES does not hold; and the configured
        tags it names that the route's ``locales=`` refuses.

        The entry's own ``locales`` win over the route's option, within it:
        the page answers 404 in a locale its route refuses, and the sitemap
        never names a URL that does not work.
        """
        option = self.locale_option
        tags = LocaleTags(self.locales)
        if callable(option):
            if params.keys() | {LOCALE_ARG} != self.names:
                # Before the function is called with them.
                self._refuse_names(params.keys())
            try:
                result = option(**params)
            except HTTPException as error:
                # get_or_404() in the function: the page answers that error too.
                raise Refused(
                    f"its locales= function answers {error.code} for it", "locales"
                ) from None
            allowed, strangers = tags.split(tags_from(self.rule, result))
            # A tag the app does not hold (fr_FR) is a mistake in the
            # function: its entries are left out, the warning says which.
            if strangers:
                raise Refused(
                    stranger_tag(self.rule, strangers[0], self.locales), "locales"
                )
        else:
            # The route's own unknown tags are said once, by the build.
            allowed = self.locales if option is None else option
        if given is None:
            return allowed, (), ()
        chosen, unknown = tags.split(given)
        kept = LocaleTags(chosen).among(allowed)
        return kept, unknown, LocaleTags(allowed).strangers(chosen)


def addresses(
    compiled: CompiledRule,
    params: Mapping[str, Any],
    locales: tuple[str, ...] | None = None,
) -> Addresses:
    """The addresses of one entry: one, or one per locale with alternates.

    A localized rule gives an address per locale of ``locales`` (default:
    every locale of the app), ``params`` plus ``locale=tag``, each listing
    every version by its hreflang (the tag as configured) and ``x-default``:
    the same path without its first segment. Raises :class:`Refused` when
    any version would not answer, so an entry's versions are written all or
    none.
    """
    if not compiled.locales:
        return Addresses((compiled.loc(params),))
    if LOCALE_ARG in params:
        raise Refused(
            f"the parameter {LOCALE_ARG!r} is set by the app, once per locale:"
            " leave it out of the entry",
            "unknown",
        )
    if locales is None:
        locales = compiled.locales
    if not locales:
        return Addresses(())
    base = compiled.base
    locs = [base + compiled.path({**params, LOCALE_ARG: tag}) for tag in locales]
    # Every version's path is "/" + its locale + the same rest: x-default is
    # that rest, as the page's own (i18n.pages.strip_locale) is, where it is
    # the redirect (no other route takes it).
    alternates: tuple[tuple[str, str], ...] = tuple(zip(locales, locs, strict=True))
    default = strip_locale(locs[0], locales[0], base)
    decoded = unquote(default[len(base) :])
    if not could_take(compiled.default_rivals, decoded) or redirects_by_language(
        compiled.adapter, decoded
    ):
        alternates += ((X_DEFAULT, default),)
    return Addresses(tuple(locs), alternates)


def compile_rule(
    rule: Rule, origin: str, locales: tuple[str, ...] = (), root: str = ""
) -> CompiledRule:
    """Compile a bound rule of ``rule.map`` for the sitemap at ``origin`` +
    ``root`` (the mount path)."""
    url_map = rule.map
    base = origin + root
    # Static text and arguments alternate: text, arg, text, ..., text (a
    # text may be empty), so one argument is parts[0] + value + parts[2].
    parts: list[str | None] = [""]
    found: list[tuple[int, str, BaseConverter]] = []
    read = rule_parts(rule)
    for dynamic, data in read.trace:
        if dynamic:
            found.append((len(parts), data, read.converters[data]))
            parts.extend((None, ""))
        else:
            parts[-1] = str(parts[-1]) + quote(data, safe=STATIC_SAFE)
    static_length = sum(len(part) for part in parts if part is not None)
    max_value_length = MAX_LOC_LENGTH - len(base) - static_length
    args = tuple(
        make_arg(index, name, converter, max_value_length)
        for index, name, converter in found
    )
    # Only the router can say how it splits two arguments in one segment, or
    # an argument that spans segments from the ones after it; and it
    # redirects an address whose values are another rule's defaults, and
    # every address of a rule with redirect_to.
    shape = "".join("\0" if part is None else part for part in parts)
    match_always = (
        rule.redirect_to is not None
        or any(segment.count("\0") > 1 for segment in shape.split("/"))
        or any(arg.allows_slash for arg in args[:-1])
        or any(
            other is not rule and other.defaults and other.endpoint == rule.endpoint
            for other in url_map.iter_rules()
        )
    )
    candidates = [other for other in url_map.iter_rules() if answers_get(other)]
    localized = is_localized_rule(rule) and LOCALE_ARG in read.converters
    option: Any = getattr(rule, "marmeon_locales", None) if localized else None
    unknown: tuple[str, ...] = ()
    if option is not None and not callable(option):
        option, unknown = LocaleTags(locales).split(tuple(option))
    return CompiledRule(
        rule=rule,
        base=base,
        parts=tuple(parts),
        args=args,
        names=frozenset(read.converters),
        rivals=rivals_of(rule, candidates),
        match_always=match_always,
        adapter=url_map.bind(own_host(url_map, origin), root or "/"),
        locales=locales if localized else (),
        locale_option=option,
        unknown_locales=unknown,
        locale_rivals={
            tag: rivals_of(rule, candidates, {LOCALE_ARG: spelling(tag)})
            for tag in (locales if localized else ())
        },
        default_rivals=_default_rivals(rule, candidates) if localized else NO_RIVALS,
    )


def _default_rivals(rule: Rule, candidates: list[Rule]) -> Rivals:
    """The rivals of a localized rule's addresses without their locale."""
    if not rule.rule.startswith(RULE_PREFIX):
        return NO_RIVALS
    url_map = rule.map
    # The rule of those addresses, bound to a map of its own.
    default = Rule(rule.rule[len(RULE_PREFIX) :] or "/", endpoint=rule.endpoint)
    Map(
        [default],
        converters=url_map.converters,
        strict_slashes=url_map.strict_slashes,
        merge_slashes=url_map.merge_slashes,
    )
    return rivals_of(default, candidates)
