"""The runtime schema of ``head()``'s arguments: check and normalize.

Every argument and key is checked when ``head()`` is called, so a mistake
points at the line that made it: an unknown key or a wrong type raises
TypeError, a value outside the choices ValueError. Values come out plain
and normalized: text is a ``str`` cleaned of what HTML cannot carry (see
:mod:`flask_marmeon.head.text`), dates are ISO 8601 strings, an image is an
:class:`Image`.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Mapping, Sequence
from datetime import date, datetime
from typing import Any, Literal, NamedTuple, Union

from flask import current_app

from ..og_images.naming import check_secret_key
from ..og_images.value import OgImage
from .text import _plain, clean_text, clean_url
from .types import (
    OpenGraph,
    OpenGraphArticle,
    OpenGraphImage,
    Robots,
    Text,
    Twitter,
    TwitterImage,
)


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


def kind_of(value: object) -> str:
    return f"{type(value).__name__} {value!r}"


def _is_text(value: object) -> bool:
    return isinstance(value, str) or (
        not isinstance(value, type) and hasattr(type(value), "__html__")
    )


#: How a field takes a value without calling its check() (Field.fast).
FAST_NONE, FAST_TEXT, FAST_BOOL, FAST_SIZE, FAST_CHOICE = range(5)
_BOOLS = frozenset((True, False))


class Field:
    """One argument or key: its annotation (kept equal to the TypedDicts)
    and how to check and normalize a value."""

    annotation: Any = None
    expected = ""
    #: What the field takes as it is, without a call to :meth:`check` (the
    #: fast way through for the common values): one of the ``FAST_*`` below.
    fast = 0
    #: For ``FAST_CHOICE``: the values taken as they are.
    fast_choices: frozenset[str] = frozenset()

    def check(self, value: object, path: str) -> Any:
        """Return the normalized value, or raise TypeError/ValueError."""
        raise NotImplementedError

    def wrong(self, value: object, path: str) -> TypeError:
        return TypeError(f"{path} must be {self.expected}, not {kind_of(value)}.")


class TextField(Field):
    annotation = Text
    fast = FAST_TEXT
    expected = "text (a str or a lazy string)"

    def check(self, value: object, path: str) -> str:
        if not _is_text(value):
            raise self.wrong(value, path)
        return clean_text(str(value))


class UrlField(TextField):
    expected = "a URL as text, such as '/notes/1' or 'https://cdn.example/a.png'"

    def check(self, value: object, path: str) -> str:
        if not _is_text(value):
            raise self.wrong(value, path)
        return clean_url(str(value))


class TemplateField(TextField):
    expected = "text with %s where the title goes, such as '%s · Notes'"
    fast = FAST_NONE

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
    fast = FAST_BOOL

    def check(self, value: object, path: str) -> bool:
        if not isinstance(value, bool):
            raise self.wrong(value, path)
        return value


class SizeField(Field):
    annotation = int
    expected = "a whole number of pixels such as 1200"
    fast = FAST_SIZE

    def check(self, value: object, path: str) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.wrong(value, path)
        if value < 1:
            raise ValueError(f"{path} must be at least 1 pixel, not {value!r}.")
        return int(value)


class LimitField(Field):
    """A count for Google's robots directives: -1 for no limit, else >= 0."""

    annotation = int
    expected = "a whole number, -1 for no limit"

    def check(self, value: object, path: str) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.wrong(value, path)
        if value < -1:
            raise ValueError(
                f"{path} is {value!r}: write a number of at least 0, or -1 for"
                " no limit."
            )
        return int(value)


