"""How a value of ``head()`` is checked and normalized: one class per kind
(:mod:`flask_marmeon.head.table` says which field takes which).

Values come out plain and normalized: text is a ``str`` cleaned of what
HTML cannot carry (:mod:`flask_marmeon.head.text`), dates are ISO 8601
strings, an image is an :class:`Image` (or a :class:`Media`), a list of
them a tuple.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import date, datetime
from typing import Any, Literal, NamedTuple, Union

from .mistakes import hint, unknown_key
from .text import _plain, clean_text, clean_url, is_text
from .types import JsonLd, Text


class Image(NamedTuple):
    """An image after validation: one value, replaced whole by a later call.

    A named tuple: the head's memo hashes it with every page's key, and a
    tuple's hash runs in C where a dataclass's runs in Python.
    """

    url: str
    width: int | None = None
    height: int | None = None
    alt: str | None = None
    #: The media type (og:image:type): written for a generated image.
    type: str | None = None


class Media(NamedTuple):
    """A video or an audio after validation (audio has no size)."""

    url: str
    secure_url: str | None = None
    type: str | None = None
    width: int | None = None
    height: int | None = None


def kind_of(value: object) -> str:
    return f"{type(value).__name__} {value!r}"


_BOOLS = frozenset((True, False))


class Field:
    """One argument or key: its annotation (kept equal to the TypedDicts)
    and how to check and normalize a value."""

    annotation: Any = None
    expected = ""
    #: What the field takes as it is, without a call to :meth:`check` (the
    #: fast way through for the common values): a value of this exact type
    #: that the test (a method written in C) accepts; None for none.
    quick: tuple[type, Callable[[Any], bool]] | None = None

    def check(self, value: object, path: str) -> Any:
        """Return the normalized value, or raise TypeError/ValueError."""
        raise NotImplementedError

    def wrong(self, value: object, path: str) -> TypeError:
        return TypeError(f"{path} must be {self.expected}, not {kind_of(value)}.")


class TextField(Field):
    annotation = Text
    quick: tuple[type, Callable[[Any], bool]] | None = (str, str.isprintable)
    expected = "text (a str or a lazy string)"
    clean = staticmethod(clean_text)

    def check(self, value: object, path: str) -> str:
        if not is_text(value):
            raise self.wrong(value, path)
        return self.clean(str(value))


class UrlField(TextField):
    expected = "a URL as text, such as '/notes/1' or 'https://cdn.example/a.png'"
    clean = staticmethod(clean_url)


def _plain_template(value: str) -> bool:
    return "%s" in value and value.isprintable()


class TemplateField(TextField):
    expected = "text with %s where the title goes, such as '%s · Notes'"
    quick = (str, _plain_template)

    def check(self, value: object, path: str) -> str:
        text = super().check(value, path)
        if "%s" not in text:
            raise ValueError(
                f"{path} {text!r} has no %s, so the page's title would not"
                f" appear in it. Write it as {text + ' · %s'!r} or similar."
            )
        return text


class BoolField(Field):
    annotation = bool
    expected = "True or False"
    quick = (bool, _BOOLS.__contains__)

    def check(self, value: object, path: str) -> bool:
        if not isinstance(value, bool):
            raise self.wrong(value, path)
        return value


class SizeField(Field):
    annotation = int
    expected = "a whole number of pixels such as 1200"
    quick: tuple[type, Callable[[Any], bool]] | None = (int, (0).__lt__)
    least = 1
    too_small = "{path} must be at least 1 pixel, not {value!r}."

    def check(self, value: object, path: str) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.wrong(value, path)
        if value < self.least:
            raise ValueError(self.too_small.format(path=path, value=value))
        return int(value)


class LimitField(SizeField):
    """A count for Google's robots directives: -1 for no limit, else >= 0."""

    expected = "a whole number, -1 for no limit"
    quick = None
    least = -1
    too_small = "{path} is {value!r}: write a number of at least 0, or -1 for no limit."


