"""Merge a request's head fragments, layouts first, into one MergedHead.

The rules of the specification:

- a simple field (title, title_template, description, canonical) is the one
  of the last call that sets it;
- ``robots``, ``open_graph``, ``twitter`` and ``open_graph["article"]`` merge
  key by key, the later call winning per key; an object set at all (even
  ``{}``) counts as set;
- an image is one value and is replaced whole;
- ``json_ld`` blocks accumulate in call order and never replace each other.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from .fields import HeadFragment


@dataclass(slots=True)
class MergedHead:
    """The head of one page: every fragment merged. None means never set."""

    title: str | None = None
    title_template: str | None = None
    description: str | None = None
    canonical: str | None = None
    robots: Mapping[str, Any] | None = None
    open_graph: Mapping[str, Any] | None = None
    twitter: Mapping[str, Any] | None = None
    json_ld: tuple[Any, ...] = ()


#: The head of a page that called head() never.
EMPTY = MergedHead()


def _merge_into(
    merged: Mapping[str, Any], update: Mapping[str, Any]
) -> Mapping[str, Any]:
    """``update`` over ``merged`` key by key (``article`` too), as a new mapping.

    Neither is changed (the first mapping set is taken as it is: the merged
    head shares the fragments' mappings, which nothing changes).
    """
    out = {**merged, **update}
    if "article" in update and "article" in merged:
        out["article"] = {**merged["article"], **update["article"]}
    return out


def merge(fragments: Iterable[HeadFragment]) -> MergedHead:
    """Merge ``fragments`` in call order (a layout's before the page's)."""
    title = template = description = canonical = None
    robots: Mapping[str, Any] | None = None
    open_graph: Mapping[str, Any] | None = None
    twitter: Mapping[str, Any] | None = None
    json_ld: tuple[Any, ...] = ()
    for fragment in fragments:
        if fragment.title is not None:
            title = fragment.title
        if fragment.title_template is not None:
            template = fragment.title_template
        if fragment.description is not None:
            description = fragment.description
        if fragment.canonical is not None:
            canonical = fragment.canonical
        # The first mapping set is taken as it is (no call): most pages set
        # each in one fragment only.
        if fragment.robots is not None:
            robots = (
                fragment.robots
                if robots is None
                else _merge_into(robots, fragment.robots)
            )
        if fragment.open_graph is not None:
            open_graph = (
                fragment.open_graph
                if open_graph is None
                else _merge_into(open_graph, fragment.open_graph)
            )
        if fragment.twitter is not None:
            twitter = (
                fragment.twitter
                if twitter is None
                else _merge_into(twitter, fragment.twitter)
            )
        if fragment.json_ld:
            json_ld += fragment.json_ld
    return MergedHead(
        title, template, description, canonical, robots, open_graph, twitter, json_ld
    )
