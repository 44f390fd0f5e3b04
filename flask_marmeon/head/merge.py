"""Merge a request's head fragments, layouts first, into one MergedHead.

How each field merges (``REPLACE``, ``BY_KEY``, ``APPEND``) is declared in
:mod:`flask_marmeon.head.table`; a nested table set at all (even ``{}``)
counts as set.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, TypeAlias

from .fragment import HeadFragment
from .table import HEAD, Table

#: The head of one page: every fragment merged, in the fragments' form (a
#: dict of what is set). Never changed once made.
MergedHead: TypeAlias = dict[str, Any]

#: The head of a page that called head() never.
EMPTY: MergedHead = {}


def merge_keys(
    table: Table, merged: Mapping[str, Any], update: Mapping[str, Any]
) -> dict[str, Any]:
    """``update`` over ``merged`` key by key, nested tables too, as a new dict.

    Neither is changed: the merged head shares the fragments' values, which
    nothing changes.
    """
    out = {**merged, **update}
    for name, nested in table.keyed.items():
        if name in update and name in merged:
            out[name] = merge_keys(nested, merged[name], update[name])
    return out


_KEYED = HEAD.keyed
_FLAT = HEAD.flat
_APPENDED = HEAD.appended


def merge(fragments: Iterable[HeadFragment]) -> MergedHead:
    """Merge ``fragments`` in call order (a layout's before the page's)."""
    merged: MergedHead = EMPTY
    own = False  # whether merged is a dict of our own (else a fragment's)
    for fragment in fragments:
        if not merged:
            # The first fragment that sets anything is taken as it is (no
            # copy): most pages set each field in one fragment only.
            merged = fragment
            continue
        if not own:
            merged = dict(merged)
            own = True
        for name, value in fragment.items():
            old = merged.get(name)
            if old is None:
                merged[name] = value
            elif name in _KEYED:
                merged[name] = merge_keys(_KEYED[name], old, value)
            elif name in _FLAT:
                merged[name] = {**old, **value}
            elif name in _APPENDED:
                merged[name] = old + value
            else:
                merged[name] = value
    return merged
