"""paged()'s ranges over odd keys and statements, on SQLite and on a real
PostgreSQL: where parts begin (one recursive query stepping along the key's
index) against the same rule computed in Python over every key, and every
row in exactly one part, no part over its size."""

from __future__ import annotations

import logging
import uuid
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import (
    Boolean,
    Column,
    Engine,
    Integer,
    MetaData,
    Table,
    create_engine,
    delete,
    event,
    insert,
    select,
    text,
    update,
)
from sqlalchemy.orm import Session, sessionmaker
from sqlalchemy.pool import NullPool

from flask_marmeon import Marmeon
from flask_marmeon.sqlalchemy import paged
from tests.paged_query.items import (
    Item,
    Shelf,
    check_parts,
    every_key,
    fill,
    provider,
)


@pytest.mark.parametrize(
    ("count", "parts"), [(0, 0), (1, 1), (9, 1), (10, 1), (11, 2), (19, 2), (20, 2)]
)
def test_sizes_off_by_one(engine: Engine, count: int, parts: int) -> None:
    fill(engine, count)
    made = provider(engine, select(Item.id, Item.slug), Item.id)
    starts = check_parts(engine, made, Item.id, 10)
    assert len(starts) == parts
    assert starts == list(range(1, count + 1, 10))


def test_a_where_and_a_join_are_kept(engine: Engine) -> None:
    fill(engine, 150)
    statement = (
        select(Item.id, Shelf.id.label("shelf"))
        .join(Shelf, Item.shelf_id == Shelf.id)
        .where(Shelf.open, Item.listed)
    )
    made = provider(engine, statement, Item.id)
    check_parts(engine, made, Item.id, 10)
    # Shelf 5 is closed: items n with 1 + n % 5 == 5 are in no part.
    listed = [n for n in range(1, 151) if n % 3 and 1 + n % 5 != 5]
    assert every_key(engine, statement, Item.id) == listed
    # Two tables in FROM, joined by the WHERE alone.
    implicit = select(Item.id, Shelf.open).where(Item.shelf_id == Shelf.id, Shelf.open)
    check_parts(engine, provider(engine, implicit, Item.id), Item.id, 7)


@pytest.mark.parametrize("key", ["slug", "token", "rank"])
def test_strings_uuids_and_a_descending_index(engine: Engine, key: str) -> None:
    fill(engine, 105)
    column = getattr(Item, key)
    made = provider(engine, select(column, Item.id).where(Item.listed), column)
    starts = check_parts(engine, made, column, 10)
    assert len(starts) == 7  # 70 listed items


def test_a_labelled_key(engine: Engine) -> None:
    fill(engine, 35)
    made = paged(
        select(Item.id.label("number")),
        key="number",
        entry=lambda row: row.number,
        session=sessionmaker(engine),
    )
    assert made.boundaries(10) == [1, 11, 21, 31]
    assert list(made.entries(11, 21, 100)) == list(range(11, 21))


def test_an_orm_entity_statement(engine: Engine) -> None:
    fill(engine, 25)
    made = paged(
        select(Item).where(Item.listed),
        key=Item.id,
        entry=lambda row: row.Item.slug,
        session=sessionmaker(engine),
    )
    assert made.problems() == []
    starts = made.boundaries(5)
    assert starts == [1, 8, 16, 23]  # the listed: every 3rd is not
    assert len(list(made.entries(7, 14, 100))) == 5


def test_keys_that_repeat_keep_parts_within_their_size(
    engine: Engine, caplog: pytest.LogCaptureFixture
) -> None:
    fill(engine, 120)
    made = provider(engine, select(Item.batch, Item.id), Item.batch)
    with caplog.at_level(logging.WARNING, "flask_marmeon"):
        starts = check_parts(engine, made, Item.batch, 10)
    # Batch 1000's 40 rows are one part of their own (and the query ends).
    assert 1000 in starts
    (said,) = [r.getMessage() for r in caplog.records if "NULL" in r.getMessage()]
    assert "10 rows of paged(..., key=Item.batch) have a NULL key" in said
    assert ".where(Item.batch.is_not(None))" in said
    # Filtered as the message says: nothing to say.
    caplog.clear()
    filtered = provider(
        engine, select(Item.batch).where(Item.batch.is_not(None)), Item.batch
    )
    with caplog.at_level(logging.WARNING, "flask_marmeon"):
        assert filtered.boundaries(10) == starts
    assert not caplog.records


