"""The head's fields, declared once: each one's check, merge and writing.

Every step reads this table: ``head()`` checks with it (:mod:`.fields`),
merge merges with it (:mod:`.merge`), resolve writes in its order
(:mod:`.resolve`), the HTML writer prepares its slots (:mod:`.html`), and
the memo's key is made from the merged values it produced (:mod:`.memo`),
so no field can be left out of any of them. Each row says what it is
(``role``, ``address``): the steps that act on a kind of field ask. The
TypedDicts of :mod:`.types` are the same fields for mypy
(``tests/head/test_table.py``). To add a field: ARCHITECTURE.md, "Adding a
head field".
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from . import page_tags as tags
from . import roles
from . import writers as write
from .elements import HREFLANG, Slot, meta
from .field_kinds import (
    BoolField,
    ChoiceField,
    DateField,
    Field,
    Image,
    JsonLdField,
    LimitField,
    Media,
    MomentField,
    ObjectField,
    RecordField,
    SizeField,
    TemplateField,
    TextField,
    TextListField,
    UrlField,
)
from .mistakes import unknown_argument, unknown_robots_key
from .og_image import IMAGE_KINDS
from .page_tag_kinds import LineField, LinesField
from .types import (
    Facebook,
    HeadFields,
    JsonLd,
    OpenGraph,
    OpenGraphArticle,
    OpenGraphAudio,
    OpenGraphBook,
    OpenGraphImage,
    OpenGraphProduct,
    OpenGraphProfile,
    OpenGraphVideo,
    Robots,
    Twitter,
    TwitterImage,
    Verification,
)
from .write_order import WriteFn, grouped
from .writers import (
    Canonical,
    Directive,
    Href,
    Locale,
    Names,
    NestedTable,
    Parts,
    Records,
    Tags,
    Text,
    TextList,
    Title,
    Writer,
    WrittenByAnother,
)

#: How a key merges over an earlier fragment's value.
REPLACE = "replace"  # the later value wins whole (text, an image, a list)
BY_KEY = "keys"  # a nested table, merged key by key (the later key wins)
APPEND = "append"  # a tuple, the later one's items after (json_ld)


@dataclass(frozen=True, eq=False)
class Row:
    """One row of a table: a field, how its value is checked, merged and written.

    ``check`` is a :class:`~.field_kinds.Field` (a :class:`Table`'s ``check`` for
    a nested table); ``write`` a :class:`~.writers.Writer`, a robots key's
    :class:`~.writers.Directive`, or None when another key's writer reads it.
    """

    check: Field
    write: Writer | Directive | None = None
    merge: str = REPLACE
    #: The nested table, for a key whose value is one (merged key by key).
    table: Table | None = None
    #: The page's own address (canonical, og:url): none on an error page.
    address: bool = False
    rare: bool = False  #: rarely set: written in a group (write_order.grouped)
    #: What the field is (roles.py), for the steps that ask Table.named.
    role: str = ""


def nested(table: Table, write: Writer | None = None, **kw: Any) -> Row:
    """A key holding a nested table: checked and merged key by key."""
    return Row(table.check, write, BY_KEY, table, **kw)


class Table:
    """A dict of keys (``open_graph``'s, or ``head()``'s arguments).

    ``typed`` is the TypedDict with the same keys (in ``check``'s
    annotation), ``record`` for a table read as an image or a media: the
    named tuple its values become.
    """

    def __init__(
        self,
        typed: Any,
        keys: dict[str, Row],
        required: tuple[str, ...] = (),
        unknown: Any = None,
    ) -> None:
        self.keys = keys
        self.check = ObjectField(
            typed, {name: key.check for name, key in keys.items()}, required, unknown
        )
        #: (name, the writer's bound __call__, always) in output order, for
        #: writers.write_keys (a bound method: no look-up of __call__), the
        #: rare keys' runs grouped.
        self.writers: tuple[tuple[str, WriteFn, bool], ...] = grouped(
            [
                (name, key.write.__call__, key.write.always, key.rare)
                for name, key in keys.items()
                if isinstance(key.write, Writer)
            ]
        )
        #: The keys that merge key by key, with their tables.
        self.keyed: dict[str, Table] = {
            name: key.table
            for name, key in keys.items()
            if key.merge == BY_KEY and key.table is not None
        }
        #: The keys that merge key by key without a table (``other``'s
        #: names: any name, one level).
        self.flat = frozenset(
            name
            for name, key in keys.items()
            if key.merge == BY_KEY and key.table is None
        )
        #: The keys whose tuples add up.
        self.appended = frozenset(
            name for name, key in keys.items() if key.merge == APPEND
        )
        slots: list[Slot] = []
        for key in keys.values():
            if isinstance(key.write, Writer):
                slots.extend(s for s in key.write.slots if s not in slots)
        #: Every slot this table's writers may write.
        self.slots: tuple[Slot, ...] = tuple(slots)

    def named(self, role: str) -> str:
        """The name of the key that is ``role`` (:mod:`.roles`), "" if none is."""
        return next((n for n, row in self.keys.items() if row.role == role), "")


def _plain(typed: Any, keys: dict[str, Field], required: tuple[str, ...] = ()) -> Table:
    """A table whose keys are written by their owner (an image's, robots')."""
    return Table(typed, {name: Row(check) for name, check in keys.items()}, required)


def _unknown_robots_key(path: str, key: object) -> TypeError:
    return unknown_robots_key(path, key, ROBOTS.keys)


ROBOTS = Table(
    Robots,
    {
        "index": Row(BoolField()),
        "follow": Row(BoolField()),
        "max_image_preview": Row(
            ChoiceField("none", "standard", "large"), Directive("max-image-preview:{}")
        ),
        "max_snippet": Row(LimitField(), Directive("max-snippet:{}")),
        "max_video_preview": Row(LimitField(), Directive("max-video-preview:{}")),
        "nosnippet": Row(BoolField(), Directive("nosnippet")),
        "noimageindex": Row(BoolField(), Directive("noimageindex")),
        "unavailable_after": Row(MomentField(), Directive("unavailable_after: {}")),
    },
    unknown=_unknown_robots_key,
)

# An image's, a video's and an audio's keys, in the order of their record
# (field_kinds.Image, field_kinds.Media) and of their tags: url first.
OPEN_GRAPH_IMAGE = _plain(
    OpenGraphImage,
    {
        "url": UrlField(),
        "width": SizeField(),
        "height": SizeField(),
        "alt": TextField(),
    },
    required=("url",),
)
TWITTER_IMAGE = _plain(
    TwitterImage, {"url": UrlField(), "alt": TextField()}, required=("url",)
)
OPEN_GRAPH_VIDEO = _plain(
    OpenGraphVideo,
    {
        "url": UrlField(),
        "secure_url": UrlField(),
        "type": TextField(),
        "width": SizeField(),
        "height": SizeField(),
    },
    required=("url",),
)
OPEN_GRAPH_AUDIO = _plain(
    OpenGraphAudio,
    {"url": UrlField(), "secure_url": UrlField(), "type": TextField()},
    required=("url",),
)

ARTICLE = Table(
    OpenGraphArticle,
    {
        "published_time": Row(DateField(), Text("article:published_time")),
        "modified_time": Row(DateField(), Text("article:modified_time")),
        "authors": Row(TextListField(), TextList("article:author")),
        "tags": Row(TextListField(), TextList("article:tag")),
    },
)
BOOK = Table(
    OpenGraphBook,
    {
        "authors": Row(TextListField(), TextList("book:author")),
        "isbn": Row(TextField(), Text("book:isbn")),
        "release_date": Row(DateField(), Text("book:release_date")),
        "tags": Row(TextListField(), TextList("book:tag")),
    },
)
PROFILE = Table(
    OpenGraphProfile,
    {
        "first_name": Row(TextField(), Text("profile:first_name")),
        "last_name": Row(TextField(), Text("profile:last_name")),
        "username": Row(TextField(), Text("profile:username")),
        "gender": Row(ChoiceField("male", "female"), Text("profile:gender")),
    },
)

PRODUCT = Table(
    OpenGraphProduct,
    {
        "price": Row(tags.PRICE_CHECK, Parts("product:price", tags.PRICE_PARTS)),
        "availability": Row(tags.PRODUCT_AVAILABILITY, Text("product:availability")),
        "condition": Row(tags.PRODUCT_CONDITION, Text("product:condition")),
        "brand": Row(LineField(), Text("product:brand")),
        "retailer_item_id": Row(LineField(), Text("product:retailer_item_id")),
    },
)
VERIFICATION = Table(
    Verification,
    {
        name: Row(LinesField(), TextList(meta_name, "name"))
        for name, meta_name in tags.VERIFICATION_NAMES.items()
    },
)
FACEBOOK = Table(Facebook, {"app_id": Row(LineField(), Text("fb:app_id"))})


def _records(
    table: Table, record: type[tuple[Any, ...]], name: str, field: str, **kw: Any
) -> tuple[RecordField, Records]:
    """An image-like key's check and writer, both from its table."""
    many = kw.pop("many", True)
    also = kw.pop("also", ())
    keys = kw.pop("keys", tuple(table.keys)[1:])
    check = RecordField(table.check, record, many=many, also=also)
    return check, Records(name, field, keys, record._fields, **kw)  # type: ignore[attr-defined]


