"""The visitor's locale from ``Accept-Language``: a pure function."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from werkzeug.datastructures import LanguageAccept

from ..locale_tags import LocaleTags, hyphenated, spelling


def best_locale(
    accept: Iterable[tuple[str, float]], locales: Sequence[str]
) -> str | None:
    """The visitor's most preferred language that ``locales`` has, or None.

    The languages of ``Accept-Language`` are tried one by one in the order
    of their q-values (matching the header as a whole would let an exact
    ``en;q=0.5`` beat a ``de-CH`` the visitor prefers). Each is first looked
    up as RFC 4647 says (section 3.4): the tag, then the tag with its last
    subtag cut off, and so on (``de-AT-x-foo`` -> ``de-AT`` -> ``de``), so
    that the most specific configured locale wins. Only then does
    Werkzeug's ``best_match`` try, which lets a language reach a configured
    region (``de`` reaches ``de-AT``) and ``*`` reach any locale.

    ``q=0`` means "not acceptable" (RFC 9110): a refused language, and its
    regions, is never chosen, not even through ``*``.
    """
    ordered = sorted(accept, key=lambda item: -item[1])
    # "de-" refuses "de" and "de-AT", not "den".
    refused = tuple(spelling(value) + "-" for value, quality in ordered if quality <= 0)
    locales = [tag for tag in locales if not (spelling(tag) + "-").startswith(refused)]
    by_spelling = LocaleTags(locales).by_spelling
    # The header is the client's, and may hold thousands of ranges: each is
    # tried once, and Werkzeug only for a range whose language (or ``*``)
    # some locale has, the only ones its best_match can match.
    languages = {_language(tag) for tag in locales}
    tried: set[str] = set()
    for value, quality in ordered:
        spelled = spelling(value)
        if quality <= 0 or spelled in tried:
            continue
        tried.add(spelled)
        match = lookup(value, by_spelling)
        if match is None and (value == "*" or _language(spelled) in languages):
            match = LanguageAccept([(value, 1)]).best_match(locales)
        if match is not None:
            return match
    return None


def _language(tag: str) -> str:
    """The language subtag, as Werkzeug's matching reads it (``de_AT`` too)."""
    return hyphenated(spelling(tag)).split("-", 1)[0]


def fallback_locale(accept: Iterable[tuple[str, float]], locales: Sequence[str]) -> str:
    """The locale for a visitor whose languages match none of ``locales``:
    the first that the visitor does not refuse (``q=0``), else the first."""
    return best_locale([("*", 1), *accept], locales) or locales[0]


def lookup(language_range: str, tags: Mapping[str, str]) -> str | None:
    """RFC 4647 lookup of one language range in ``tags`` (lower-case
    spelling -> tag as configured), or None.

    The range is cut from the end one subtag at a time; a single-letter
    subtag left at the end (the ``x`` of a private use part) goes with it.
    ``*`` is no tag to look up.
    """
    if language_range == "*":
        return None
    text = hyphenated(spelling(language_range))
    subtags = text.split("-")
    # The header is the client's: a range may hold thousands of subtags, and
    # joining every rest again would be quadratic. Only a rest no longer
    # than the longest tag can be one, so only such a rest is joined.
    longest = max(map(len, tags), default=0)
    size = len(text)  # the length of "-".join(subtags)
    while subtags:
        if size <= longest:
            tag = tags.get("-".join(subtags))
            if tag is not None:
                return tag
        size -= len(subtags.pop()) + 1
        if subtags and len(subtags[-1]) == 1:
            size -= len(subtags.pop()) + 1
    return None
