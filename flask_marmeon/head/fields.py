"""head(**fields): the TypedDicts, their runtime schema, validation.

Every argument and key is checked when ``head()`` is called, so a mistake
points at the line that made it. The result is a frozen :class:`HeadFragment`
holding plain, normalized values: text is a ``str`` already cleaned of what
HTML cannot carry, dates are ISO 8601 strings, an image is an :class:`Image`.
Nothing later in the pipeline validates again.

The TypedDicts below are for editors and type checkers; :data:`SCHEMA` is the
same description for the running code. ``tests/head/test_fields.py`` keeps the
two equal.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any, Literal, Protocol, TypeAlias, TypedDict, TypeVar, Union

from ._chars import replace_surrogates, replace_uncarriable

# --------------------------------------------------------------------------
# Types for annotations (public, exported from flask_marmeon)


class HtmlText(Protocol):
    """Text that knows how to show itself, such as Flask-Babel's ``lazy_gettext``."""

    def __html__(self) -> str: ...


#: Text: a ``str`` (``Markup`` too), or a lazy string (Flask-Babel's
#: ``lazy_gettext``), turned into text when ``head()`` is called.
Text: TypeAlias = Union[str, HtmlText]  # noqa: UP007 (a runtime value)

#: A value inside a JSON-LD block: what JSON writes exactly.
JsonLdValue: TypeAlias = Union[  # noqa: UP007 (recursive, so not X | Y)
    str,
    int,
    float,
    bool,
    None,
    Sequence["JsonLdValue"],
    Mapping[str, "JsonLdValue"],
]

#: A JSON-LD node you build on its own: ``{"@type": "Person", "name": ...}``.
JsonLdNode: TypeAlias = Mapping[str, JsonLdValue]

#: A whole ``@graph`` block, whose nodes link to each other by their ``@id``.
JsonLdGraph = TypedDict(
    "JsonLdGraph",
    {"@context": JsonLdValue, "@graph": Sequence[JsonLdNode]},
    total=False,
)
JsonLdGraph.__doc__ = """A whole ``@graph`` block, nodes linked by their ``@id``.

Its keys start with ``@``, so it is spelled in TypedDict's call form.
"""

#: What ``json_ld=`` takes: one block, or a list of blocks.
JsonLd: TypeAlias = Union[  # noqa: UP007 (a runtime value)
    JsonLdNode, JsonLdGraph, Sequence[Union[JsonLdNode, JsonLdGraph]]  # noqa: UP007
]


class Robots(TypedDict, total=False):
    """``robots=``: only what is set is written (``{"index": False}`` -> noindex)."""

    index: bool | None
    follow: bool | None


class _OpenGraphImageUrl(TypedDict):
    url: Text


class OpenGraphImage(_OpenGraphImageUrl, total=False):
    """``open_graph={"image": {...}}``: an image with its size and alt text."""

    width: int | None
    height: int | None
    alt: Text | None


class _TwitterImageUrl(TypedDict):
    url: Text


class TwitterImage(_TwitterImageUrl, total=False):
    """``twitter={"image": {...}}``: an image with its alt text."""

    alt: Text | None


class OpenGraphArticle(TypedDict, total=False):
    """``open_graph={"article": {...}}``: written only for type ``"article"``."""

    published_time: date | str | None
    modified_time: date | str | None
    authors: Sequence[Text] | None
    tags: Sequence[Text] | None


class OpenGraph(TypedDict, total=False):
    """``open_graph=``: the ``og:*`` tags, merged key by key over layouts."""

    title: Text | None
    description: Text | None
    type: Literal["website", "article", "profile"] | None
    url: Text | None
    site_name: Text | None
    locale: Text | None
    image: Text | OpenGraphImage | None
    article: OpenGraphArticle | None


class Twitter(TypedDict, total=False):
    """``twitter=``: the ``twitter:*`` tags, merged key by key over layouts."""

    card: Literal["summary", "summary_large_image"] | None
    site: Text | None
    creator: Text | None
    title: Text | None
    description: Text | None
    image: Text | TwitterImage | None


