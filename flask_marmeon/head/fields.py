"""head(**fields): one call, checked (see :mod:`flask_marmeon.head.schema`),
as a frozen :class:`HeadFragment`. Nothing later in the pipeline validates
again.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .mistakes import unknown_argument, unknown_robots_key
from .schema import (
    ARGUMENTS,
    OPEN_GRAPH,
    ROBOTS,
    SCHEMA,
    TWITTER,
    kind_of,
)


@dataclass(slots=True)
class HeadFragment:
    """One ``head()`` call, validated and normalized; read-only by use.

    Not a frozen dataclass: a frozen one costs twice as much to make, and
    two are made on every page.

    ``None`` means "not set by this call". ``robots``, ``open_graph`` and
    ``twitter`` hold only the keys the call set (an empty mapping still counts
    as set); ``open_graph["article"]`` is such a mapping too.
    """

    title: str | None = None
    title_template: str | None = None
    description: str | None = None
    canonical: str | None = None
    robots: Mapping[str, Any] | None = None
    open_graph: Mapping[str, Any] | None = None
    twitter: Mapping[str, Any] | None = None
    json_ld: tuple[Any, ...] = ()


def check_json_ld(value: object) -> tuple[Any, ...]:
    """Return the blocks of ``json_ld=`` as a tuple.

    Only the shape is checked here (a dict, or a list of dicts). Whether JSON
    can write a block exactly is decided when the head is written, where
    development raises and production leaves the block out.
    """
    if type(value) is dict:
        return (value,)
    blocks = list(value) if isinstance(value, (list, tuple)) else [value]
    for i, block in enumerate(blocks):
        if type(block) is not dict and not isinstance(block, Mapping):
            where = f"json_ld[{i}]" if isinstance(value, (list, tuple)) else "json_ld"
            raise TypeError(
                f"{where} must be a JSON-LD block (a dict such as"
                f" {{'@context': 'https://schema.org', '@type': 'Article'}}) or a"
                f" list of blocks, not {kind_of(block)}."
            )
    return tuple(blocks)


def _unknown_robots_key(path: str, key: object) -> TypeError:
    return unknown_robots_key(path, key, ROBOTS.fields)


# robots={"noindex": True} means index=False: the spelling hint would say
# the opposite (mistakes.py words it; it reads schema.py, so it is set here).
ROBOTS.unknown = _unknown_robots_key


def _unknown_argument(name: str) -> TypeError:
    tables = {"open_graph": OPEN_GRAPH.fields, "twitter": TWITTER.fields}
    return unknown_argument(name, ARGUMENTS, tables)


_TITLE = SCHEMA["title"]
_TEMPLATE = SCHEMA["title_template"]
_DESCRIPTION = SCHEMA["description"]
_CANONICAL = SCHEMA["canonical"]


def build_fragment(
    title: Any = None,
    title_template: Any = None,
    description: Any = None,
    canonical: Any = None,
    robots: Any = None,
    open_graph: Any = None,
    twitter: Any = None,
    json_ld: Any = None,
    unknown: Mapping[str, object] | None = None,
) -> HeadFragment:
    """Validate the arguments of one ``head()`` call, in its order.

    ``unknown`` holds the keyword arguments ``head()`` does not take. This
    runs for every ``head()`` call: a plain printable ``str`` is taken as it
    is, everything else goes through its field's ``check``.
    """
    # A str that is not printable holds what HTML cannot carry: check() cleans it.
    if title is not None and (type(title) is not str or not title.isprintable()):
        title = _TITLE.check(title, "title")
    if title_template is not None and (
        type(title_template) is not str
        or not title_template.isprintable()
        or "%s" not in title_template
    ):
        title_template = _TEMPLATE.check(title_template, "title_template")
    if description is not None and (
        type(description) is not str or not description.isprintable()
    ):
        description = _DESCRIPTION.check(description, "description")
    if canonical is not None and (
        type(canonical) is not str or not canonical.isprintable()
    ):
        canonical = _CANONICAL.check(canonical, "canonical")
    if robots is not None:
        robots = ROBOTS.check(robots, "robots")
    if open_graph is not None:
        open_graph = OPEN_GRAPH.check(open_graph, "open_graph")
    if twitter is not None:
        twitter = TWITTER.check(twitter, "twitter")
    if type(json_ld) is dict:  # one block, the commonest: no call
        blocks: tuple[Any, ...] = (json_ld,)
    else:
        blocks = () if json_ld is None else check_json_ld(json_ld)
    if unknown:
        raise _unknown_argument(next(iter(unknown)))
    return HeadFragment(
        title,
        title_template,
        description,
        canonical,
        robots,
        open_graph,
        twitter,
        blocks,
    )


def make_fragment(fields: Mapping[str, object]) -> HeadFragment:
    """Validate the keyword arguments of one ``head()`` call, given as a mapping."""
    for name in fields:
        if name not in SCHEMA and name != "json_ld":
            raise _unknown_argument(name)
    get = fields.get
    return build_fragment(
        get("title"),
        get("title_template"),
        get("description"),
        get("canonical"),
        get("robots"),
        get("open_graph"),
        get("twitter"),
        get("json_ld"),
    )
