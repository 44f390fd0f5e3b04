"""From a provider's params to addresses: build, the 404 filter, locale expansion.

Each marked rule is compiled once (:func:`compile_rule`) into the static
parts of its path and one converter per argument. An entry's address is then
built by filling the parts and checked cheaply: every value must be one the
converter accepts as the router sees it (percent-decoded), may not be ``.``
or ``..`` (nor hold such a segment), may hold a slash only where the
converter allows one, and no other route may answer the address. Building
and matching back is what makes this exact; the compiled checks make it cheap,
and the full router match runs only for the addresses that another route's
pattern could take.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import date, datetime, timezone
from typing import Any
from urllib.parse import quote, unquote, urlsplit

from werkzeug.exceptions import HTTPException
from werkzeug.routing import Map, Rule, ValidationError
from werkzeug.routing.converters import (
    BaseConverter,
    IntegerConverter,
    UnicodeConverter,
)
from werkzeug.routing.exceptions import RequestRedirect

#: The URL variable of a localized route: its first path segment.
LOCALE_ARG = "locale"
#: What the rule of a localized route starts with (see flask_marmeon.i18n).
LOCALIZED_PREFIX = f"/<marmeon_locale:{LOCALE_ARG}>"
#: The longest address the sitemap format allows in a ``<loc>``.
MAX_LOC_LENGTH = 2048
# What Werkzeug's builder leaves unquoted in a rule's static text.
_STATIC_SAFE = "!$&'()*+,/:;=@"
#: A text that the default converter's to_url writes as it is (quote's
#: always-safe characters and Werkzeug's safe ones but "/"), and that needs
#: no XML escaping (no "&" or "'"), so it is its own URL text and decoded
#: value. At least one character: the converter takes no empty value.
PLAIN_TEXT = re.compile(r"[A-Za-z0-9_.~!$()*+,:;=@-]+")
#: A value's text as a URL may hold it: unreserved, sub-delims, ':', '@',
#: '/' and escapes (what werkzeug's converters write).
_URL_TEXT = re.compile(r"(?:[A-Za-z0-9_.~!$&'()*+,/:;=@-]|%[0-9A-Fa-f]{2})*")


@dataclass(frozen=True, slots=True, init=False)
class SitemapEntry:
    """One page of a route in the sitemap.

    :param params: the values of the route's parameters (``{"note_id": 3}``);
        empty for a route without parameters.
    :param last_modified: when the page last changed, written as
        ``<lastmod>YYYY-MM-DD</lastmod>`` (an aware datetime in UTC).
    """

    params: Mapping[str, Any] = field(default_factory=dict)
    last_modified: date | None = None

    # A provider makes one entry per page, so the constructor is on the hot
    # path of every build: this one stores the two slots directly, about a
    # third cheaper than the generated one, which goes through the frozen
    # class's object.__setattr__ by name.
    def __init__(
        self,
        params: Mapping[str, Any] | None = None,
        last_modified: date | None = None,
    ) -> None:
        _set_params(self, {} if params is None else params)
        _set_last_modified(self, last_modified)


_set_params: Callable[[SitemapEntry, object], None] = SitemapEntry.__dict__[
    "params"
].__set__
_set_last_modified: Callable[[SitemapEntry, object], None] = SitemapEntry.__dict__[
    "last_modified"
].__set__


@dataclass(frozen=True, slots=True)
class Version:
    """One ``<url>``: its address and, for a localized page, its alternates
    (``(hreflang, address)`` for every locale, then ``x-default``)."""

    loc: str
    alternates: tuple[tuple[str, str], ...] = ()


class Refused(Exception):
    """An entry the route would not answer with 200; the message says why.

    :attr:`kind` groups the reasons of one route's warning.
    """

    def __init__(self, message: str, kind: str = "other") -> None:
        super().__init__(message)
        self.kind = kind


def lastmod(value: object, where: str = "an entry") -> str | None:
    """``YYYY-MM-DD`` from a date or datetime (an aware one in UTC), or None.

    ``where`` names the route for the error a wrong type raises.
    """
    if value is None:
        return None
    if isinstance(value, datetime):
        if value.tzinfo is not None and value.utcoffset() is not None:
            value = value.astimezone(timezone.utc)
        return value.date().isoformat()
    if isinstance(value, date):
        return value.isoformat()
    raise TypeError(
        f"The sitemap provider of {where} gave last_modified={value!r}, but"
        " last_modified must be a date or a datetime. Convert it, for example"
        " with datetime.fromisoformat()."
    )


_ENTRY_KEYS = ("params", "last_modified")
_ENTRY_SPELLINGS = {"lastModified": "last_modified", "lastmod": "last_modified"}


def normalize(item: object, where: str) -> SitemapEntry:
    """A provider's item as a :class:`SitemapEntry` (a dict form is accepted)."""
    if type(item) is SitemapEntry:
        return item
    if isinstance(item, SitemapEntry):
        return item
    if isinstance(item, Mapping):
        for key in item:
            if key not in _ENTRY_KEYS:
                hint = _ENTRY_SPELLINGS.get(str(key))
                extra = f" Did you mean {hint!r}?" if hint else ""
                raise TypeError(
                    f"The sitemap provider of {where} gave an entry with the key"
                    f" {key!r}; an entry has 'params' and 'last_modified'.{extra}"
                )
        params = item.get("params", {})
        if not isinstance(params, Mapping):
            raise TypeError(
                f"The sitemap provider of {where} gave params={params!r};"
                " params must be a dict of the route's parameters."
            )
        return SitemapEntry(params=params, last_modified=item.get("last_modified"))
    raise TypeError(
        f"The sitemap provider of {where} gave {item!r}; expected a SitemapEntry"
        " or a dict {'params': ..., 'last_modified': ...}."
    )