def moment(value: datetime, path: str) -> str:
    """An aware datetime in ISO 8601, with its offset.

    The head's one rule for a naive datetime, wherever one goes (robots'
    ``unavailable_after``, an article's times): it is refused, since a
    crawler reads the time in the zone the text names and the server's own
    zone is not the reader's; nothing invents an offset.
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
        self.fast = FAST_CHOICE
        self.fast_choices = frozenset(choices)
        self.annotation = Literal.__getitem__(choices)
        self.expected = "one of " + ", ".join(repr(c) for c in choices)

    def check(self, value: object, path: str) -> str:
        if not isinstance(value, str):
            # A lazy string is text like any other (lazy_gettext("article")).
            if not _is_text(value):
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
        if _is_text(value):
            return clean_text(str(value))
        raise self.wrong(value, path)


class TextListField(Field):
    annotation = Sequence[Text]
    expected = "a list of text, such as ['Ada', 'Grace']"

    def check(self, value: object, path: str) -> tuple[str, ...]:
        if not isinstance(value, (list, tuple)):
            raise self.wrong(value, path)
        item_field = TextField()
        return tuple(
            item_field.check(item, f"{path}[{i}]") for i, item in enumerate(value)
        )


class ObjectField(Field):
    """A dict of known keys, normalized to a dict of the keys that are set."""

    def __init__(
        self,
        typed: Any,
        fields: dict[str, Field],
        required: tuple[str, ...] = (),
        unknown: Callable[[str, object], TypeError] | None = None,
    ) -> None:
        self.annotation = typed
        self.fields = fields
        self.required = required
        #: Makes the error for an unknown key (None: the dict's own message).
        self.unknown = unknown
        self.expected = f"a dict with the keys of {typed.__name__}"
        #: Per key, what is taken as it is, without a call to the field's
        #: check(): a value of this exact type that the test (a method
        #: written in C) accepts. A str subclass, a lazy string, a wrong type
        #: or None goes the long way.
        self.rules: dict[str, tuple[type, Callable[[Any], bool]]] = {}
        for key, field in fields.items():
            if field.fast == FAST_TEXT:
                self.rules[key] = (str, str.isprintable)
            elif field.fast == FAST_BOOL:
                self.rules[key] = (bool, _BOOLS.__contains__)
            elif field.fast == FAST_SIZE:
                self.rules[key] = (int, (0).__lt__)
            elif field.fast == FAST_CHOICE:
                self.rules[key] = (str, field.fast_choices.__contains__)

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
                if self.unknown is not None:
                    raise self.unknown(path, key)
                raise TypeError(
                    f"{path} has no key {key!r}; it takes"
                    f" {', '.join(map(repr, self.fields))}.{hint(key, self.fields)}"
                )
            if item is not None:
                out[key] = field.check(item, f"{path}.{key}")
        for key in self.required:
            if key not in out:
                raise TypeError(f"{path} needs the key {key!r}.")
        return out


class ImageField(Field):
    """A URL, or a dict with ``url`` and the image's other keys."""

    def __init__(self, obj: ObjectField) -> None:
        self.obj = obj
        self.annotation = Union[Text, obj.annotation, OgImage]  # noqa: UP007
        self.expected = (
            "a URL as text, a dict such as {'url': '/cover.png', ...} with"
            f" the keys {', '.join(map(repr, obj.fields))}, or an OgImage"
        )

    def check(self, value: object, path: str) -> Image | OgImage:
        if type(value) is OgImage:
            # Kept as it is: the head names it when it is written, with the
            # page's texts (flask_marmeon.head.generated).
            check_secret_key(current_app._get_current_object())  # type: ignore[attr-defined]
            return value
        if type(value) is dict or isinstance(value, Mapping):
            # The keys that are set; the others keep the class's None.
            got = self.obj.check(value, path)
            # tuple.__new__ itself: the named tuple's __new__ with keywords
            # costs a third of the image's checks.
            return tuple.__new__(
                Image,
                (got["url"], got.get("width"), got.get("height"), got.get("alt"), None),
            )
        if _is_text(value):
            return Image(clean_url(str(value)))
        raise self.wrong(value, path)


ROBOTS = ObjectField(
    Robots,
    {
        "index": BoolField(),
        "follow": BoolField(),
        "max_image_preview": ChoiceField("none", "standard", "large"),
        "max_snippet": LimitField(),
        "max_video_preview": LimitField(),
        "nosnippet": BoolField(),
        "noimageindex": BoolField(),
        "unavailable_after": MomentField(),
    },
)
ARTICLE = ObjectField(
    OpenGraphArticle,
    {
        "published_time": DateField(),
        "modified_time": DateField(),
        "authors": TextListField(),
        "tags": TextListField(),
    },
)
OPEN_GRAPH_IMAGE = ObjectField(
    OpenGraphImage,
    {
        "url": UrlField(),
        "width": SizeField(),
        "height": SizeField(),
        "alt": TextField(),
    },
    required=("url",),
)
TWITTER_IMAGE = ObjectField(
    TwitterImage, {"url": UrlField(), "alt": TextField()}, required=("url",)
)
OPEN_GRAPH = ObjectField(
    OpenGraph,
    {
        "title": TextField(),
        "description": TextField(),
        "type": ChoiceField("website", "article", "profile"),
        "url": UrlField(),
        "site_name": TextField(),
        "locale": TextField(),
        "image": ImageField(OPEN_GRAPH_IMAGE),
        "article": ARTICLE,
    },
)
TWITTER = ObjectField(
    Twitter,
    {
        "card": ChoiceField("summary", "summary_large_image"),
        "site": TextField(),
        "creator": TextField(),
        "title": TextField(),
        "description": TextField(),
        "image": ImageField(TWITTER_IMAGE),
    },
)

#: The arguments of ``head()`` (``json_ld`` is checked apart, see
#: :func:`check_json_ld`).
SCHEMA: dict[str, Field] = {
    "title": TextField(),
    "title_template": TemplateField(),
    "description": TextField(),
    "canonical": UrlField(),
    "robots": ROBOTS,
    "open_graph": OPEN_GRAPH,
    "twitter": TWITTER,
}

ARGUMENTS = (*SCHEMA, "json_ld")


def _snake(name: str) -> str:
    return re.sub(r"(?<=[a-z0-9])([A-Z])", r"_\1", name).lower()


def hint(name: object, choices: Mapping[str, object] | Sequence[str]) -> str:
    """Return " Did you mean 'x'?" when a choice is close to ``name``, else ""."""
    if not isinstance(name, str):
        return ""
    options = list(choices)
    if _snake(name) in options and _snake(name) != name:
        return f" Did you mean {_snake(name)!r}?"
    close = difflib.get_close_matches(name, options, n=1, cutoff=0.6)
    if not close:
        close = difflib.get_close_matches(_snake(name), options, n=1, cutoff=0.6)
    return f" Did you mean {close[0]!r}?" if close else ""
