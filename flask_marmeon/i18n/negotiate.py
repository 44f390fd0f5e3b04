"""The visitor's locale from ``Accept-Language``: a pure function."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from werkzeug.datastructures import LanguageAccept


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
    refused = tuple(value.lower() for value, quality in ordered if quality <= 0)
    if refused:
        locales = [
            tag
            for tag in locales
            if not any(
                tag.lower() == r or tag.lower().startswith(r + "-") for r in refused
            )
        ]
    by_spelling = {tag.lower(): tag for tag in locales}
    for value, quality in ordered:
        if quality <= 0:
            continue
        match = lookup(value, by_spelling)
        if match is None:
            match = LanguageAccept([(value, 1)]).best_match(locales)
        if match is not None:
            return match
    return None


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
    subtags = language_range.lower().replace("_", "-").split("-")
    while subtags:
        tag = tags.get("-".join(subtags))
        if tag is not None:
            return tag
        subtags.pop()
        if subtags and len(subtags[-1]) == 1:
            subtags.pop()
    return None
