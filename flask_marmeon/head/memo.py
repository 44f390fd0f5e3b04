"""The head's one speed trick: a page seen before is not written again.

:class:`HeadMemo` keeps whole heads by :func:`head_key`, so that resolve and
write do not run again, cut where the nonce goes (a new nonce per request
still finds them). It is per app (``MarmeonState.head``), bounded, starts
again when full, and is not used in development (which warns for each URL
left out, on every page). ``tests/head/test_memo.py`` keeps it equal to the
plain code.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import Any, TypeVar

from ..page import Page
from . import roles
from .merge import MergedHead
from .table import HEAD

#: Written where the nonce attribute goes in a kept head. The head never
#: holds NUL otherwise: text is cleaned of it, URLs and JSON escape it.
NONCE_MARK = "\x00"

_C = TypeVar("_C")


#: Per nested table of head() (robots, open_graph, twitter), the keys
#: whose values are tables in turn (open_graph's article, book, profile).
_INNER: dict[str, frozenset[str]] = {
    name: frozenset(table.keyed) for name, table in HEAD.keyed.items()
}
#: The keys of the JSON-LD blocks (kept apart) and of the page's title.
_JSON_LD, _TITLE = HEAD.named(roles.JSON_LD), HEAD.named(roles.TITLE)


def head_key(merged: MergedHead, page: Page | None, json_ld: Sequence[str]) -> Hashable:
    """Everything a head's text depends on besides the app's settings and
    the nonce: every merged value, whatever the field (none is named here,
    so none can be left out), the page's addresses and the JSON-LD texts
    (in place of the blocks).

    Values are plain (``head()`` made them so): text, numbers, bools, named
    tuples and tuples of them, hashable as they are; a nested table (a
    dict) becomes a tuple of its items, and so do the tables inside it (the
    table says where they may be). Anything else is unhashable, and such a
    head is written each time (``tests/head/test_every_field.py`` makes sure
    no field's value is).
    """
    # A plain loop and C calls: a comprehension is a function call of its
    # own in Python 3.11, and this runs on every page seen before.
    items: list[tuple[str, Any]] = []
    append = items.append
    for name, value in merged.items():
        if type(value) is dict:
            inner = _INNER.get(name)
            if inner and not inner.isdisjoint(value):
                value = tuple(
                    [
                        (key, tuple(item.items()) if key in inner else item)
                        for key, item in value.items()
                    ]
                )
            else:
                value = tuple(value.items())
        elif name == _JSON_LD:
            continue
        append((name, value))
    return (
        tuple(items),
        None
        if page is None
        else (page.locale, page.canonical_path, page.hreflang_paths),
        tuple(json_ld),
    )


def _noted(hashes: set[int], hashed: int, limit: int) -> bool:
    """Note ``hashed`` in ``hashes`` (at most ``limit``, then they start
    again); whether it is new."""
    if hashed in hashes:
        return False
    if len(hashes) >= limit:
        hashes.clear()
    hashes.add(hashed)
    return True


class HeadMemo:
    """Whole heads by :func:`head_key`: at most ``size`` of at most
    ``longest`` characters.

    The key is hashed once: the dict is keyed by its hash and holds the key,
    which a hit compares (two keys of one hash share one place, the last
    written winning). A head is kept from its second writing on: the first
    time only its key's hash is noted (in ``seen``, at most ``size * 4``).
    A page never written before then leaves an int behind, not a head for
    the garbage collector to walk through until the memo starts again (on
    a site of ever new pages, benchmarks/head.py: 1.28x the hand-written
    page kept, 1.19x not kept).

    Before the key, the title: a page whose title was never written is a
    page never written, and its key is not made (making and hashing it is
    1.5% of such a page's time, callgrind); the title's hash is noted (in
    ``titles``, as many). So a page is kept from its second writing when
    another page had its title, else from its third.
    """

    __slots__ = ("longest", "pages", "seen", "size", "titles")

    def __init__(self, size: int = 256, longest: int = 16_384) -> None:
        self.size = size
        self.longest = longest
        #: hash(key) -> (key, the head's pieces).
        self.pages: dict[int, tuple[Hashable, tuple[str, ...]]] = {}
        #: The hashes of the keys written once, not kept yet.
        self.seen: set[int] = set()
        #: The hashes of the titles written.
        self.titles: set[int] = set()

    def text(
        self,
        nonce_attr: str,
        write: Callable[[str, MergedHead, Page | None, Sequence[str], _C], str],
        merged: MergedHead,
        page: Page | None,
        json_ld: Sequence[str],
        context: _C,
    ) -> str:
        """The head's text with ``nonce_attr`` where the nonce attribute goes;
        ``write(nonce_attr, merged, page, json_ld, context)`` writes it when
        it is not kept (a plain function and its arguments: nothing is made
        for a hit)."""
        if _noted(self.titles, hash(merged.get(_TITLE)), self.size * 4):
            return write(nonce_attr, merged, page, json_ld, context)
        key = head_key(merged, page, json_ld)
        try:
            hashed = hash(key)
        except TypeError:  # something unhashable: written each time
            return write(nonce_attr, merged, page, json_ld, context)
        found = self.pages.get(hashed)
        if found is not None and found[0] == key:
            return nonce_attr.join(found[1])
        if _noted(self.seen, hashed, self.size * 4):
            return write(nonce_attr, merged, page, json_ld, context)
        text = write(NONCE_MARK, merged, page, json_ld, context)
        pieces = tuple(text.split(NONCE_MARK))
        if len(text) <= self.longest:
            self.seen.discard(hashed)
            pages = self.pages
            if len(pages) >= self.size:
                pages.clear()
            pages[hashed] = (key, pieces)
        return nonce_attr.join(pieces)