def moment(value: datetime, path: str) -> str:
    """An aware datetime in ISO 8601, with its offset.

    The head's one rule for a naive datetime, wherever one goes (robots'
    ``unavailable_after``, an article's or a book's times): it is refused,
    since a crawler reads the time in the zone the text names and the
    server's own zone is not the reader's; nothing invents an offset.
    """
    if value.utcoffset() is None:
        raise ValueError(
            f"{path} {value!r} has no time zone, so it names no moment."
            " Give it one: datetime(2025, 7, 1, tzinfo=timezone.utc), or"
            " pass a date for a day."
        )
    return value.isoformat()


class MomentField(Field):
    """A moment with its time zone, written in ISO 8601 (see :func:`moment`)."""

    annotation = datetime
    expected = "a datetime with a time zone"

    def check(self, value: object, path: str) -> str:
        if not isinstance(value, datetime):
            raise self.wrong(value, path)
        return moment(value, path)


class ChoiceField(Field):
    def __init__(self, *choices: str) -> None:
        self.choices = choices
        self.quick = (str, frozenset(choices).__contains__)
        self.annotation = Literal.__getitem__(choices)
        self.expected = "one of " + ", ".join(repr(c) for c in choices)

    def check(self, value: object, path: str) -> str:
        if not isinstance(value, str):
            # A lazy string is text like any other (lazy_gettext("article")).
            if not is_text(value):
                raise self.wrong(value, path)
            value = str(value)
        if value not in self.choices:
            raise ValueError(
                f"{path} is {value!r}, which is not {self.expected}."
                + hint(value, self.choices)
            )
        return _plain(value)


class DateField(Field):
    annotation = Union[date, str]  # noqa: UP007 (equal to the TypedDict's)
    expected = "a date, a datetime or an ISO 8601 string"

    def check(self, value: object, path: str) -> str:
        if isinstance(value, datetime):
            return moment(value, path)  # a naive one is refused
        if isinstance(value, date):
            return clean_text(str(value.isoformat()))
        if is_text(value):
            return clean_text(str(value))
        raise self.wrong(value, path)


class TextListField(Field):
    annotation = Sequence[Text]
    expected = "a list of text, such as ['Ada', 'Grace']"

    item: Field = TextField()

    def check(self, value: object, path: str) -> tuple[str, ...]:
        if not isinstance(value, (list, tuple)):
            raise self.wrong(value, path)
        check = self.item.check
        return tuple(check(item, f"{path}[{i}]") for i, item in enumerate(value))


class ObjectField(Field):
    """A dict of known keys, normalized to a dict of the keys that are set."""

    def __init__(
        self,
        typed: Any,
        fields: dict[str, Field],
        required: tuple[str, ...] = (),
        unknown: Callable[[str, object, dict[str, Field]], TypeError] | None = None,
    ) -> None:
        self.annotation = typed
        self.fields = fields
        self.required = required
        self.expected = f"a dict with the keys of {typed.__name__}"
        #: Makes the error for an unknown key: (path, key, fields) -> error.
        self.unknown = unknown or unknown_key
        #: Per key, its field's ``quick`` (Field.quick). A str subclass, a
        #: lazy string, a wrong type or None goes the long way.
        self.rules = {k: f.quick for k, f in fields.items() if f.quick is not None}

    def check(self, value: object, path: str) -> dict[str, Any]:
        if type(value) is not dict and not isinstance(value, Mapping):
            raise self.wrong(value, path)
        out: dict[str, Any] = {}
        rules = self.rules
        for key, item in value.items():
            rule = rules.get(key) if type(key) is str else None
            if rule is not None and type(item) is rule[0] and rule[1](item):
                out[key] = item
                continue
            field = self.fields.get(key) if isinstance(key, str) else None
            if field is None:
                raise self.unknown(path, key, self.fields)
            if item is not None:
                out[key] = field.check(item, f"{path}.{key}" if path else key)
        for key in self.required:
            if key not in out:
                raise TypeError(f"{path} needs the key {key!r}.")
        return out


