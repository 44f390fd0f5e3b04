"""The order of writing: a table's writers in turn (:func:`write_keys`),
and the rarely set keys' runs grouped into one look (:func:`grouped`).

Apart from :mod:`.writers` so that it imports nothing of the head (the
Builder is ``Any`` here): the writers, the table and resolve read it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, TypeAlias

#: A writer's __call__: (builder, value, siblings) -> None.
WriteFn: TypeAlias = Callable[[Any, Any, Mapping[str, Any]], None]


def write_keys(
    out: Any,
    writers: tuple[tuple[str, WriteFn, bool], ...],
    values: Mapping[str, Any],
) -> None:
    """Each writer of a table, in the table's order, with its key's value."""
    for name, writer, always in writers:
        value = values.get(name)
        if value is not None or always:
            writer(out, value, values)


def grouped(
    entries: list[tuple[str, WriteFn, bool, bool]],
) -> tuple[tuple[str, WriteFn, bool], ...]:
    """``(name, write, always, rare)`` in output order -> write_keys' entries,
    each run of rare keys (the page tags, which most pages never set) one
    entry: a page without any of them pays one look, not one per key."""
    out: list[tuple[str, WriteFn, bool]] = []
    run: list[tuple[str, WriteFn, bool]] = []
    for name, write, always, rare in [*entries, ("", _none, False, False)]:
        if rare and not always:
            run.append((name, write, always))
            continue
        if len(run) > 1:
            out.append(("", _some(tuple(run)), True))
        else:
            out += run
        run = []
        if name:
            out.append((name, write, always))
    return tuple(out)


def _some(run: tuple[tuple[str, WriteFn, bool], ...]) -> WriteFn:
    names = frozenset(name for name, _, _ in run)

    def some(out: Any, value: Any, values: Mapping[str, Any]) -> None:
        if not names.isdisjoint(values):
            write_keys(out, run, values)

    return some


def _none(out: Any, value: Any, siblings: Mapping[str, Any]) -> None:
    pass
