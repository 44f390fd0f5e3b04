"""SitemapEntry, and a provider's item normalised into one, once, here.

A provider yields :class:`SitemapEntry` objects or their dict form
(``{"params": ..., "last_modified": ..., "locales": ..., "images": ...}``).
Every check of an entry's own shape happens here, when the entry is made or
its dict is read; what the route makes of it (its addresses) is
:mod:`.addresses`' business, and how it is written :mod:`.xml`'s.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from datetime import date, datetime, timezone
from typing import Any

from werkzeug.routing import Rule

from ..i18n.urls import LOCALE_ARG, is_localized_rule
from .rule_parts import rule_parts


def _texts(value: object, name: str, example: str) -> tuple[str, ...] | None:
    """``value`` (None, or an iterable of str) as a tuple; TypeError otherwise."""
    if value is None:
        return None
    if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
        raise TypeError(
            f"SitemapEntry({name}={shown(value)}): {name} must be a list of"
            f" strings, such as {name}={example}, or None."
        )
    texts = tuple(value)
    for text in texts:
        if not isinstance(text, str):
            raise TypeError(
                f"SitemapEntry({name}=...) holds {shown(text)}; each item must be"
                f" a string, such as {name}={example}."
            )
    return texts


def shown(value: object) -> str:
    """``repr(value)``, cut to a length a message can quote."""
    if isinstance(value, str) and len(value) > 60:
        return repr(value[:57]) + "..."
    if isinstance(value, int) and value.bit_length() > 200:
        return f"an int of {value.bit_length()} bits"
    text = repr(value) if not isinstance(value, (list, tuple)) else type(value).__name__
    return text if len(text) <= 60 else text[:57] + "..."


class SitemapEntry:
    """One page of a route in the sitemap; its values are read-only.

    :param params: the values of the route's parameters (``{"note_id": 3}``);
        empty for a route without parameters.
    :param last_modified: when the page last changed, written as
        ``<lastmod>YYYY-MM-DD</lastmod>`` (an aware datetime in UTC).
    :param locales: for a localized route, the locales this page exists in
        (tags of APP_LOCALES, among those of the route's ``locales=``: the
        page answers 404 in any other); None for the route's own option,
        which is every locale unless the route says otherwise.
    :param images: URLs of the page's images, written as Google's image
        sitemap extension (``<image:image><image:loc>``); a path is made
        absolute against APP_URL's origin, as the head's URLs are.
    """

    # A provider makes one entry per page, so making one and reading it are
    # on the hot path of every build (benchmarks/README.md has the figures).
    # The values are private slots, stored directly (a frozen dataclass's
    # stores go through a descriptor call each), and read through
    # properties, which have no setter; the build reads the slots. No
    # __dict__. locales and images, which most entries leave out, are
    # stored only when given, as one pair; such an entry becomes the
    # subclass _Given (the same slots), so the build's fast path, which
    # takes exactly SitemapEntry, never asks an entry whether it has them.
    __slots__ = ("_params", "_last_modified", "_given")

    # locales and images are checked here, so a mistake raises where the
    # provider made the entry.
    def __init__(
        self,
        params: Mapping[str, Any] | None = None,
        last_modified: date | None = None,
        locales: Iterable[str] | None = None,
        images: Iterable[str] | None = None,
    ) -> None:
        self._params = {} if params is None else params
        self._last_modified = last_modified
        if locales is not None or images is not None:
            self._given = (_texts(locales, *_LOCALES), _texts(images, *_IMAGES))
            if type(self) is SitemapEntry:
                self.__class__ = _Given

    @property
    def params(self) -> Mapping[str, Any]:
        """The values of the route's parameters."""
        return self._params

    @property
    def last_modified(self) -> date | None:
        """When the page last changed, or None."""
        return self._last_modified

    @property
    def locales(self) -> tuple[str, ...] | None:
        """The locales given (a tuple), or None."""
        return self._more()[0]

    @property
    def images(self) -> tuple[str, ...] | None:
        """The image URLs given (a tuple), or None."""
        return self._more()[1]

    def _more(self) -> tuple[tuple[str, ...] | None, tuple[str, ...] | None]:
        # The slot is set only when they were given.
        return getattr(self, "_given", _NONE)

    def _values(self) -> tuple[object, ...]:
        return (self._params, self._last_modified, *self._more())

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, SitemapEntry):
            return NotImplemented
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        params, last_modified, locales, images = self._values()
        return (
            f"SitemapEntry(params={params!r}, last_modified={last_modified!r},"
            f" locales={locales!r}, images={images!r})"
        )