def test_null_keys_are_said_when_their_number_changes(
    engine: Engine, caplog: pytest.LogCaptureFixture
) -> None:
    """Each rebuild of the boundaries counts them; the log says so when
    the count is first seen or has changed, not on every rebuild."""
    fill(engine, 120)  # every 11th item's batch is NULL: 10 rows
    made = provider(engine, select(Item.batch, Item.id), Item.batch)

    def said_by_rebuilds(count: int) -> list[str]:
        caplog.clear()
        with caplog.at_level(logging.WARNING, "flask_marmeon"):
            for _ in range(count):
                made.boundaries(10)
        return [r.getMessage() for r in caplog.records]

    def change(statement: Any) -> None:
        with Session(engine) as session:
            session.execute(statement)
            session.commit()

    (said,) = said_by_rebuilds(2)
    assert "10 rows of paged(..., key=Item.batch) have a NULL key" in said
    assert said_by_rebuilds(2) == []
    change(
        insert(Item).values(
            id=121,
            shelf_id=1,
            listed=True,
            batch=None,
            slug="item-extra",
            token=uuid.UUID(int=2**70),
            rank=-1,
            price=0,
        )
    )
    (said,) = said_by_rebuilds(2)
    assert "11 rows of paged(..., key=Item.batch) have a NULL key" in said
    # None left: nothing to say; one back: said again.
    change(delete(Item).where(Item.batch.is_(None)))
    assert said_by_rebuilds(2) == []
    change(update(Item).where(Item.id == 1).values(batch=None))
    (said,) = said_by_rebuilds(2)
    assert "1 row of paged(..., key=Item.batch) has a NULL key" in said
    # Another provider (another route) says its own.
    other = provider(engine, select(Item.batch), Item.batch)
    with caplog.at_level(logging.WARNING, "flask_marmeon"):
        other.boundaries(10)
    assert "1 row of" in caplog.records[-1].getMessage()


def test_the_boundaries_query_on_postgresql_reads_the_index_alone(
    postgres_url: str,
) -> None:
    engine = create_engine(postgres_url, poolclass=NullPool)
    with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as c:
        c.execute(
            text(
                "CREATE TABLE big AS SELECT n AS id, n % 3 = 0 AS listed"
                " FROM generate_series(1, 200000) AS n"
            )
        )
        c.execute(text("ALTER TABLE big ADD PRIMARY KEY (id)"))
        c.execute(text("VACUUM ANALYZE big"))
    table = Table(
        "big",
        MetaData(),
        Column("id", Integer, primary_key=True),
        Column("listed", Boolean),
    )
    whole = provider(engine, select(table.c.id), table.c.id)
    some = provider(engine, select(table.c.id).where(table.c.listed), table.c.id)
    for made, kind, expected in (
        (whole, "Index Only Scan", list(range(1, 200001, 5000))),
        # The statement's WHERE reads the rows too, along the same index.
        (some, "Index Scan", list(range(3, 200001, 15000))),
    ):
        query = made.boundaries_query(5000)
        sql = str(query.compile(engine, compile_kwargs={"literal_binds": True}))
        with engine.connect() as c:
            plan = [
                row[0] for row in c.execute(text("EXPLAIN (ANALYZE, COSTS OFF) " + sql))
            ]
            starts = list(c.execute(query).scalars())
        assert starts == expected
        shown = "\n".join(plan)
        assert f"{kind} using big_pkey" in shown, shown
        # No window, no sort of the table: the one sort is of the starts.
        assert "WindowAgg" not in shown and "Seq Scan" not in shown, shown
        sorts = [line for line in plan if "Sort Key" in line]
        assert len(sorts) == 1 and "marmeon_starts.start" in sorts[0], shown
    engine.dispose()


def test_an_outer_join_s_null_keys_are_said(
    engine: Engine, caplog: pytest.LogCaptureFixture
) -> None:
    fill(engine, 20)
    with Session(engine) as session:
        session.add(Shelf(id=6, open=True))  # no item on it
        session.commit()
    statement = (
        select(Item.id, Shelf.id.label("shelf"))
        .select_from(Shelf)
        .outerjoin(Item, Item.shelf_id == Shelf.id)
    )
    made = provider(engine, statement, Item.id)
    with caplog.at_level(logging.WARNING, "flask_marmeon"):
        assert made.boundaries(10) == [1, 11]
    (said,) = [r.getMessage() for r in caplog.records]
    assert "1 row of paged(..., key=Item.id) has a NULL key, so it is in" in said
    # The key on the side that is always there: no NULL to count.
    asked: list[str] = []
    event.listen(engine, "before_cursor_execute", lambda *a: asked.append(a[2]))
    kept = (
        select(Item.id, Shelf.open)
        .select_from(Item)
        .outerjoin(Shelf, Item.shelf_id == Shelf.id)
    )
    with caplog.at_level(logging.WARNING, "flask_marmeon"):
        assert provider(engine, kept, Item.id).boundaries(10) == [1, 11]
    assert len(asked) == 1 and "WITH RECURSIVE" in asked[0]  # no count


def test_a_key_without_an_index_is_said_once_per_app(
    engine: Engine, caplog: pytest.LogCaptureFixture
) -> None:
    fill(engine, 30)
    made = provider(engine, select(Item.price, Item.id), Item.price)
    app = Flask("shop")
    Marmeon(app)
    with caplog.at_level(logging.WARNING, "flask_marmeon"):
        with app.app_context():
            check_parts(engine, made, Item.price, 10)
            made.boundaries(10)
    said = [r.getMessage() for r in caplog.records]
    assert said == [
        "Sitemap: paged(..., key=Item.price): the model declares no index on"
        " item.price. Where parts begin is found by stepping along the key's"
        " index; without one, every step reads the whole table. Add index=True"
        " to the column (or an Index in the database), or use the primary key."
    ]
    # Indexed keys, however declared: nothing said.
    caplog.clear()
    with caplog.at_level(logging.WARNING, "flask_marmeon"):
        for column in (Item.id, Item.slug, Item.rank, Item.token):
            provider(engine, select(column), column).boundaries(10)
    assert not caplog.records
