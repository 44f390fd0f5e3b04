"""How paged() reads its rows: a part's at once (its size and one at most),
the changed rows (any number of them) in batches. On a SQLite file and on
a real PostgreSQL (``database`` in tests/paged_query/conftest.py)."""

from __future__ import annotations

from datetime import date, datetime, timezone
from typing import Any

from sqlalchemy import create_engine, event, select
from sqlalchemy.orm import sessionmaker
from sqlalchemy.pool import NullPool

from flask_marmeon.sqlalchemy import paged

from .shop import Product


def test_a_part_is_fetched_at_once_and_changed_rows_in_batches(
    database: tuple[str, list[str]],
) -> None:
    url, _ = database
    engine = create_engine(url, poolclass=NullPool)
    streamed: list[bool] = []

    @event.listens_for(engine, "before_cursor_execute")
    def note(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        context = args[1]  # (parameters, context, executemany)
        streamed.append(bool(context.execution_options.get("stream_results")))

    made = paged(
        select(Product.id, Product.updated).where(Product.listed),
        key=Product.id,
        # The session's own rows, as before: by name, by position and by
        # the mapped attribute.
        entry=lambda row: (row.id, row[1], row._mapping[Product.updated]),
        session=sessionmaker(engine),
        last_modified=Product.updated,
    )
    try:
        # A part reads at most its size and one rows (build.py): in one go,
        # never a server-side cursor.
        part = list(made.entries(1, 12, 11))
        assert streamed == [False]
        expected = [n for n in range(1, 12) if n % 7 != 0]
        assert part == [
            (n, date(2024, 1, 1 + n), date(2024, 1, 1 + n)) for n in expected
        ]
        # The changed rows may be any number: streamed, in batches.
        changed = list(made.changed(datetime(2024, 1, 27, tzinfo=timezone.utc)))
        assert streamed == [False, True]
        assert [row[0] for row in changed] == [
            n for n in range(1, 101) if n % 7 != 0 and 1 + n % 28 >= 27
        ]
    finally:
        engine.dispose()
