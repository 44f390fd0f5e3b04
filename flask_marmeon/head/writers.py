"""How a field is written: one small class per kind of writing.

A field's declaration (:mod:`flask_marmeon.head.table`) names its writer;
resolve (:mod:`flask_marmeon.head.resolve`) calls the writers of a table in
its order, each with the :class:`~flask_marmeon.head.builder.Builder` that
collects the elements, the field's merged value and the mapping it is in
(its siblings: an og:type decides whether ``article`` is written).

A writer is called when its value is set, or always when ``always`` is true
(it writes from the page too: the hreflang links). ``slots`` lists every
:class:`~.elements.Slot` it may write, so that the HTML writer prepares each
one's constant text once.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, Protocol, TypeAlias

from ..locale_tags import X_DEFAULT
from . import roles
from .elements import (
    CANONICAL,
    CANONICAL_PAGE,
    HREFLANG,
    JSON_LD,
    ROBOTS,
    TITLE,
    PageAddress,
    Slot,
    meta,
)
from .robots import robots_content
from .text import clean_text, clean_url

if TYPE_CHECKING:
    from .builder import Builder

#: A writer's __call__: (builder, value, siblings) -> None.
WriteFn: TypeAlias = Callable[[Any, Any, Mapping[str, Any]], None]


def write_keys(
    out: Any,
    writers: tuple[tuple[str, WriteFn, bool], ...],
    values: Mapping[str, Any],
) -> None:
    """Each writer of a table, in the table's order, with its key's value."""
    for name, writer, always in writers:
        value = values.get(name)
        if value is not None or always:
            writer(out, value, values)


def grouped(
    entries: list[tuple[str, WriteFn, bool, bool]],
) -> tuple[tuple[str, WriteFn, bool], ...]:
    """``(name, write, always, rare)`` in output order -> write_keys' entries,
    each run of rare keys (the page tags, which most pages never set) one
    entry: a page without any of them pays one look, not one per key."""
    out: list[tuple[str, WriteFn, bool]] = []
    run: list[tuple[str, WriteFn, bool]] = []
    for name, write, always, rare in [*entries, ("", _some(()), False, False)]:
        if rare and not always:
            run.append((name, write, always))
            continue
        out += [("", _some(tuple(run)), True)] if len(run) > 1 else run
        run = []
        if name:
            out.append((name, write, always))
    return tuple(out)


def _some(run: tuple[tuple[str, WriteFn, bool], ...]) -> WriteFn:
    names = frozenset(name for name, _, _ in run)

    def some(out: Any, value: Any, values: Mapping[str, Any]) -> None:
        if not names.isdisjoint(values):
            write_keys(out, run, values)

    return some


class Writer:
    """Writes one field's elements (see the module's text)."""

    #: Called when the value is None too (it writes from the page as well).
    always = False
    slots: tuple[Slot, ...] = ()

    def __call__(self, out: Builder, value: Any, siblings: Mapping[str, Any]) -> None:
        raise NotImplementedError


class Text(Writer):
    """One ``<meta>`` holding the text."""

    def __init__(self, name: str, kind: str = "property") -> None:
        self.slot = meta(kind, name)
        self.slots = (self.slot,)

    def __call__(self, out: Builder, value: Any, siblings: Mapping[str, Any]) -> None:
        out.elements.append((self.slot, value, None))


class TextList(Text):
    """One ``<meta>`` per item of a list (``article:tag``)."""

    def __call__(self, out: Builder, value: Any, siblings: Mapping[str, Any]) -> None:
        slot = self.slot
        out.elements.extend([(slot, item, None) for item in value])


class Records(Writer):
    """Images, videos, audios: a record (or a tuple of them) per group.

    ``name`` is the URL's tag (``og:image``); ``keys`` the other keys in
    output order, each written as ``name:key`` (``og:image:width``). A
    key in ``urls`` holds a URL too (``secure_url``): it goes through the
    policy, and the whole group goes when either is left out.
    """

    def __init__(
        self,
        name: str,
        field: str,
        keys: tuple[str, ...],
        record: tuple[str, ...],
        kind: str = "property",
        urls: tuple[str, ...] = (),
    ) -> None:
        self.slot = meta(kind, name, field)
        #: (index in the record, slot, holds a URL) of each other key, the
        #: record's fields being ``record``.
        self.follow = tuple(
            (
                record.index(key),
                meta(kind, f"{name}:{key}", f"{field}.{key}" if key in urls else None),
                key in urls,
            )
            for key in keys
        )
        self.urls = tuple(i for i, _, is_url in self.follow if is_url)
        self.slots = (self.slot, *(slot for _, slot, _ in self.follow))

    def __call__(self, out: Builder, value: Any, siblings: Mapping[str, Any]) -> None:
        # A tuple of records is a plain tuple; one record is a named tuple.
        for record in value if type(value) is tuple else (value,):
            if not isinstance(record, tuple):
                continue  # a generated image not named (with_generated_images)
            if self.urls and any(record[i] is not None for i in self.urls):
                out.group(
                    [(self.slot, record[0], True)]
                    + [
                        (slot, str(record[i]), is_url)
                        for i, slot, is_url in self.follow
                        if record[i] is not None
                    ]
                )
                continue
            out.url(self.slot, record[0])
            for i, slot, _ in self.follow:
                item = record[i]
                if item is not None:
                    out.follow(slot, item if type(item) is str else str(item))


class Nested(Protocol):
    """What :class:`NestedTable` reads of its table (a ``table.Table``;
    a protocol, as the table module imports this one)."""

    @property
    def slots(self) -> tuple[Slot, ...]: ...

    @property
    def writers(self) -> tuple[tuple[str, WriteFn, bool], ...]: ...


class NestedTable(Writer):
    """A nested table (``open_graph``, ``twitter``); with ``when``, a
    ``(key, value)`` the table declares, written only when its sibling
    ``key`` holds ``value`` (og's ``article`` when its type is one)."""

    def __init__(self, table: Nested, when: tuple[str, str] | None = None) -> None:
        self.table = table
        self.when = when
        self.slots = table.slots

    def __call__(self, out: Builder, value: Any, siblings: Mapping[str, Any]) -> None:
        when = self.when
        if when is None or siblings.get(when[0]) == when[1]:
            write_keys(out, self.table.writers, value)


class Title(Writer):
    """``<title>``, through the title template (the sibling key
    ``template``'s value) when one is set."""

    slots = (TITLE,)

    def __init__(self, template: str) -> None:
        self.template = template

    def __call__(self, out: Builder, value: Any, siblings: Mapping[str, Any]) -> None:
        template = siblings.get(self.template)
        if template is not None:
            value = template.replace("%s", value)
        out.elements.append((TITLE, value, None))


class Canonical(Writer):
    """The canonical link (the page's own address, a :class:`PageAddress`,
    when the ``resolve`` stage gave it: own_addresses.page_canonical), then
    the page's hreflang links."""

    always = True
    slots = (CANONICAL, CANONICAL_PAGE, HREFLANG)

    def __call__(self, out: Builder, value: Any, siblings: Mapping[str, Any]) -> None:
        if type(value) is PageAddress:
            out.url(CANONICAL_PAGE, str(value))
        elif value is not None:
            out.url(CANONICAL, value)
        own = out.own
        if own is not None:
            for hreflang, path in own.hreflang_paths:
                out.url(HREFLANG, clean_url(path), clean_text(hreflang))


class RobotsKeys(Protocol):
    """What :class:`Robots` reads of the robots table (a ``table.Table``)."""

    @property
    def keys(self) -> Mapping[str, Any]: ...

    def named(self, role: str) -> str: ...


class Robots(Writer):
    """``<meta name="robots">``: index/follow, then the table's directives
    (each key's ``write`` is its form there, ``max-snippet:{}``: not a
    writer of its own); ``noindex, nofollow`` on a site that may not be
    indexed."""

    always = True
    slots = (ROBOTS,)

    def __init__(self, table: RobotsKeys) -> None:
        self.directives = tuple(
            (name, key.write)
            for name, key in table.keys.items()
            if isinstance(key.write, str)
        )
        self.index_follow = (table.named(roles.INDEX), table.named(roles.FOLLOW))

    def __call__(self, out: Builder, value: Any, siblings: Mapping[str, Any]) -> None:
        content = robots_content(
            value, self.directives, self.index_follow, indexable=out.indexable
        )
        if content is not None:
            out.elements.append((ROBOTS, content, None))


class Locale(Writer):
    """og:locale (the page's by default: defaults.og_locale_default) and
    og:locale:alternate for each of the page's other languages."""

    always = True
    slot = meta("property", "og:locale")
    alternate = meta("property", "og:locale:alternate")
    slots = (slot, alternate)

    def __call__(self, out: Builder, value: Any, siblings: Mapping[str, Any]) -> None:
        elements = out.elements
        if value is not None:
            elements.append((self.slot, value, None))
        localized = out.localized
        if localized is not None:
            og_locales = out.og_locales
            for hreflang, _ in localized.hreflang_paths:
                if hreflang != X_DEFAULT and hreflang != localized.locale:
                    elements.append((self.alternate, og_locales(hreflang), None))


class JsonLd(Writer):
    """The JSON-LD blocks' texts (written at the ``merged`` stage, put in
    place of the blocks at ``resolve``: json_ld_blocks.py)."""

    slots = (JSON_LD,)

    def __call__(self, out: Builder, value: Any, siblings: Mapping[str, Any]) -> None:
        out.elements.extend([(JSON_LD, text, None) for text in value])


class Href(Writer):
    """One element holding a URL (``<link rel="manifest">``, ``og:url``'s
    ``<meta>``), decided by the app's policy."""

    def __init__(self, slot: Slot) -> None:
        self.slot = slot
        self.slots = (slot,)

    def __call__(self, out: Builder, value: Any, siblings: Mapping[str, Any]) -> None:
        out.url(self.slot, value)


class Tags(Writer):
    """One element per record (an icon, a feed, a theme color), in order.

    The record's first value is the element's value (a URL when ``url``);
    its field ``choose`` picks the slot in ``slots`` (an icon's ``rel``,
    None for the first slot); the fields ``extras`` are the slot's
    optional attributes (:attr:`~.elements.Slot.extras`).
    """

    def __init__(
        self,
        slots: Mapping[str, Slot],
        choose: int | None,
        extras: tuple[int, ...],
        url: bool = True,
    ) -> None:
        self.by_choice = dict(slots)
        self.first = next(iter(slots.values()))
        self.choose = choose
        self.extras = extras
        self.is_url = url
        self.slots = tuple(slots.values())

    def __call__(self, out: Builder, value: Any, siblings: Mapping[str, Any]) -> None:
        choose = self.choose
        for record in value:
            slot = self.first
            if choose is not None and record[choose] is not None:
                slot = self.by_choice[record[choose]]
            extra = tuple([record[i] for i in self.extras])
            if not any(item is not None for item in extra):
                extra = None  # type: ignore[assignment]
            if self.is_url:
                out.url(slot, record[0], extra)
            else:
                out.elements.append((slot, record[0], extra))


#: ``<meta name="..." content="...">`` of any name (``other``).
NAMED = Slot("meta", (), "content", extra_attr="name")


class Names(Writer):
    """``other``: one ``<meta name content>`` per text of each name."""

    slots = (NAMED,)

    def __call__(self, out: Builder, value: Any, siblings: Mapping[str, Any]) -> None:
        elements = out.elements
        for name, texts in value.items():
            elements.extend([(NAMED, text, name) for text in texts])


class Parts(Writer):
    """A record's fields, each its own ``<meta property="name:field">``
    (a price's ``product:price:amount`` and ``:currency``)."""

    def __init__(self, name: str, fields: tuple[str, ...]) -> None:
        self.parts = tuple(meta("property", f"{name}:{field}") for field in fields)
        self.slots = self.parts

    def __call__(self, out: Builder, value: Any, siblings: Mapping[str, Any]) -> None:
        out.elements.extend(
            [(slot, item, None) for slot, item in zip(self.parts, value, strict=True)]
        )
