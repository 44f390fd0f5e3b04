"""The items of paged()'s key tests (tests/paged_query/test_keys.py,
tests/paged_query/test_boundary_steps.py): a model whose columns are keys of every
kind (unique, repeating, strings, UUIDs, a descending index, none), rows to
fill it, and the rule for where parts begin computed in Python over every
key, to hold the database's answer against."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

from sqlalchemy import Engine, ForeignKey, Index, Select, String, Uuid, create_engine
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column, sessionmaker
from sqlalchemy.pool import NullPool

from flask_marmeon.sqlalchemy import SqlPaged, paged


class Base(DeclarativeBase):
    pass


class Shelf(Base):
    __tablename__ = "shelf"
    id: Mapped[int] = mapped_column(primary_key=True)
    open: Mapped[bool]


class Item(Base):
    __tablename__ = "item"
    id: Mapped[int] = mapped_column(primary_key=True)
    shelf_id: Mapped[int] = mapped_column(ForeignKey("shelf.id"))
    listed: Mapped[bool]
    # Repeats (many rows per value), some NULL; indexed.
    batch: Mapped[int | None] = mapped_column(index=True)
    slug: Mapped[str] = mapped_column(String(40), unique=True)
    token: Mapped[uuid.UUID] = mapped_column(Uuid, unique=True)
    # Indexed in descending order only.
    rank: Mapped[int]
    # No index.
    price: Mapped[int]


Index("item_rank_desc", Item.rank.desc(), unique=True)


def tables(url: str) -> Iterator[Engine]:
    """An engine of the database at ``url`` with the tables and no rows
    (for an ``engine`` fixture over ``database_url``)."""
    made = create_engine(url, poolclass=NullPool)
    Base.metadata.create_all(made)
    yield made
    made.dispose()


def fill(engine: Engine, count: int) -> None:
    """Items 1..count on shelves 1..5 (shelf 5 closed), every 3rd unlisted;
    batches of 7 rows with every 11th item's NULL, and 40 rows of batch
    1000 (more than a part of 10 holds)."""
    with Session(engine) as session:
        session.add_all(Shelf(id=n, open=n != 5) for n in range(1, 6))
        session.flush()  # no relationship tells the order of the inserts
        session.add_all(
            Item(
                id=n,
                shelf_id=1 + n % 5,
                listed=n % 3 != 0,
                batch=None if n % 11 == 0 else (1000 if 50 < n <= 90 else n // 7),
                slug=f"item-{n * 7919 % 1009:04d}",
                token=uuid.UUID(int=n * 104729 % 2**64),
                rank=count - n,
                price=n * 37 % 101,
            )
            for n in range(1, count + 1)
        )
        session.commit()


def provider(engine: Engine, statement: Any, key: Any) -> SqlPaged:
    made = paged(
        statement, key=key, entry=lambda row: row, session=sessionmaker(engine)
    )
    assert made.problems() == []
    return made


def expected_starts(keys: list[Any], size: int) -> list[Any]:
    """The rule, over every key in the database's order: the first key;
    then the key ``size`` rows on from the last start, or, when that is the
    same key (it has more rows than a part), the next key."""
    starts: list[Any] = []
    at = 0
    while at < len(keys):
        starts.append(keys[at])
        ahead = at + size
        if ahead < len(keys) and keys[ahead] == keys[at]:
            while ahead < len(keys) and keys[ahead] == keys[at]:
                ahead += 1
        # A part begins with the first row of its key.
        while at < ahead < len(keys) and keys[ahead - 1] == keys[ahead]:
            ahead -= 1
        at = ahead
    return starts


def every_key(engine: Engine, statement: Select[Any], key: Any) -> list[Any]:
    """The statement's keys in the database's own order (its collation)."""
    keys = statement.with_only_columns(key, maintain_column_froms=True)
    query = keys.where(key.is_not(None)).order_by(None).order_by(key)
    with Session(engine) as session:
        return list(session.execute(query).scalars())


def check_parts(engine: Engine, made: SqlPaged, key: Any, size: int) -> list[Any]:
    """Where parts begin, checked against the rule; every row whose key is
    not NULL in exactly one part, in key order, none over ``size`` unless
    one key has more rows than that."""
    statement = made.statement
    assert isinstance(statement, Select)
    keys = every_key(engine, statement, key)
    starts = made.boundaries(size)
    assert starts == expected_starts(keys, size)
    seen: list[Any] = []
    for number, start in enumerate(starts):
        stop = starts[number + 1] if number + 1 < len(starts) else None
        rows = list(made.entries(start, stop, 10 * size))
        part = [getattr(row, key.key) for row in rows]
        assert len(part) <= size or len(set(part)) == 1, part
        seen += part
    assert seen == keys
    return starts
