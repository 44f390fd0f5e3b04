"""What an unknown argument or key of ``head()`` most likely meant.

The spelling hint (:func:`hint`) finds the closest name; some mistakes need
more: ``robots={"noindex": True}`` means ``index=False`` (the closest name
means the opposite), ``head(og_image=...)`` is a card's key at the top level.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping, Sequence

from ..errors import did_you_mean

#: Prefixes that say which table a top-level name belongs in.
_PREFIXES = (
    ("open_graph_", "open_graph"),
    ("og_", "open_graph"),
    ("og:", "open_graph"),
    ("twitter_", "twitter"),
    ("twitter:", "twitter"),
)


def unknown_key(path: str, key: object, keys: Collection[str]) -> TypeError:
    """The error for ``{key: ...}`` at ``path`` when ``key`` is not one of ``keys``."""
    return TypeError(
        f"{path} has no key {key!r}; it takes"
        f" {', '.join(map(repr, keys))}.{hint(key, list(keys))}"
    )


def unknown_robots_key(path: str, key: object, keys: Collection[str]) -> TypeError:
    """The error for ``robots={key: ...}`` when ``key`` is not one of ``keys``."""
    if isinstance(key, str):
        name = _snake(key)
        if name.startswith("no") and name[2:].lstrip("_") in ("index", "follow"):
            positive = name[2:].lstrip("_")
            return TypeError(
                f"{path} has no key {key!r}: write {positive}=False"
                f" (robots={{{positive!r}: False}}), which writes"
                f" 'no{positive}'."
            )
    return unknown_key(path, key, keys)


def unknown_argument(
    path: str,
    name: object,
    arguments: Collection[str],
    tables: Mapping[str, Collection[str]],
) -> TypeError:
    """The error for ``head(name=...)`` (``path`` is "", head()'s): where the
    name belongs when it is a key of one of ``tables`` (``open_graph``,
    ``twitter``), else the closest argument."""
    said = f"head() got an unknown argument {name!r}"
    places = _places(name, tables) if isinstance(name, str) else []
    if places:
        where = " and ".join(f"{table}={{{key!r}: ...}}" for table, key in places)
        return TypeError(
            f"{said}: it belongs in {where},"
            f" as in head({places[0][0]}={{{places[0][1]!r}: ...}})."
        )
    return TypeError(
        f"{said}; it takes {', '.join(arguments)}.{hint(name, list(arguments))}"
    )


def _places(name: str, tables: Mapping[str, Collection[str]]) -> list[tuple[str, str]]:
    """(table, key) for each table that has the key ``name`` stands for."""
    snake = _snake(name)
    for prefix, table in _PREFIXES:
        if snake.startswith(prefix) or name.startswith(prefix):
            rest = (snake if snake.startswith(prefix) else name)[len(prefix) :]
            key = _snake(rest).replace(":", "_")
            if key in tables[table]:
                # og_image: an image goes in both tables, so name both.
                if key == "image":
                    return [(t, key) for t, keys in tables.items() if key in keys]
                return [(table, key)]
            return []
    return [(table, snake) for table, keys in tables.items() if snake in keys]


def _snake(name: str) -> str:
    return re.sub(r"(?<=[a-z0-9])([A-Z])", r"_\1", name).lower()


def hint(name: object, choices: Mapping[str, object] | Sequence[str]) -> str:
    """Return " Did you mean 'x'?" when a choice is close to ``name``, else ""."""
    if not isinstance(name, str):
        return ""
    options = list(choices)
    if _snake(name) in options and _snake(name) != name:
        return f" Did you mean {_snake(name)!r}?"
    return did_you_mean(name, options) or did_you_mean(_snake(name), options)