#: The text form of a record: a URL.
_URL = UrlField()


class RecordField(Field):
    """A URL, or a dict with ``url`` and the other keys, as a named tuple
    (``record``, whose fields name the dict's keys, ``url`` first); with
    ``many``, also a list of them, always normalized to a tuple.

    ``text`` checks the text form (a color is not a URL), None refuses it
    (a feed needs its type); ``rule(record, path)`` checks a dict's keys
    together (a color only on a mask icon). ``also`` lists other kinds of
    value the field takes, each with the function that makes the record of
    one (``(value, path) -> record``): the way to accept a new kind of image
    wherever an image is.
    """

    def __init__(
        self,
        obj: ObjectField,
        record: type[tuple[Any, ...]],
        *,
        many: bool = False,
        also: tuple[tuple[type, Callable[[Any, str], Any]], ...] = (),
        text: Field | None = _URL,
        rule: Callable[[Any, str], None] | None = None,
    ) -> None:
        self.obj = obj
        self.record = record
        self.many = many
        self.also = also
        self.text = text
        self.rule = rule
        #: The record's fields (a table may have fewer keys: twitter's
        #: image has no size; those stay None).
        self.keys: tuple[str, ...] = record._fields  # type: ignore[attr-defined]
        kinds = (Text,) * (text is not None) + (obj.annotation,)
        one: Any = Union[kinds + tuple(kind for kind, _ in also)]  # noqa: UP007
        self.annotation = Union[one, Sequence[one]] if many else one  # noqa: UP007
        self.expected = (
            "a URL as text, or a dict such as {'url': '/cover.png', ...} with"
            if text is not None
            else "a dict with"
        ) + f" the keys {', '.join(map(repr, obj.fields))}"
        if many:
            self.expected += ", or a list of them"

    def one(self, value: object, path: str) -> Any:
        if type(value) is dict or isinstance(value, Mapping):
            # The keys that are set; the others None.
            got = self.obj.check(value, path)
            # tuple.__new__ itself: the named tuple's __new__ with keywords
            # costs a third of the image's checks.
            record = tuple.__new__(self.record, map(got.get, self.keys))
            if self.rule is not None:
                self.rule(record, path)
            return record
        if self.text is not None and is_text(value):
            first = self.text.check(value, path)
            return tuple.__new__(self.record, (first,) + (None,) * (len(self.keys) - 1))
        for kind, make in self.also:
            if isinstance(value, kind):
                return make(value, path)
        raise self.wrong(value, path)

    def check(self, value: object, path: str) -> Any:
        if not self.many:
            return self.one(value, path)
        if isinstance(value, (list, tuple)):
            return tuple(self.one(item, f"{path}[{i}]") for i, item in enumerate(value))
        return (self.one(value, path),)


class JsonLdField(Field):
    """``json_ld=``: one block or a list of blocks, as a tuple.

    Only the shape is checked here (a dict, or a list of dicts). Whether JSON
    can write a block exactly is decided when the head is written, where
    development raises and production leaves the block out.
    """

    annotation = JsonLd
    expected = "a JSON-LD block or a list of blocks"

    def check(self, value: object, path: str) -> tuple[Any, ...]:
        if type(value) is dict:
            return (value,)
        blocks = list(value) if isinstance(value, (list, tuple)) else [value]
        for i, block in enumerate(blocks):
            if type(block) is not dict and not isinstance(block, Mapping):
                where = f"{path}[{i}]" if isinstance(value, (list, tuple)) else path
                raise TypeError(
                    f"{where} must be a JSON-LD block (a dict such as"
                    f" {{'@context': 'https://schema.org', '@type': 'Article'}})"
                    f" or a list of blocks, not {kind_of(block)}."
                )
        return tuple(blocks)
