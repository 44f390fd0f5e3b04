"""SitemapEntry, and a provider's item normalised into one, once, here.

A provider yields :class:`SitemapEntry` objects or their dict form
(``{"params": ..., "last_modified": ..., "locales": ..., "images": ...}``).
Every check of an entry's own shape happens here, when the entry is made or
its dict is read; what the route makes of it (its addresses) is
:mod:`.addresses`' business, and how it is written :mod:`.xml`'s.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import date, datetime, timezone
from typing import Any, ClassVar

from werkzeug.routing import Rule

from ..i18n.urls import LOCALE_ARG, is_localized_rule


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


@dataclass(frozen=True, init=False)
class SitemapEntry:
    """One page of a route in the sitemap.

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

    # A provider makes one entry per page, so the constructor is on the hot
    # path of every build. params and last_modified are slots, stored
    # directly (the generated constructor goes through the frozen class's
    # object.__setattr__ by name, a third more); locales and images, which
    # most entries leave out, are the class's None unless given, kept in the
    # instance's __dict__ then: each slot stored costs a build as much as a
    # few comparisons per entry.
    __slots__ = ("params", "last_modified", "__dict__")

    params: Mapping[str, Any]
    last_modified: date | None
    locales: tuple[str, ...] | None = None
    images: tuple[str, ...] | None = None
    #: Whether locales or images were given: the build's one test for the
    #: entries that need more than their params and date.
    given_more: ClassVar[bool] = False

    # locales and images are checked here, so a mistake raises where the
    # provider made the entry.
    def __init__(
        self,
        params: Mapping[str, Any] | None = None,
        last_modified: date | None = None,
        locales: Iterable[str] | None = None,
        images: Iterable[str] | None = None,
    ) -> None:
        _set_params(self, {} if params is None else params)
        _set_last_modified(self, last_modified)
        if locales is not None or images is not None:
            more = self.__dict__
            more["locales"] = _texts(locales, *_LOCALES)
            more["images"] = _texts(images, *_IMAGES)
            more["given_more"] = True


_LOCALES = ("locales", "['en', 'de-AT']")
_IMAGES = ("images", "['/covers/1.png']")
_slot = SitemapEntry.__dict__
_set_params: Callable[[SitemapEntry, object], None] = _slot["params"].__set__
_set_last_modified: Callable[[SitemapEntry, object], None] = _slot[
    "last_modified"
].__set__


def lastmod(value: object, where: str = "an entry") -> str | None:
    """``YYYY-MM-DD`` from a date or datetime (an aware one in UTC), or None.

    ``where`` names the route for the error a wrong type raises.
    """
    if value is None:
        return None
    if isinstance(value, datetime):
        if value.tzinfo is not None and value.utcoffset() is not None:
            value = value.astimezone(timezone.utc)
        return value.date().isoformat()
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
            return SitemapEntry(
                params,
                item.get("last_modified"),
                item.get("locales"),
                item.get("images"),
            )
        except TypeError as error:
            raise TypeError(f"The sitemap provider of {where} gave {error}") from None
    raise TypeError(
        f"The sitemap provider of {where} gave {shown(item)}; expected a"
        " SitemapEntry or a dict {'params': ..., 'last_modified': ...}."
    )


def route_arguments(rule: Rule) -> frozenset[str]:
    """The parameters a provider's entries must fill (a localized route's
    locale is the app's business)."""
    names = frozenset(rule._converters)
    if is_localized_rule(rule):
        names -= {LOCALE_ARG}
    return names
