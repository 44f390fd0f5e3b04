"""One parameter value -> its text in a URL, with every check of its own.

A value must be one the converter would read from a URL and give the view:
no bool or float where it reads an int (``/n/1`` and ``/n/2`` are other
pages' addresses), no text it refuses, no dot segment, a slash only where
the converter takes one. A value too long for any address is refused before
any encoding work, so a huge one costs nothing.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote, unquote

from werkzeug.routing import ValidationError
from werkzeug.routing.converters import (
    BaseConverter,
    IntegerConverter,
    NumberConverter,
)

from .entries import shown

#: The longest address the sitemap format allows in a ``<loc>``.
MAX_LOC_LENGTH = 2048
#: What Werkzeug's builder leaves unquoted in a rule's static text.
STATIC_SAFE = "!$&'()*+,/:;=@"
#: A value's text as a URL may hold it: unreserved, sub-delims, ':', '@',
#: '/' and escapes (what werkzeug's converters write).
_URL_TEXT = re.compile(r"(?:[A-Za-z0-9_.~!$&'()*+,/:;=@-]|%[0-9A-Fa-f]{2})*")
# The most bits of an int whose digits fit in an address.
_MAX_INT_BITS = int(MAX_LOC_LENGTH * 3.33) + 1


class Refused(Exception):
    """An entry the route would not answer with 200; the message says why.

    :attr:`kind` groups the reasons of one route's warning.
    """

    def __init__(self, message: str, kind: str = "other") -> None:
        super().__init__(message)
        self.kind = kind


@dataclass(frozen=True)
class Arg:
    """One argument of a compiled rule: where it goes, and its converter."""

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
    #: The most characters a str value may have in an address of the rule.
    max_length: int

    def text(self, value: Any) -> tuple[str, str]:
        """The value as written in the URL and as the router reads it back."""
        kind = type(value)
        if isinstance(value, int) and value.bit_length() > _MAX_INT_BITS:
            # Without the value's digits: writing them is the work avoided.
            raise Refused(
                f"the value of {self.name!r} makes the address longer than"
                f" {MAX_LOC_LENGTH} characters",
                "length",
            )
        if self.plain_int and kind is int and value >= 0:
            text = str(value)
            return text, text
        if value is None:
            # As url_for reads it: None is no value, not the text "None".
            raise Refused(f"the parameter {self.name!r} is missing (None)", "missing")
        if (kind is str or kind is bytes) and len(value) > self.max_length:
            # Before any encoding work: a huge value costs nothing.
            raise Refused(
                f"the value of {self.name!r} ({len(value)} characters) makes the"
                f" address longer than {MAX_LOC_LENGTH} characters",
                "length",
            )
        try:
            text = self.converter.to_url(value)
        except (ValueError, TypeError, ValidationError) as error:
            raise Refused(
                f"the converter of {self.name!r} refuses {shown(value)} ({error})",
                "converter",
            ) from None
        decoded = unquote(text) if "%" in text else text
        if _URL_TEXT.fullmatch(text) is None:
            # Some converters (werkzeug's any) write their value unencoded;
            # a text without escapes is encoded whole, one with escapes keeps them.
            safe = STATIC_SAFE + ("%" if decoded != text else "")
            text = quote(text, safe=safe)
        if self.fullmatch(decoded) is None:
            if "/" in decoded and not self.allows_slash:
                raise Refused(
                    f"the value {shown(value)} of {self.name!r} holds a slash,"
                    " which its converter does not allow",
                    "slash",
                )
            raise self._refuse(value)
        if self.allows_slash:
            parts = decoded.split("/")
            if "." in parts or ".." in parts or "" in parts:
                raise Refused(
                    f"the value {shown(value)} of {self.name!r} holds a '.', '..'"
                    " or empty segment",
                    "dot",
                )
        elif decoded == "." or decoded == "..":
            raise Refused(
                f"the value {shown(value)} of {self.name!r} is a dot segment", "dot"
            )
        if (
            self.validate
            or kind is bool
            or kind is float
            or isinstance(self.converter, NumberConverter)
        ):
            self._read_back(value, decoded)
        return text, decoded

    def _read_back(self, value: Any, decoded: str) -> None:
        # A value the converter would never give the view (True, 2.7 or "5"
        # for an int) is another page's address written again: /n/1, /n/2.
        try:
            read = self.converter.to_python(decoded)
        except (ValidationError, ValueError):
            raise self._refuse(value) from None
        kind = type(value)
        if kind is bool or kind is float or isinstance(self.converter, NumberConverter):
            if read != value or type(read) is not kind and kind in (bool, float, str):
                wanted = _a(type(read).__name__)
                raise Refused(
                    f"the value {shown(value)} of {self.name!r} is"
                    f" {_a(kind.__name__)}, but the route's converter gives the"
                    f" view {wanted}: the entry's value has the wrong type for"
                    f" the converter (give {self.name!r} as {wanted})",
                    "type",
                )

    def _refuse(self, value: object) -> Refused:
        return Refused(
            f"the converter of {self.name!r} refuses {shown(value)}", "converter"
        )


def _a(noun: str) -> str:
    """``noun`` with its article: "an int", "a str"."""
    return f"{'an' if noun[:1] in 'aeiou' else 'a'} {noun}"


def make_arg(index: int, name: str, converter: BaseConverter, max_length: int) -> Arg:
    """The argument ``name`` of a compiled rule: its place among the path's
    parts, its converter, and ``max_length``, the characters an address leaves for
    its value (a value longer than that is refused before any work)."""
    plain_int = (
        type(converter) is IntegerConverter
        and not converter.fixed_digits
        and not converter.signed
        and converter.min is None
        and converter.max is None
    )
    return Arg(
        index=index,
        name=name,
        converter=converter,
        fullmatch=re.compile(converter.regex).fullmatch,
        validate=not plain_int
        and type(converter).to_python is not BaseConverter.to_python,
        plain_int=plain_int,
        allows_slash=not converter.part_isolating,
        max_length=max(max_length, 0),
    )
