"""The head's fields, declared once: each one's check, merge and writing.

Every step reads this table (check, merge, resolve, the HTML writer, the
memo's key), so no field can be left out of any of them. Each row says
what it is (``role``, ``address``): the steps that act on a kind of field
ask. The TypedDicts of :mod:`.types` are the same fields for mypy
(``tests/head/test_table.py``). To add a field: ARCHITECTURE.md.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import partial
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
from .writers import (
    Canonical,
    Href,
    Locale,
    Names,
    NestedTable,
    Parts,
    Records,
    Text,
    TextList,
    Title,
    WriteFn,
    Writer,
    grouped,
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
    form in its meta (``"max-snippet:{}"``, :class:`~.writers.Robots`), or
    None when another key's writer reads it.
    """

    check: Field
    write: Writer | str | None = None
    merge: str = REPLACE
    #: The nested table, for a key whose value is one (merged key by key).
    table: Table | None = None
    #: The page's own address (canonical, og:url): none on an error page.
    address: bool = False
    rare: bool = False  #: rarely set: written in a group (write_order.grouped)
    #: What the field is (roles.py), for the steps that ask Table.named.
    role: str = ""


def nested(
    table: Table,
    write: Writer | None = None,
    when: tuple[str, str] | None = None,
    **kw: Any,
) -> Row:
    """A key holding a nested table: checked and merged key by key, and
    written (:class:`~.writers.NestedTable`) when its sibling ``when[0]``
    holds ``when[1]``, or always without ``when``."""
    return Row(table.check, write or NestedTable(table, when), BY_KEY, table, **kw)


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


def _plain(typed: Any, keys: Mapping[str, Field]) -> Table:
    """A table of a record (an image's), whose keys its owner writes."""
    return Table(typed, {name: Row(check) for name, check in keys.items()}, ("url",))


ROBOTS = Table(
    Robots,
    {
        "index": Row(BoolField(), role=roles.INDEX),
        "follow": Row(BoolField(), role=roles.FOLLOW),
        "max_image_preview": Row(
            ChoiceField("none", "standard", "large"), "max-image-preview:{}"
        ),
        "max_snippet": Row(LimitField(), "max-snippet:{}"),
        "max_video_preview": Row(LimitField(), "max-video-preview:{}"),
        "nosnippet": Row(BoolField(), "nosnippet"),
        "noimageindex": Row(BoolField(), "noimageindex"),
        "unavailable_after": Row(MomentField(), "unavailable_after: {}"),
    },
    unknown=unknown_robots_key,
)

# An image's, a video's and an audio's keys, in the order of their record
# (field_kinds.Image, field_kinds.Media) and of their tags: url first.
_SIZE = {"width": SizeField(), "height": SizeField()}
OPEN_GRAPH_IMAGE = _plain(
    OpenGraphImage, {"url": UrlField(), **_SIZE, "alt": TextField()}
)
TWITTER_IMAGE = _plain(TwitterImage, {"url": UrlField(), "alt": TextField()})
_AUDIO = {"url": UrlField(), "secure_url": UrlField(), "type": TextField()}
OPEN_GRAPH_VIDEO = _plain(OpenGraphVideo, {**_AUDIO, **_SIZE})
OPEN_GRAPH_AUDIO = _plain(OpenGraphAudio, _AUDIO)

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
    table: Table,
    name: str,
    field: str,
    record: type[tuple[Any, ...]] = Media,
    *,
    many: bool = True,
    also: tuple[tuple[type, Any], ...] = (),
    keys: tuple[str, ...] | None = None,
    role: str = "",
    **write: Any,
) -> Row:
    """An image-like key: its check and writer, both from its table."""
    keys = tuple(table.keys)[1:] if keys is None else keys
    fields = record._fields  # type: ignore[attr-defined]
    return Row(
        RecordField(table.check, record, many=many, also=also),
        Records(name, field, keys, fields, **write),
        role=role,
    )


_URLS = ("secure_url",)

OPEN_GRAPH = Table(
    OpenGraph,
    {
        "title": Row(TextField(), Text("og:title"), role=roles.TITLE),
        "description": Row(TextField(), Text("og:description"), role=roles.DESCRIPTION),
        "type": Row(
            ChoiceField("website", "article", "book", "profile", "product"),
            Text("og:type"),
        ),
        "url": Row(
            UrlField(), Href(meta("property", "og:url", "open_graph.url")), address=True
        ),
        "site_name": Row(TextField(), Text("og:site_name"), role=roles.SITE_NAME),
        "locale": Row(TextField(), Locale(), role=roles.LOCALE),
        "image": _records(
            OPEN_GRAPH_IMAGE,
            "og:image",
            "open_graph.image",
            Image,
            also=IMAGE_KINDS,
            # type: a generated image's only (not a key of the dict).
            keys=("width", "height", "type", "alt"),
            role=roles.IMAGE,
        ),
        "video": _records(OPEN_GRAPH_VIDEO, "og:video", "open_graph.video", urls=_URLS),
        "audio": _records(OPEN_GRAPH_AUDIO, "og:audio", "open_graph.audio", urls=_URLS),
        # Each written only for its og type.
        "article": nested(ARTICLE, when=("type", "article")),
        "book": nested(BOOK, when=("type", "book"), rare=True),
        "profile": nested(PROFILE, when=("type", "profile"), rare=True),
        "product": nested(PRODUCT, when=("type", "product"), rare=True),
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
        "title": Row(TextField(), Text("twitter:title", "name"), role=roles.TITLE),
        "description": Row(
            TextField(), Text("twitter:description", "name"), role=roles.DESCRIPTION
        ),
        "image": _records(
            TWITTER_IMAGE,
            "twitter:image",
            "twitter.image",
            Image,
            many=False,
            also=IMAGE_KINDS,
            role=roles.IMAGE,
            kind="name",
        ),
    },
)


#: ``head()``'s arguments, in output order.
HEAD = Table(
    HeadFields,
    {
        "title": Row(TextField(), Title("title_template"), role=roles.TITLE),
        "title_template": Row(TemplateField()),  # written by the title's
        "description": Row(
            TextField(), Text("description", "name"), role=roles.DESCRIPTION
        ),
        "canonical": Row(UrlField(), Canonical(), address=True),
        "robots": nested(ROBOTS, write.Robots(ROBOTS)),
        "icons": Row(tags.ICONS_CHECK, tags.ICONS_WRITE, rare=True),
        "theme_color": Row(tags.THEME_COLOR_CHECK, tags.THEME_COLOR_WRITE, rare=True),
        "manifest": Row(UrlField(), tags.MANIFEST_WRITE, rare=True),
        "feeds": Row(tags.FEEDS_CHECK, tags.FEEDS_WRITE, rare=True),
        "verification": nested(VERIFICATION, rare=True),
        "other": Row(tags.OTHER_CHECK, Names(), BY_KEY, rare=True),
        "facebook": nested(FACEBOOK, rare=True),
        "open_graph": nested(OPEN_GRAPH, role=roles.CARD),
        "twitter": nested(TWITTER, role=roles.CARD),
        "json_ld": Row(JsonLdField(), write.JsonLd(), APPEND, role=roles.JSON_LD),
    },
    unknown=partial(
        unknown_argument,
        tables={"open_graph": OPEN_GRAPH.keys, "twitter": TWITTER.keys},
    ),
)


# other= refuses the names the head writes itself.
tags.OTHER_CHECK.taken = tags.taken_names(HEAD.keys)

#: Every slot the head may write, for the HTML writer.
ALL_SLOTS: tuple[Slot, ...] = tuple(dict.fromkeys((*HEAD.slots, HREFLANG)))