@dataclass(frozen=True)
class _Arg:
    index: int
    name: str
    converter: BaseConverter
    fullmatch: Callable[[str], Any]
    #: Whether to_python may refuse a text its regex accepts (bounds, custom
    #: converters); werkzeug's plain int and string converters cannot.
    validate: bool
    #: A plain int converter: an int is written as str(value), no call needed.
    plain_int: bool
    allows_slash: bool

    def text(self, value: Any) -> tuple[str, str]:
        """The value as written in the URL and as the router reads it back."""
        if self.plain_int and type(value) is int:
            text = str(value)
        elif value is None:
            # As url_for reads it: None is no value, not the text "None".
            raise Refused(f"the parameter {self.name!r} is missing (None)", "missing")
        else:
            try:
                text = self.converter.to_url(value)
            except (ValueError, TypeError, ValidationError) as error:
                raise Refused(
                    f"the converter of {self.name!r} refuses {value!r} ({error})",
                    "converter",
                ) from None
        decoded = unquote(text) if "%" in text else text
        if _URL_TEXT.fullmatch(text) is None:
            # Some converters (werkzeug's any) write their value unencoded;
            # a text without escapes is encoded whole, one with escapes keeps them.
            safe = _STATIC_SAFE + ("%" if decoded != text else "")
            text = quote(text, safe=safe)
        if self.fullmatch(decoded) is None:
            if "/" in decoded and not self.allows_slash:
                raise Refused(
                    f"the value {value!r} of {self.name!r} holds a slash,"
                    " which its converter does not allow",
                    "slash",
                )
            raise Refused(
                f"the converter of {self.name!r} refuses {value!r}", "converter"
            )
        if self.allows_slash:
            segments = decoded.split("/")
            if "." in segments or ".." in segments or "" in segments:
                raise Refused(
                    f"the value {value!r} of {self.name!r} holds a '.', '..'"
                    " or empty segment",
                    "dot",
                )
        elif decoded == "." or decoded == "..":
            raise Refused(
                f"the value {value!r} of {self.name!r} is a dot segment", "dot"
            )
        if self.validate:
            try:
                self.converter.to_python(decoded)
            except ValidationError:
                raise Refused(
                    f"the converter of {self.name!r} refuses {value!r}", "converter"
                ) from None
        return text, decoded


def _is_identity(converter: BaseConverter) -> bool:
    return type(converter).to_python is BaseConverter.to_python


def _pattern(rule: Rule) -> str:
    pieces: list[str] = []
    for dynamic, data in _path_trace(rule):
        if dynamic:
            pieces.append(f"(?:{rule._converters[data].regex})")
        else:
            pieces.append(re.escape(data))
    return "".join(pieces)


def _path_trace(rule: Rule) -> list[tuple[bool, str]]:
    # Werkzeug's trace of a bound rule: the host part, "|", then the path's
    # static text and argument names in order.
    trace = list(rule._trace)
    for position, (dynamic, data) in enumerate(trace):
        if not dynamic and data == "|":
            return trace[position + 1 :]
    return trace


