"""The database of paged()'s key tests (tests/paged_query/items.py)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from sqlalchemy import Engine

from tests.paged_query.items import tables


@pytest.fixture
def engine(database_url: str) -> Iterator[Engine]:
    """A database of each kind (SQLite, PostgreSQL: ``database_url``), with
    the tables and no rows."""
    yield from tables(database_url)