class _Given(SitemapEntry):
    """A SitemapEntry given locales or images (see its slots)."""

    __slots__ = ()


_NONE = (None, None)
_LOCALES = ("locales", "['en', 'de-AT']")
_IMAGES = ("images", "['/covers/1.png']")


def utc(moment: datetime) -> datetime:
    """``moment`` as an aware datetime in UTC (a naive one is taken as UTC)."""
    if moment.tzinfo is None or moment.utcoffset() is None:
        return moment.replace(tzinfo=timezone.utc)
    return moment.astimezone(timezone.utc)


def _moment(when: date) -> datetime:
    if isinstance(when, datetime):
        return utc(when)
    return datetime(when.year, when.month, when.day, tzinfo=timezone.utc)


def single_entry(
    items: Iterable[object], where: str, refuse: Callable[[str], object] | None = None
) -> SitemapEntry:
    """A route without parameters is one page: of its provider's entries,
    the latest ``last_modified`` counts (its day is the sitemap's, the
    moment itself what changed since), the locales and images add up. An
    entry with params is left out (and said with ``refuse``)."""
    latest: date | None = None
    locales: list[str] | None = None
    images: list[str] = []
    for item in items:
        entry = normalize(item, where)
        if entry.params:
            if refuse is not None:
                refuse("a parameter is unknown: the route has none")
            continue
        when = entry.last_modified
        lastmod(when, where)  # a wrong type raises, naming the route
        if when is not None and (latest is None or _moment(when) > _moment(latest)):
            latest = when
        if entry.locales is not None:
            locales = [*(locales or ()), *entry.locales]
        images += entry.images or ()
    return SitemapEntry({}, latest, locales, images or None)


def lastmod(value: object, where: str = "an entry") -> str | None:
    """``YYYY-MM-DD`` from a date or datetime (an aware one in UTC), or None.

    ``where`` names the route for the error a wrong type raises.
    """
    if value is None:
        return None
    if isinstance(value, datetime):
        return utc(value).date().isoformat()
    if isinstance(value, date):
        return value.isoformat()
    raise TypeError(
        f"The sitemap provider of {where} gave last_modified={shown(value)}, but"
        " last_modified must be a date or a datetime. Convert it, for example"
        " with datetime.fromisoformat()."
    )


_ENTRY_KEYS = ("params", "last_modified", "locales", "images")
_ENTRY_SPELLINGS = {
    "lastModified": "last_modified",
    "lastmod": "last_modified",
    "locale": "locales",
    "languages": "locales",
    "image": "images",
}


def normalize(item: object, where: str) -> SitemapEntry:
    """A provider's item as a :class:`SitemapEntry` (a dict form is accepted)."""
    if isinstance(item, SitemapEntry):
        return item
    if isinstance(item, Mapping):
        for key in item:
            if key not in _ENTRY_KEYS:
                hint = _ENTRY_SPELLINGS.get(str(key))
                extra = f" Did you mean {hint!r}?" if hint else ""
                raise TypeError(
                    f"The sitemap provider of {where} gave an entry with the key"
                    f" {key!r}; an entry has 'params', 'last_modified', 'locales'"
                    f" and 'images'.{extra}"
                )
        params = item.get("params", {})
        if not isinstance(params, Mapping):
            raise TypeError(
                f"The sitemap provider of {where} gave params={shown(params)};"
                " params must be a dict of the route's parameters."
            )
        try:
            return SitemapEntry(**item)
        except TypeError as error:
            raise TypeError(f"The sitemap provider of {where} gave {error}") from None
    raise TypeError(
        f"The sitemap provider of {where} gave {shown(item)}; expected a"
        " SitemapEntry or a dict {'params': ..., 'last_modified': ...}."
    )


def route_arguments(rule: Rule) -> frozenset[str]:
    """The parameters a provider's entries must fill (a localized route's
    locale is the app's business)."""
    names = frozenset(rule_parts(rule).converters)
    if is_localized_rule(rule):
        names -= {LOCALE_ARG}
    return names
