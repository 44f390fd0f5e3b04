"""The commonest routes' entries, checked with a few comparisons each.

``/notes/<int:note_id>``, ``/posts/<slug>`` and their localized forms
``/<locale>/notes/<int:note_id>``: one plain int or plain string argument
(after a localized rule's locale) that no route with arguments could take.
For such a rule, :func:`shortcut_of` says which values pass every check of
:meth:`.CompiledRule.path` without it, and the build writes their
``<url>`` elements as ``value.join(pieces)``, the pieces written once per
route and date by :func:`.xml.url_elements` itself (see
:func:`.xml.value_pieces_of`): there is one way to write a ``<url>``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import unquote

from werkzeug.routing.converters import UnicodeConverter

from ..i18n.urls import LOCALE_ARG
from ..locale_tags import spelling
from .addresses import CompiledRule
from .arguments import MAX_LOC_LENGTH
from .overlaps import NO_RIVALS

#: A text that the default converter's to_url writes as it is (quote's
#: always-safe characters and Werkzeug's safe ones but "/"), and that needs
#: no XML escaping (no "&" or "'"), so it is its own URL text and decoded
#: value. At least one character: the converter takes no empty value.
PLAIN_TEXT = re.compile(r"[A-Za-z0-9_.~!$()*+,:;=@-]+")

#: An int's text as str() writes it (not "07", "+7" or "٧").
_INT_TEXT = re.compile("0|[1-9][0-9]*")


@dataclass(frozen=True)
class Shortcut:
    """How to write an entry of a planned rule with few checks.

    An entry whose params are exactly ``{name: value}`` with an int ``value``
    in ``range(bound)``, or a str ``value`` of at most ``bound`` characters
    that :data:`PLAIN_TEXT` matches, and not in ``taken``, passes every check
    of :meth:`.CompiledRule.path` (its text needs no encoding, decoding or
    XML escaping, is no dot segment and holds no slash, no other route can
    take the address, which is short enough), and its versions' paths are
    ``before + str(value) + after``. Any other entry goes the general way.
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


def shortcut_of(compiled: CompiledRule) -> Shortcut | None:
    """The plan of a rule of the commonest shapes, or None (see :class:`Shortcut`).

    A localized rule's plan covers the locales of its route's ``locales=``
    option when that is a list (all when it is None); a callable option
    names them per entry, so such a rule has no plan.
    """
    args = compiled.args
    parts = compiled.parts
    if compiled.match_always:
        return None
    if compiled.locales:
        option = compiled.locale_option
        if callable(option) or compiled.default_rivals != NO_RIVALS:
            return None  # per entry: its locales, or whether x-default redirects
        tags = compiled.locales if option is None else option
        rivals = [compiled.locale_rivals[tag] for tag in tags]
        if (
            not tags
            or len(args) != 2
            or args[0].name != LOCALE_ARG
            or parts[0] != "/"
            or len(parts) != 5
            or any(pattern is not None for _, pattern in rivals)
        ):
            return None
        rest = parts[2]
        assert rest is not None
        befores = [f"/{spelling(tag)}{rest}" for tag in tags]
        rival_sets = [static for static, _ in rivals]
        hreflangs: tuple[str, ...] = tags
        default: str | None = rest
    else:
        static, pattern = compiled.rivals
        if len(args) != 1 or pattern is not None:
            return None
        befores = [parts[0] or ""]
        rival_sets = [static]
        hreflangs = ("",)
        default = None
    arg = args[-1]
    after = parts[-1]
    assert after is not None
    # The XML writer marks the value's place with a NUL and the day's with a
    # \x01, which no encoded path holds (nor, in practice, an origin or a
    # locale).
    texts = (compiled.base, after, *befores, *hreflangs)
    plain_str = (
        type(arg.converter) is UnicodeConverter and arg.converter.regex == "[^/]{1,}"
    )
    if not (arg.plain_int or plain_str) or any(
        "\0" in text or "\x01" in text for text in texts
    ):
        return None
    # An address is at most MAX_LOC_LENGTH long: so many characters fit.
    max_value_length = (
        MAX_LOC_LENGTH
        - len(compiled.base)
        - max(len(before) for before in befores)
        - len(after)
    )
    # The values whose (decoded) address a route without arguments takes;
    # a dot segment is no value of a string either.
    taken: set[object] = set() if arg.plain_int else {".", ".."}
    for before, static in zip(befores, rival_sets, strict=True):
        value = re.compile(
            f"{re.escape(unquote(before))}(.+){re.escape(unquote(after))}", re.DOTALL
        )
        for path in static:
            found = value.fullmatch(path)
            if found and not arg.plain_int:
                taken.add(found[1])
            elif found and _INT_TEXT.fullmatch(found[1]):
                taken.add(int(found[1]))
    room = max(max_value_length, 0)
    return Shortcut(
        name=arg.name,
        kind=int if arg.plain_int else str,
        bound=(10**room if room else 0) if arg.plain_int else room,
        taken=frozenset(taken),
        versions=tuple(zip(hreflangs, befores, strict=True)),
        after=after,
        default=default,
    )