# --------------------------------------------------------------------------
# Normalized values

_T = TypeVar("_T")


@dataclass(frozen=True)
class Image:
    """An image after validation: one value, replaced whole by a later call."""

    url: str
    width: int | None = None
    height: int | None = None
    alt: str | None = None


@dataclass(frozen=True)
class HeadFragment:
    """One ``head()`` call, validated and normalized.

    ``None`` means "not set by this call". ``robots``, ``open_graph`` and
    ``twitter`` hold only the keys the call set (an empty mapping still counts
    as set); ``open_graph["article"]`` is such a mapping too.
    """

    title: str | None = None
    title_template: str | None = None
    description: str | None = None
    canonical: str | None = None
    robots: Mapping[str, bool] | None = None
    open_graph: Mapping[str, Any] | None = None
    twitter: Mapping[str, Any] | None = None
    json_ld: tuple[Any, ...] = ()


def frozen(cls: type[_T], fields: dict[str, Any]) -> _T:
    """An instance of the frozen dataclass ``cls`` holding ``fields``.

    The generated ``__init__`` of a frozen dataclass sets each field through
    ``object.__setattr__``, which costs as much as the rest of a ``head()``
    call; the instance's dict is set at once instead. ``fields`` holds field
    names only (the others keep their class defaults) and is the instance's
    from then on.
    """
    obj: _T = object.__new__(cls)
    object.__setattr__(obj, "__dict__", fields)
    return obj


# --------------------------------------------------------------------------
# Text that HTML can carry

# What an HTML parser cannot give back as written (see _chars.py) becomes
# U+FFFD, as the parser itself does with NUL. A carriage return becomes a
# newline, as the parser's newline normalization would make it anyway.


def _plain(value: str) -> str:
    # A str subclass may redefine == and hash, and the head's writer keeps
    # what it wrote keyed on the values: from here on they are plain str.
    return value if type(value) is str else str.__str__(value)


def clean_text(value: str) -> str:
    """Return ``value`` as HTML can carry it (see the module's comment above),
    as a plain ``str``."""
    # Every character to replace is one that str.isprintable() refuses, and
    # most text is printable: this is the fast way out.
    if value.isprintable():
        return _plain(value)
    if "\r" in value:
        value = value.replace("\r\n", "\n").replace("\r", "\n")
    return _plain(replace_uncarriable(value))


def clean_url(value: str) -> str:
    """Return a URL as the browser's URL parser receives it.

    A URL is decided on as the app wrote it, control characters and all (a
    browser strips some of them and keeps others percent-encoded); only lone
    surrogates become U+FFFD, as a browser's USVString conversion does. The
    page never holds the raw value: the server writes the parser's
    serialization, and the browser data escapes it.
    """
    if value.isprintable():
        return _plain(value)
    return _plain(replace_surrogates(value))


# --------------------------------------------------------------------------
# The runtime schema


def _kind_of(value: object) -> str:
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
        return TypeError(f"{path} must be {self.expected}, not {_kind_of(value)}.")


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
                + _hint(value, self.choices)
            )
        return _plain(value)


