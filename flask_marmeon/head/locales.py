"""og:locale: a BCP 47 tag in Open Graph's form, ``language_TERRITORY``."""

from __future__ import annotations

from collections.abc import Iterable
from itertools import takewhile

from babel.core import get_global


def og_locale(tag: str) -> str:
    """``de-AT`` -> ``de_AT``; a tag without a region gets CLDR's likely one.

    Open Graph spells a locale ``ll_TT`` (``pt_BR``), while BCP 47 tags are
    case-insensitive: the language is written in lower case, a region in
    upper case, other subtags as they are. A tag without a region is
    completed with CLDR's likely subtags, through Babel (``en`` -> ``en_US``,
    ``de`` -> ``de_DE``, ``zh-Hant`` -> ``zh_TW``: the script only picks the
    region, as Open Graph has no place for it); a language CLDR does not know
    is written alone. A script, a variant or a private use part is left out
    with a region too (``sr-Latn-RS`` -> ``sr_RS``).
    """
    language, _, rest = tag.partition("-")
    language = language.lower()
    # What follows a singleton (an extension, "x-" private use) is no region.
    subtags = list(takewhile(lambda s: len(s) != 1, rest.split("-") if rest else []))
    for subtag in subtags:
        # Only the region (BCP 47: two letters or three digits), no script
        # or variant.
        if (len(subtag) == 2 and subtag.isalpha()) or (
            len(subtag) == 3 and subtag.isdigit()
        ):
            return f"{language}_{subtag.upper()}"
    likely_subtags = get_global("likely_subtags")
    likely: str | None = None
    if subtags and len(subtags[0]) == 4 and subtags[0].isalpha():
        likely = likely_subtags.get(f"{language}_{subtags[0].title()}")
    if likely is None:
        likely = likely_subtags.get(language)
    if likely is None:
        return "_".join([language, *subtags])
    return f"{language}_{likely.rpartition('_')[2]}"


class OgLocales:
    """:func:`og_locale` for one app, its configured tags looked up once.

    A page's locale and its hreflang tags come from APP_LOCALES, so the
    table made in ``init_app`` answers for them without Babel's lookup on
    every head; any other tag goes to :func:`og_locale`.
    ``tests/head/test_locales.py`` keeps the two equal.
    """

    __slots__ = ("table",)

    def __init__(self, tags: Iterable[str] = ()) -> None:
        self.table = {tag: og_locale(tag) for tag in tags}

    def __call__(self, tag: str) -> str:
        """``og_locale(tag)``."""
        found = self.table.get(tag)
        return og_locale(tag) if found is None else found