def _segments(
    rule: Rule, fixed: Mapping[str, str] | None = None
) -> list[str | None] | None:
    """The rule's path segments, a segment with an argument as None; None when
    an argument can span several segments. ``fixed`` gives the text of
    arguments whose value is known (a localized rule's locale)."""
    text: list[str] = []
    for dynamic, data in _path_trace(rule):
        if dynamic and fixed is not None and data in fixed:
            text.append(fixed[data])
        elif dynamic:
            if not rule._converters[data].part_isolating:
                return None
            text.append("\0")
        else:
            text.append(data)
    return [None if "\0" in part else part for part in "".join(text).split("/")]


def _could_share(one: list[str | None] | None, two: list[str | None] | None) -> bool:
    if one is None or two is None:
        return True
    if len(one) != len(two):
        return False
    return all(a is None or b is None or a == b for a, b in zip(one, two, strict=True))


def _literal_prefix(rule: Rule, fixed: Mapping[str, str] | None = None) -> str:
    """The rule's path up to its first argument (whose value ``fixed`` does
    not give)."""
    prefix = ""
    for dynamic, data in _path_trace(rule):
        if dynamic:
            if fixed is None or data not in fixed:
                break
            data = fixed[data]
        prefix += data
    return prefix


def _prefixes_meet(one: str, two: str) -> bool:
    """Whether paths starting with ``one`` and ``two`` can be the same: two
    rules whose paths start differently never take the same address."""
    return one.startswith(two) or two.startswith(one)


def _answers_get(rule: Rule) -> bool:
    if rule.build_only or getattr(rule, "websocket", False):
        return False
    return rule.methods is None or "GET" in rule.methods


