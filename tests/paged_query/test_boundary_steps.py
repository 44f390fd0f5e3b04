"""paged()'s boundaries in bounded steps, on SQLite and on a real PostgreSQL:
one query finds at most ``SqlPaged.steps_per_query`` parts (databases cap a
recursive query's steps: MySQL 8 at 1,000), and a table with more takes
``ceil(parts / steps)`` queries, each going on from where the last stopped,
with the very starts one uncapped query finds and the Python rule gives."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from sqlalchemy import Engine, create_engine, delete, event, select
from sqlalchemy.orm import Session, sessionmaker
from sqlalchemy.pool import NullPool

from flask_marmeon.sqlalchemy import SqlPaged, paged
from tests.paged_query.items import (
    Item,
    Shelf,
    check_parts,
    every_key,
    expected_starts,
    fill,
    provider,
    tables,
)


@contextmanager
def asking(
    engine: Engine, then: Callable[[list[str]], None] = lambda asked: None
) -> Iterator[list[str]]:
    """The statements about the items sent to the database while in the
    block, in order (not a driver's own on connecting); ``then`` is called
    with them before each is sent."""
    asked: list[str] = []

    def note(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        if "item" in statement:
            asked.append(statement)
            then(asked)

    event.listen(engine, "before_cursor_execute", note)
    try:
        yield asked
    finally:
        event.remove(engine, "before_cursor_execute", note)


def starts_asked(made: SqlPaged, engine: Engine, size: int) -> tuple[list[Any], int]:
    """``made.boundaries(size)`` and how many boundaries queries it sent
    (the one other statement it may send counts NULL keys)."""
    with asking(engine) as asked:
        starts = made.boundaries(size)
    recursive = [s for s in asked if "WITH RECURSIVE" in s]
    assert [s for s in asked if s not in recursive] in ([], [asked[-1]])
    if len(recursive) < len(asked):
        assert "count(*)" in asked[-1]
    # The first is the query boundaries_query() shows.
    if recursive:
        shown = str(made.boundaries_query(size).compile(engine))
        assert recursive[0] == shown
    return starts, len(recursive)


STATEMENTS = {
    "unique": (select(Item.id, Item.slug), Item.id),
    # Batch 1000 has 40 rows, more than a part of 10 holds; some are NULL.
    "repeating": (select(Item.batch, Item.id), Item.batch),
    "strings": (select(Item.slug, Item.id).where(Item.listed), Item.slug),
    "filtered": (
        select(Item.id, Shelf.id.label("shelf"))
        .join(Shelf, Item.shelf_id == Shelf.id)
        .where(Shelf.open, Item.listed),
        Item.id,
    ),
}


@pytest.mark.parametrize("kind", STATEMENTS)
def test_capped_queries_find_the_starts_of_one_uncapped_query(
    engine: Engine, kind: str
) -> None:
    fill(engine, 150)
    statement, key = STATEMENTS[kind]
    uncapped, queries = starts_asked(provider(engine, statement, key), engine, 10)
    assert queries == 1
    parts = len(uncapped)
    assert parts >= 8
    # 1: a query a part; a cap that divides the parts; one that leaves one
    # part for a last query; one over the parts.
    for steps in sorted({1, 3, 4, parts // 2 + 1, parts - 1, parts, parts + 1}):
        made = provider(engine, statement, key)
        made.steps_per_query = steps
        starts, queries = starts_asked(made, engine, 10)
        assert starts == uncapped, steps
        assert queries == math.ceil(parts / steps), (steps, parts)
        # The Python rule, and every row in exactly one part.
        assert check_parts(engine, made, key, 10) == uncapped


def test_the_default_cap_takes_a_few_queries_for_many_parts(engine: Engine) -> None:
    fill(engine, 1000)
    made = provider(engine, select(Item.id), Item.id)
    assert made.steps_per_query == 500
    # A part a row: 1,000 parts (MySQL 8 would stop one query there), in
    # two queries of 500 steps.
    starts, queries = starts_asked(made, engine, 1)
    assert starts == list(range(1, 1001))
    assert queries == 2


def test_an_empty_table_is_one_query(engine: Engine) -> None:
    made = provider(engine, select(Item.id), Item.id)
    made.steps_per_query = 1
    assert starts_asked(made, engine, 10) == ([], 1)


def test_a_start_deleted_between_queries_is_gone_on_from(engine: Engine) -> None:
    """The next query begins at the smallest key from the last start, so
    a start deleted in between costs nothing (no empty part, none lost)."""
    fill(engine, 60)
    made = provider(engine, select(Item.id), Item.id)
    made.steps_per_query = 2

    def delete_21(asked: list[str]) -> None:
        # Before the second query, which goes on from item 21.
        if len(asked) == 2:
            other = create_engine(engine.url, poolclass=NullPool)
            with Session(other) as session:
                session.execute(delete(Item).where(Item.id == 21))
                session.commit()
            other.dispose()

    with asking(engine, delete_21) as asked:
        assert made.boundaries(10) == [1, 11, 22, 32, 42, 52]
    assert len(asked) == 3 and all("WITH RECURSIVE" in s for s in asked)


@pytest.mark.parametrize("steps", [0, -1, 2.5, None])
def test_a_cap_that_is_no_whole_number_is_refused(steps: Any) -> None:
    made = paged(
        select(Item.id),
        key=Item.id,
        entry=lambda row: row,
        session=sessionmaker(create_engine("sqlite://")),
    )
    made.steps_per_query = steps
    with pytest.raises(ValueError, match=r"SqlPaged.steps_per_query is .*: set a"):
        made.boundaries(10)


def test_the_statement_s_own_bound_on_the_key_is_not_where_each_scan_starts(
    tmp_path: Any,
) -> None:
    # SQLite starts an index's range at the first bound on its column in
    # the WHERE clause. Behind a statement's own (id > 0), each step of the
    # boundaries and each part would scan the index from the start of the
    # table: the work would grow with the square of its size. Counted in
    # SQLite's own virtual machine instructions, not in time.
    (engine,) = list(tables(f"sqlite:///{tmp_path / 'items.db'}"))[:1]
    fill(engine, 1000)
    ticks = [0]

    def counter() -> int:
        ticks[0] += 1
        return 0

    def watch(connection: Any, record: Any) -> None:
        connection.set_progress_handler(counter, 100)

    event.listen(engine, "connect", watch)

    def work(statement: Any) -> tuple[list[Any], list[Any], int]:
        made = provider(engine, statement, Item.id)
        ticks[0] = 0
        starts = made.boundaries(5)
        last = list(made.entries(starts[-1], None, 6))
        return starts, last, ticks[0]

    starts, last, plain = work(select(Item.id).where(Item.listed))
    same_starts, same_last, bounded = work(
        select(Item.id).where(Item.listed, Item.id > 0)
    )
    assert (same_starts, same_last) == (starts, last)
    assert len(starts) > 100
    assert bounded < 2 * plain, (bounded, plain)


@pytest.mark.parametrize("kind", STATEMENTS)
def test_split_finds_the_starts_of_one_range_alone(engine: Engine, kind: str) -> None:
    """split(start, stop, size): the starts the rule gives for the rows of
    that range alone (the first from start, every size-th on, none at or
    past stop), in capped queries too; None as start: from the first key."""
    fill(engine, 150)
    statement, key = STATEMENTS[kind]
    made = provider(engine, statement, key)
    keys = every_key(engine, statement, key)
    starts = made.boundaries(30)
    assert len(starts) >= 3
    for steps in (1, 2, 500):
        made.steps_per_query = steps
        for number, start in enumerate(starts):
            stop = starts[number + 1] if number + 1 < len(starts) else None
            # In the database's order (its collation), not Python's.
            end = len(keys) if stop is None else keys.index(stop)
            inside = keys[keys.index(start) : end]
            assert made.split(start, stop, 7) == expected_starts(inside, 7)
        below = keys[: keys.index(starts[1])]
        assert made.split(None, starts[1], 7) == expected_starts(below, 7)
    # A range that holds no row has no start.
    assert made.split(keys[-1], keys[-1], 7) == []