_OG_IMAGE = _records(
    OPEN_GRAPH_IMAGE,
    Image,
    "og:image",
    "open_graph.image",
    also=IMAGE_KINDS,
    # type: a generated image's only (not a key of the dict).
    keys=("width", "height", "type", "alt"),
)
_OG_VIDEO = _records(
    OPEN_GRAPH_VIDEO, Media, "og:video", "open_graph.video", urls=("secure_url",)
)
_OG_AUDIO = _records(
    OPEN_GRAPH_AUDIO, Media, "og:audio", "open_graph.audio", urls=("secure_url",)
)
_TWITTER_IMAGE = _records(
    TWITTER_IMAGE,
    Image,
    "twitter:image",
    "twitter.image",
    many=False,
    kind="name",
    also=IMAGE_KINDS,
)

OPEN_GRAPH = Table(
    OpenGraph,
    {
        "title": Row(TextField(), Text("og:title"), role=roles.TITLE),
        "description": Row(
            TextField(),
            Text("og:description"),
            role=roles.DESCRIPTION,
        ),
        "type": Row(
            ChoiceField("website", "article", "book", "profile", "product"),
            Text("og:type"),
        ),
        "url": Row(
            UrlField(), Href(meta("property", "og:url", "open_graph.url")), address=True
        ),
        "site_name": Row(TextField(), Text("og:site_name"), role=roles.SITE_NAME),
        "locale": Row(TextField(), Locale(), role=roles.LOCALE),
        "image": Row(*_OG_IMAGE, role=roles.IMAGE),
        "video": Row(*_OG_VIDEO),
        "audio": Row(*_OG_AUDIO),
        "article": nested(ARTICLE, NestedTable(ARTICLE, "article")),
        "book": nested(BOOK, NestedTable(BOOK, "book"), rare=True),
        "profile": nested(PROFILE, NestedTable(PROFILE, "profile"), rare=True),
        "product": nested(PRODUCT, NestedTable(PRODUCT, "product"), rare=True),
    },
)
TWITTER = Table(
    Twitter,
    {
        "card": Row(
            ChoiceField("summary", "summary_large_image"),
            Text("twitter:card", "name"),
            role=roles.CARD_KIND,
        ),
        "site": Row(TextField(), Text("twitter:site", "name")),
        "creator": Row(TextField(), Text("twitter:creator", "name")),
        "title": Row(
            TextField(),
            Text("twitter:title", "name"),
            role=roles.TITLE,
        ),
        "description": Row(
            TextField(),
            Text("twitter:description", "name"),
            role=roles.DESCRIPTION,
        ),
        "image": Row(*_TWITTER_IMAGE, role=roles.IMAGE),
    },
)