@dataclass(frozen=True)
class CompiledRule:
    """A marked rule, compiled once per build."""

    rule: Rule
    origin: str
    #: The path's static text with a None where an argument goes.
    parts: tuple[str | None, ...]
    args: tuple[_Arg, ...]
    #: Names a provider's params must have.
    names: frozenset[str]
    #: Decoded paths that a route without arguments takes.
    static_rivals: frozenset[str]
    #: Matches (the decoded path of) any address another GET route with
    #: arguments could take.
    rivals: re.Pattern[str] | None
    #: When two arguments share a segment only the router can say how it
    #: splits them, so every address is matched back in full.
    match_always: bool
    url_map: Map
    #: The app's locales for a localized rule (the first segment), else ().
    locales: tuple[str, ...] = ()
    #: Whether a path may hold a character XML escapes (``&`` or ``'``).
    needs_escape: bool = True
    #: For a localized rule, ``(static_rivals, rivals)`` of each locale's
    #: addresses, which start with the locale: only the routes those
    #: addresses could meet (usually none), where :attr:`static_rivals` and
    #: :attr:`rivals` hold every route that any locale's could.
    locale_rivals: tuple[tuple[frozenset[str], re.Pattern[str] | None], ...] = ()

    def path(self, params: Mapping[str, Any]) -> str:
        """The encoded path of ``params``; raises :class:`Refused` saying why."""
        if params.keys() != self.names:
            missing = sorted(self.names - params.keys())
            unknown = sorted(set(params) - self.names)
            if missing:
                raise Refused(f"the parameter {missing[0]!r} is missing", "missing")
            raise Refused(
                f"the parameter {unknown[0]!r} is unknown to the route", "unknown"
            )
        args = self.args
        if len(args) == 1:
            # The common case, kept short: one argument, often a plain int
            # (whose digits need no check).
            arg = args[0]
            value = params[arg.name]
            if arg.plain_int and type(value) is int and value >= 0:
                text = decoded = str(value)
            else:
                text, decoded = arg.text(value)
            before, _, after = self.parts
            path = f"{before}{text}{after}"
            decoded_values = {arg.name: decoded}
        else:
            parts = list(self.parts)
            decoded_values = {}
            for arg in args:
                text, decoded_values[arg.name] = arg.text(params[arg.name])
                parts[arg.index] = text
            path = "".join(parts)  # type: ignore[arg-type]
        decoded_path = unquote(path) if "%" in path else path
        if (
            self.match_always
            or decoded_path in self.static_rivals
            or (self.rivals is not None and self.rivals.fullmatch(decoded_path))
        ):
            self._match_back(decoded_path, decoded_values)
        if len(self.origin) + len(path) > MAX_LOC_LENGTH:
            raise Refused(
                f"the address is longer than {MAX_LOC_LENGTH} characters", "length"
            )
        return path

    def _match_back(self, decoded_path: str, decoded: dict[str, str]) -> None:
        # An app that matches hosts answers on APP_URL's host only.
        host = urlsplit(self.origin).netloc if self.url_map.host_matching else ""
        adapter = self.url_map.bind(host or "localhost", "/")
        try:
            rule, matched = adapter.match(decoded_path, method="GET", return_rule=True)
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
        converters = self.rule._converters
        expected = {
            name: converters[name].to_python(text) for name, text in decoded.items()
        }
        if {name: matched.get(name) for name in expected} != expected:
            raise Refused(f"the router reads the address as {matched!r}", "other route")

    def loc(self, params: Mapping[str, Any]) -> str:
        """The full address of ``params`` (not localized)."""
        return self.origin + self.path(params)

    def value_plan(self) -> ValuePlan | None:
        """The plan of the commonest shapes, or None: a rule whose only
        argument (after a localized rule's locale, its first segment) is a
        plain int or a plain string (the default converter, without length
        options) and whose addresses no route with arguments could take.
        See :class:`ValuePlan`."""
        args = self.args
        parts = self.parts
        if self.match_always:
            return None
        if self.locales:
            if (
                len(args) != 2
                or args[0].name != LOCALE_ARG
                or parts[0] != "/"
                or len(parts) != 5
                or len(self.locale_rivals) != len(self.locales)
                or any(rivals is not None for _, rivals in self.locale_rivals)
            ):
                return None
            rest = parts[2]
            assert rest is not None
            befores = [f"/{tag.lower()}{rest}" for tag in self.locales]
            rival_sets = [static for static, _ in self.locale_rivals]
            hreflangs: tuple[str, ...] = self.locales
            default: str | None = rest
        else:
            if len(args) != 1 or self.rivals is not None:
                return None
            befores = [parts[0] or ""]
            rival_sets = [self.static_rivals]
            hreflangs = ("",)
            default = None
        arg = args[-1]
        after = parts[-1]
        assert after is not None
        # The XML writer marks the value's place with a NUL and the day's
        # with a \x01, which no encoded path holds (nor, in practice, an
        # origin or a locale).
        texts = (self.origin, after, *befores, *hreflangs)
        plain_str = (
            type(arg.converter) is UnicodeConverter
            and arg.converter.regex == "[^/]{1,}"
        )
        if not (arg.plain_int or plain_str) or any(
            "\0" in text or "\x01" in text for text in texts
        ):
            return None
        # An address is at most MAX_LOC_LENGTH long: so many characters fit.
        room = (
            MAX_LOC_LENGTH
            - len(self.origin)
            - max(len(before) for before in befores)
            - len(after)
        )
        # The values whose (decoded) address a route without arguments takes;
        # a dot segment is no value of a string either.
        taken: set[object] = set() if arg.plain_int else {".", ".."}
        decoded_after = unquote(after)
        for before, static in zip(befores, rival_sets, strict=True):
            decoded_before = unquote(before)
            for path in static:
                middle = path[len(decoded_before) : len(path) - len(decoded_after)]
                if (
                    len(path) > len(decoded_before) + len(decoded_after)
                    and path.startswith(decoded_before)
                    and path.endswith(decoded_after)
                ):
                    if not arg.plain_int:
                        taken.add(middle)
                    elif (
                        middle.isascii()
                        and middle.isdigit()
                        and str(int(middle)) == middle
                    ):
                        taken.add(int(middle))
        if arg.plain_int:
            bound = 10**room if room > 0 else 0
        else:
            bound = max(room, 0)
        return ValuePlan(
            name=arg.name,
            kind=int if arg.plain_int else str,
            bound=bound,
            taken=frozenset(taken),
            versions=tuple(zip(hreflangs, befores, strict=True)),
            after=after,
            default=default,
        )


