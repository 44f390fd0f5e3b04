"""The databases of paged()'s tests: the key tests' (tests/paged_query/items.py)
and the shop's (tests/paged_query/shop.py)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date

import pytest
from sqlalchemy import Engine, create_engine
from sqlalchemy.orm import Session
from sqlalchemy.pool import NullPool

from tests.paged_query.items import tables

from .shop import Base, Product


@pytest.fixture
def engine(database_url: str) -> Iterator[Engine]:
    """A database of each kind (SQLite, PostgreSQL: ``database_url``), with
    the tables and no rows."""
    yield from tables(database_url)


@pytest.fixture
def database(database_url: str) -> Iterator[tuple[str, list[str]]]:
    """A database of each kind (SQLite, PostgreSQL) with products 1..100
    (every 7th unlisted); the queries it was asked, in order."""
    url = database_url
    engine = create_engine(url, poolclass=NullPool)
    Base.metadata.create_all(engine)
    with Session(engine) as session:
        session.add_all(
            Product(id=n, listed=n % 7 != 0, updated=date(2024, 1, 1 + n % 28))
            for n in range(1, 101)
        )
        session.commit()
    engine.dispose()
    yield url, []