def _unknown_argument(path: str, name: object) -> TypeError:
    tables = {"open_graph": OPEN_GRAPH.keys, "twitter": TWITTER.keys}
    return unknown_argument(name, HEAD.keys, tables)


#: ``head()``'s arguments, in output order.
HEAD = Table(
    HeadFields,
    {
        "title": Row(TextField(), Title("title_template"), role=roles.TITLE),
        "title_template": Row(TemplateField(), WrittenByAnother()),
        "description": Row(
            TextField(), Text("description", "name"), role=roles.DESCRIPTION
        ),
        "canonical": Row(UrlField(), Canonical(), address=True),
        "robots": nested(ROBOTS, write.Robots(ROBOTS)),
        "icons": Row(tags.ICONS_CHECK, Tags(*tags.ICONS_WRITE), rare=True),
        "theme_color": Row(
            tags.THEME_COLOR_CHECK, Tags(*tags.THEME_COLOR_WRITE, url=False), rare=True
        ),
        "manifest": Row(UrlField(), Href(tags.MANIFEST), rare=True),
        "feeds": Row(tags.FEEDS_CHECK, Tags(*tags.FEEDS_WRITE), rare=True),
        "verification": nested(VERIFICATION, NestedTable(VERIFICATION), rare=True),
        "other": Row(tags.OTHER_CHECK, Names(), BY_KEY, rare=True),
        "facebook": nested(FACEBOOK, NestedTable(FACEBOOK), rare=True),
        "open_graph": nested(OPEN_GRAPH, NestedTable(OPEN_GRAPH), role=roles.CARD),
        "twitter": nested(TWITTER, NestedTable(TWITTER), role=roles.CARD),
        "json_ld": Row(JsonLdField(JsonLd), write.JsonLd(), APPEND, role=roles.JSON_LD),
    },
    unknown=_unknown_argument,
)


# other= refuses the names the head writes itself.
tags.OTHER_CHECK.taken = tags.taken_names(HEAD.keys)

#: Every slot the head may write, for the HTML writer.
ALL_SLOTS: tuple[Slot, ...] = tuple(dict.fromkeys((*HEAD.slots, HREFLANG)))
