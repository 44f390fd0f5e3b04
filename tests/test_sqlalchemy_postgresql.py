"""paged() on a real PostgreSQL: the tests of tests/test_sqlalchemy.py run
again with their database on the server (Debian's, started by the
``postgres_url`` fixture on a free port in a temporary folder)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date

import pytest
from sqlalchemy import create_engine
from sqlalchemy.orm import Session

from tests.test_sqlalchemy import (  # noqa: F401 (collected here on PostgreSQL)
    Base,
    Product,
    test_a_failing_database_is_that_part_s_503_alone,
    test_a_limited_statement_pages_as_the_message_says,
    test_a_localized_page_counts_once_per_locale,
    test_a_part_is_answered_by_a_process_that_never_built_the_index,
    test_parts_are_ranges_of_the_key,
    test_rows_added_after_the_ranges_wait_for_the_next_ones,
    test_rows_that_make_wrong_entries_get_the_usual_messages,
    test_the_statement_s_order_is_not_used_parts_are_in_key_order,
)


@pytest.fixture
def database(postgres_url: str) -> Iterator[tuple[str, list[str]]]:
    """The same products as on SQLite, in a new PostgreSQL database."""
    engine = create_engine(postgres_url)
    Base.metadata.create_all(engine)
    with Session(engine) as session:
        session.add_all(
            Product(id=n, listed=n % 7 != 0, updated=date(2024, 1, 1 + n % 28))
            for n in range(1, 101)
        )
        session.commit()
    engine.dispose()
    yield postgres_url, []
