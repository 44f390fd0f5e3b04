"""The kinds of check the page tags and og's product take (beside
:mod:`.field_kinds`' that they extend): one line of text, a text or a list
of them, a price, ``other``'s names."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from decimal import Decimal, InvalidOperation
from typing import NamedTuple, Union

from .field_kinds import (
    Field,
    ObjectField,
    RecordField,
    TextField,
    TextListField,
    kind_of,
)
from .text import _plain, is_text
from .types import Text

#: A line break or a control character: what a name or a one-line value of a
#: tag may not hold (a browser would cut or change it).
_NOT_ONE_LINE = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")


def one_line(value: str, path: str) -> str:
    """``value`` as a plain str, or ValueError for a line break or a control
    character in it."""
    if not value.isprintable():
        found = _NOT_ONE_LINE.search(value)
        if found is not None:
            raise ValueError(
                f"{path} {value!r} holds {found.group()!r}, a line break or a"
                " control character, which a tag's value cannot carry. Pass"
                " it on one line, without control characters."
            )
    return _plain(value)


class LineField(TextField):
    """Text on one line: refused (ValueError) with a line break or a
    control character, where :class:`~.field_kinds.TextField` cleans them."""

    expected = "text on one line (a str or a lazy string)"

    def check(self, value: object, path: str) -> str:
        if not is_text(value):
            raise self.wrong(value, path)
        return one_line(str(value), path)


class LinesField(TextListField):
    """A text or a list of texts, each on one line; always a tuple."""

    annotation = Union[Text, Sequence[Text]]  # noqa: UP007 (the TypedDict's)
    expected = "text on one line, or a list of them"
    item = LineField()

    def check(self, value: object, path: str) -> tuple[str, ...]:
        if is_text(value):
            return (one_line(str(value), path),)
        return super().check(value, path)


class Price(NamedTuple):
    """A product's price: the amount as its decimal text, the currency code."""

    amount: str
    currency: str


_CURRENCY = re.compile("[A-Z]{3}")


class AmountField(Field):
    """An amount of money: a Decimal, an int or its text, written as a
    plain decimal number (``19.99``, never ``1.999E+1``). A float is
    refused: it is not the amount the app meant (0.1 + 0.2)."""

    annotation = Union[Decimal, int, Text]  # noqa: UP007 (the TypedDict's)
    expected = "a Decimal, an int or its text, such as Decimal('19.99')"

    def check(self, value: object, path: str) -> str:
        if isinstance(value, bool) or isinstance(value, float):
            raise self.wrong(value, path)
        if isinstance(value, int):
            return str(int(value))
        if is_text(value):
            text = one_line(str(value), path).strip()
            try:
                number = Decimal(text)
            except InvalidOperation:
                raise ValueError(
                    f"{path} {text!r} is not a number. Write the amount as"
                    " '19.99' or Decimal('19.99')."
                ) from None
        elif isinstance(value, Decimal):
            number = value
        else:
            raise self.wrong(value, path)
        if not number.is_finite():
            raise ValueError(f"{path} {value!r} is not an amount of money.")
        return format(number, "f")


class CurrencyField(LineField):
    """A currency as its ISO 4217 code (``EUR``)."""

    expected = "a currency's ISO 4217 code, such as 'EUR'"
    quick = None  # a printable text is not a code yet

    def check(self, value: object, path: str) -> str:
        code = super().check(value, path)
        if _CURRENCY.fullmatch(code) is None:
            raise ValueError(
                f"{path} {code!r} is not a currency code: write its three"
                " capital letters (ISO 4217), such as 'EUR' or 'USD'."
            )
        return code


class PriceField(RecordField):
    """``{amount, currency}`` as a :class:`Price` (no text form)."""

    def __init__(self, obj: ObjectField) -> None:
        super().__init__(obj, Price, text=None)


class NamesField(Field):
    """``other``: ``{name: text or list of texts}``, each name one line, as
    a dict of name -> tuple of texts.

    ``taken(name)`` gives the argument that writes a name the head writes
    itself (``"description="``), or None for a name free to use: such a
    name is refused with a TypeError naming that argument.
    """

    annotation = Mapping[str, Union[Text, Sequence[Text]]]  # noqa: UP007
    expected = "a dict of meta names and their texts, such as {'rating': 'adult'}"

    def __init__(self) -> None:
        self.taken: Callable[[str], str | None] = lambda name: None
        self.texts = LinesField()

    def check(self, value: object, path: str) -> dict[str, tuple[str, ...]]:
        if not isinstance(value, Mapping):
            raise self.wrong(value, path)
        out: dict[str, tuple[str, ...]] = {}
        for name, texts in value.items():
            if not is_text(name):
                raise TypeError(
                    f"{path} has the name {kind_of(name)}: a meta name is text."
                )
            name = one_line(str(name), f"{path}'s name")
            if not name.strip():
                raise ValueError(f"{path} has an empty name.")
            use = self.taken(name)
            if use is not None:
                raise TypeError(
                    f"{path} names {name!r}, which the head writes itself:"
                    f" pass it as head({use}=...) instead."
                )
            if texts is not None:
                out[name] = self.texts.check(texts, f"{path}[{name!r}]")
        return out