class DateField(Field):
    annotation = Union[date, str]  # noqa: UP007 (equal to the TypedDict's)
    expected = "a date, a datetime or an ISO 8601 string"

    def check(self, value: object, path: str) -> str:
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
        self, typed: Any, fields: dict[str, Field], required: tuple[str, ...] = ()
    ) -> None:
        self.annotation = typed
        self.fields = fields
        self.required = required
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
                raise TypeError(
                    f"{path} has no key {key!r}; it takes"
                    f" {', '.join(map(repr, self.fields))}.{_hint(key, self.fields)}"
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
        self.annotation = Union[Text, obj.annotation]  # noqa: UP007
        self.expected = (
            "a URL as text, or a dict such as {'url': '/cover.png', ...} with"
            f" the keys {', '.join(map(repr, obj.fields))}"
        )

    def check(self, value: object, path: str) -> Image:
        if type(value) is dict or isinstance(value, Mapping):
            # The keys that are set; the others keep the class's None.
            return frozen(Image, self.obj.check(value, path))
        if _is_text(value):
            return Image(clean_url(str(value)))
        raise self.wrong(value, path)


ROBOTS = ObjectField(Robots, {"index": BoolField(), "follow": BoolField()})
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


def _hint(name: object, choices: Mapping[str, object] | Sequence[str]) -> str:
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


def check_json_ld(value: object) -> tuple[Any, ...]:
    """Return the blocks of ``json_ld=`` as a tuple.

    Only the shape is checked here (a dict, or a list of dicts). Whether JSON
    can write a block exactly is decided when the head is written, where
    development raises and production leaves the block out.
    """
    if type(value) is dict:
        return (value,)
    blocks = list(value) if isinstance(value, (list, tuple)) else [value]
    for i, block in enumerate(blocks):
        if type(block) is not dict and not isinstance(block, Mapping):
            where = f"json_ld[{i}]" if isinstance(value, (list, tuple)) else "json_ld"
            raise TypeError(
                f"{where} must be a JSON-LD block (a dict such as"
                f" {{'@context': 'https://schema.org', '@type': 'Article'}}) or a"
                f" list of blocks, not {_kind_of(block)}."
            )
    return tuple(blocks)


def _unknown_argument(name: str) -> TypeError:
    return TypeError(
        f"head() got an unknown argument {name!r}; it takes"
        f" {', '.join(ARGUMENTS)}.{_hint(name, ARGUMENTS)}"
    )


_TITLE = SCHEMA["title"]
_TEMPLATE = SCHEMA["title_template"]
_DESCRIPTION = SCHEMA["description"]
_CANONICAL = SCHEMA["canonical"]


def build_fragment(
    title: Any = None,
    title_template: Any = None,
    description: Any = None,
    canonical: Any = None,
    robots: Any = None,
    open_graph: Any = None,
    twitter: Any = None,
    json_ld: Any = None,
    unknown: Mapping[str, object] | None = None,
) -> HeadFragment:
    """Validate the arguments of one ``head()`` call, in its order.

    ``unknown`` holds the keyword arguments ``head()`` does not take. This
    runs for every ``head()`` call: a plain printable ``str`` is taken as it
    is, everything else goes through its field's ``check``.
    """
    # A str that is not printable holds what HTML cannot carry: check() cleans it.
    if title is not None and (type(title) is not str or not title.isprintable()):
        title = _TITLE.check(title, "title")
    if title_template is not None and (
        type(title_template) is not str
        or not title_template.isprintable()
        or "%s" not in title_template
    ):
        title_template = _TEMPLATE.check(title_template, "title_template")
    if description is not None and (
        type(description) is not str or not description.isprintable()
    ):
        description = _DESCRIPTION.check(description, "description")
    if canonical is not None and (
        type(canonical) is not str or not canonical.isprintable()
    ):
        canonical = _CANONICAL.check(canonical, "canonical")
    if robots is not None:
        robots = ROBOTS.check(robots, "robots")
    if open_graph is not None:
        open_graph = OPEN_GRAPH.check(open_graph, "open_graph")
    if twitter is not None:
        twitter = TWITTER.check(twitter, "twitter")
    blocks = () if json_ld is None else check_json_ld(json_ld)
    if unknown:
        raise _unknown_argument(next(iter(unknown)))
    return frozen(
        HeadFragment,
        {
            "title": title,
            "title_template": title_template,
            "description": description,
            "canonical": canonical,
            "robots": robots,
            "open_graph": open_graph,
            "twitter": twitter,
            "json_ld": blocks,
        },
    )


def make_fragment(fields: Mapping[str, object]) -> HeadFragment:
    """Validate the keyword arguments of one ``head()`` call, given as a mapping."""
    for name in fields:
        if name not in SCHEMA and name != "json_ld":
            raise _unknown_argument(name)
    get = fields.get
    return build_fragment(
        get("title"),
        get("title_template"),
        get("description"),
        get("canonical"),
        get("robots"),
        get("open_graph"),
        get("twitter"),
        get("json_ld"),
    )