@dataclass(frozen=True)
class ValuePlan:
    """How to write the entries of the commonest shapes with few checks per
    entry: ``/notes/<int:note_id>``, ``/posts/<slug>``, and their localized
    forms ``/<locale>/notes/<int:note_id>``, ...

    An entry whose params are exactly ``{name: value}`` with an int ``value``
    in ``range(bound)``, or a str ``value`` of at most ``bound`` characters
    that :data:`PLAIN_TEXT` matches, and not in ``taken``, passes every
    check of :meth:`CompiledRule.path` (its text needs no encoding, decoding
    or XML escaping, is no dot segment and holds no slash, no other route
    can take the address, which is short enough), and its versions' paths
    are ``before + str(value) + after``. Any other entry goes the general way.
    """

    #: The argument.
    name: str
    #: The type of the values planned: int or str.
    kind: type
    #: int: values from ``bound`` on make an address longer than the format
    #: allows; str: the most characters a value may have.
    bound: int
    #: Values whose address (of some version) a route without arguments
    #: takes, and for str the dot segments.
    taken: frozenset[object]
    #: ``(hreflang, before)`` of each version, in the order of the locales;
    #: hreflang is "" for a rule that is not localized.
    versions: tuple[tuple[str, str], ...]
    #: The path's text after the value (encoded).
    after: str
    #: The text before the value of the x-default address (a localized
    #: rule's path without its locale), else None.
    default: str | None


def expand(compiled: CompiledRule, params: Mapping[str, Any]) -> tuple[Version, ...]:
    """The ``<url>`` versions of one entry: one, or one per locale with alternates.

    A localized rule (``marmeon_localized``, first segment
    ``<marmeon_locale:locale>``) gives a version per locale of the app,
    ``params`` plus ``locale=tag``, each listing every version by its hreflang
    (the tag as configured) and ``x-default``: the same path without its first
    segment. Raises :class:`Refused` when any version would not answer, so an
    entry's versions are written all or none.
    """
    if not compiled.locales:
        return (Version(compiled.loc(params)),)
    if LOCALE_ARG in params:
        raise Refused(
            f"the parameter {LOCALE_ARG!r} is set by the app, once per locale:"
            " leave it out of the entry",
            "unknown",
        )
    origin = compiled.origin
    locales = compiled.locales
    # The versions share every value but the first segment, so the checks run
    # in full once; for each locale only what the locale can change is
    # checked again: whether another route takes the address, and its length.
    rest = _int_rest(compiled, params)
    if rest is None:
        first = locales[0]
        path = compiled.path({**params, LOCALE_ARG: first})
        rest = path[len(first) + 1 :]
        locs = [origin + path]
        others = locales[1:]
    else:
        locs = []
        others = locales
    limit = MAX_LOC_LENGTH - len(origin)
    per_locale = compiled.locale_rivals or [
        (compiled.static_rivals, compiled.rivals)
    ] * len(locales)
    for tag, (static_rivals, rivals) in zip(
        others, per_locale[len(locales) - len(others) :], strict=True
    ):
        other = f"/{tag.lower()}{rest}"
        decoded = unquote(other) if "%" in other else other
        if (
            compiled.match_always
            or decoded in static_rivals
            or (rivals is not None and rivals.fullmatch(decoded))
        ):
            other = compiled.path({**params, LOCALE_ARG: tag})
        elif len(other) > limit:
            raise Refused(
                f"the address is longer than {MAX_LOC_LENGTH} characters", "length"
            )
        locs.append(origin + other)
    # One tuple shared by the versions: the XML writer writes the links once.
    alternates = (
        *zip(compiled.locales, locs, strict=True),
        ("x-default", origin + (rest or "/")),
    )
    return tuple([Version(loc, alternates) for loc in locs])


def _int_rest(compiled: CompiledRule, params: Mapping[str, Any]) -> str | None:
    """The common localized shape, ``/<locale>TEXT<int:x>TEXT`` with a
    non-negative int: the path after the locale, which needs no check beyond
    the per-locale ones (as in :meth:`CompiledRule.value_plan`). None for
    anything else, which goes through :meth:`CompiledRule.path`."""
    args = compiled.args
    if len(args) != 2 or len(params) != 1 or compiled.match_always:
        return None
    arg = args[1]
    value = params.get(arg.name)
    if type(value) is not int or value < 0 or not arg.plain_int:
        return None
    parts = compiled.parts
    if args[0].name != LOCALE_ARG or parts[0] != "/" or len(parts) != 5:
        return None
    return f"{parts[2]}{value}{parts[4]}"


def is_localized(rule: Rule) -> bool:
    """Whether ``rule`` is a localized route: marked ``marmeon_localized``, or
    its rule starts with ``/<marmeon_locale:locale>``."""
    return bool(getattr(rule, "marmeon_localized", False)) or rule.rule.startswith(
        LOCALIZED_PREFIX
    )


