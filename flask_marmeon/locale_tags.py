"""Locale tags: their one spelling in URLs, and the lookup that takes any case.

BCP 47 tags are case-insensitive (``de-AT`` and ``de-at`` name one locale),
so a tag is written in lower case in a URL and looked up by that spelling
everywhere: the converter, the redirect, the page, the sitemap and the
start-up checks, and APP_LOCALES' own check. :class:`LocaleTags` holds the
tags as configured and finds them by any spelling; :data:`X_DEFAULT` is the
hreflang of the address without a locale. In the foundation, so that the
configuration, the head and the audit read them here too.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Iterator, Sequence

#: The hreflang value of the address without a locale (the last of
#: :attr:`~flask_marmeon.page.Page.hreflang_paths`).
X_DEFAULT = "x-default"


def spelling(tag: str) -> str:
    """A tag's spelling in a URL, and its key for any-case lookup:
    ``"de-AT"`` -> ``"de-at"``."""
    return tag.lower()


def babel_spelling(tag: str) -> str:
    """A tag as Babel (and gettext) write it: ``"de-AT"`` -> ``"de_AT"``."""
    return tag.replace("-", "_")


def hyphenated(text: str) -> str:
    """A tag written Babel's way in BCP 47's: ``"de_AT"`` -> ``"de-AT"``."""
    return text.replace("_", "-")


class LocaleTags:
    """Tags as configured, in their order, found by any spelling.

    ``LocaleTags(["en", "de-AT"]).find("DE-at")`` is ``"de-AT"``.
    """

    __slots__ = ("by_spelling", "tags")

    def __init__(self, tags: Iterable[str]) -> None:
        #: The tags as configured, in their order.
        self.tags: tuple[str, ...] = tuple(tags)
        #: Each tag's :func:`spelling` -> the tag as configured.
        self.by_spelling: dict[str, str] = {spelling(t): t for t in self.tags}

    def __iter__(self) -> Iterator[str]:
        return iter(self.tags)

    def __contains__(self, text: object) -> bool:
        """Whether ``text`` spells one of the tags, in any case."""
        return isinstance(text, str) and spelling(text) in self.by_spelling

    def find(self, text: str) -> str | None:
        """The tag as configured that ``text`` spells in any case, or None."""
        return self.by_spelling.get(spelling(text))

    def among(self, named: Iterable[str]) -> tuple[str, ...]:
        """The tags that ``named`` names (in any case), as configured and in
        their order."""
        wanted = {spelling(tag) for tag in named}
        return tuple([tag for tag in self.tags if spelling(tag) in wanted])

    def strangers(self, named: Iterable[str]) -> tuple[str, ...]:
        """The tags of ``named`` that are none of these, as ``named`` has them."""
        return tuple(tag for tag in named if tag not in self)

    def split(self, named: Sequence[str]) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """:meth:`among` and :meth:`strangers` of ``named``: the page, the
        redirect and the sitemap all choose a route's locales so."""
        chosen = self.among(named)
        return chosen, () if len(chosen) == len(named) else self.strangers(named)

    def did_you_mean(self, value: str) -> str:
        """`` Did you mean 'de-AT'?`` for a tag close to one of these, else "".

        A tag written with ``_`` (``fr_FR``, as gettext and Open Graph write
        locales) is told that tags use ``-``.
        """
        if "_" in value:
            fixed = hyphenated(value)
            return (
                f" Locale tags use '-', not '_': {fixed!r}.{self.did_you_mean(fixed)}"
            )
        # "de" for "de-AT": the same language is the likeliest meaning.
        text = spelling(value)
        language = text.split("-")[0]
        close = [s for s in self.by_spelling if s.split("-")[0] == language]
        close = close or difflib.get_close_matches(text, list(self.by_spelling), n=1)
        return f" Did you mean {self.by_spelling[close[0]]!r}?" if close else ""