def route_arguments(rule: Rule) -> frozenset[str]:
    """The parameters a provider's entries must fill (a localized route's
    locale is the app's business)."""
    names = frozenset(rule._converters)
    if is_localized(rule):
        names -= {LOCALE_ARG}
    return names


def compile_rule(
    rule: Rule, origin: str, locales: tuple[str, ...] = ()
) -> CompiledRule:
    """Compile a bound rule of ``rule.map`` for the sitemap at ``origin``."""
    url_map = rule.map
    # Static text and arguments alternate: text, arg, text, ..., text (a
    # text may be empty), so one argument is parts[0] + value + parts[2].
    parts: list[str | None] = [""]
    args: list[_Arg] = []
    for dynamic, data in _path_trace(rule):
        if dynamic:
            converter = rule._converters[data]
            plain_int = (
                type(converter) is IntegerConverter
                and not converter.fixed_digits
                and not converter.signed
                and converter.min is None
                and converter.max is None
            )
            args.append(
                _Arg(
                    index=len(parts),
                    name=data,
                    converter=converter,
                    fullmatch=re.compile(converter.regex).fullmatch,
                    validate=not (plain_int or _is_identity(converter)),
                    plain_int=plain_int,
                    allows_slash=not converter.part_isolating,
                )
            )
            parts.extend((None, ""))
        else:
            parts[-1] = str(parts[-1]) + quote(data, safe=_STATIC_SAFE)
    # Only the router can say how it splits two arguments in one segment, or
    # an argument that spans segments from the ones after it; and it
    # redirects an address whose values are another rule's defaults.
    shape = "".join("\0" if part is None else part for part in parts)
    match_always = (
        any(segment.count("\0") > 1 for segment in shape.split("/"))
        or any(arg.allows_slash for arg in args[:-1])
        or any(
            other is not rule and other.defaults and other.endpoint == rule.endpoint
            for other in url_map.iter_rules()
        )
    )
    own = _segments(rule)
    own_prefix = _literal_prefix(rule)
    others = [
        other
        for other in url_map.iter_rules()
        if other is not rule
        and _answers_get(other)
        and _could_share(own, _segments(other))
        and _prefixes_meet(own_prefix, _literal_prefix(other))
    ]
    localized = is_localized(rule)
    locale_rivals: list[tuple[frozenset[str], re.Pattern[str] | None]] = []
    if localized and locales and LOCALE_ARG in rule._converters:
        for tag in locales:
            fixed = {LOCALE_ARG: tag.lower()}
            own_segments = _segments(rule, fixed)
            prefix = _literal_prefix(rule, fixed)
            locale_rivals.append(
                _rivals_of(
                    [
                        other
                        for other in others
                        if _could_share(own_segments, _segments(other))
                        and _prefixes_meet(prefix, _literal_prefix(other))
                    ]
                )
            )
    static_rivals, rivals = _rivals_of(others)
    static_text = "".join(part for part in parts if part is not None)
    # A localized rule's locale is a BCP 47 tag: letters, digits and "-".
    needs_escape = any(
        not arg.plain_int and not (localized and arg.name == LOCALE_ARG) for arg in args
    ) or any(char in static_text for char in "&'<>\"")
    return CompiledRule(
        rule=rule,
        origin=origin,
        parts=tuple(parts),
        args=tuple(args),
        names=route_arguments(rule) if not localized else frozenset(rule._converters),
        static_rivals=static_rivals,
        rivals=rivals,
        match_always=match_always,
        url_map=url_map,
        locales=locales if localized else (),
        needs_escape=needs_escape,
        locale_rivals=tuple(locale_rivals) if localized else (),
    )


def _rivals_of(
    others: list[Rule],
) -> tuple[frozenset[str], re.Pattern[str] | None]:
    """The paths of the routes without arguments among ``others``, and one
    pattern for the addresses of the others."""
    static = frozenset(
        "".join(data for _, data in _path_trace(other))
        for other in others
        if not other._converters
    )
    return static, _union([_pattern(other) for other in others if other._converters])


def _union(patterns: list[str]) -> re.Pattern[str] | None:
    if not patterns:
        return None
    try:
        return re.compile("|".join(f"(?:{pattern})" for pattern in patterns))
    except re.error:
        # Converters with named groups cannot share one pattern: match all.
        return re.compile(".*", re.DOTALL)
