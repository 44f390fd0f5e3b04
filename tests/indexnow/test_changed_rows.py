"""paged(..., last_modified=Model.updated_at): finding what changed reads
only the changed rows (a WHERE on the column), on SQLite and PostgreSQL
(``database_url``), counted by the rows turned into entries and by the
statements sent."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date, datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import Engine, create_engine, event, select, update
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column, sessionmaker
from sqlalchemy.pool import NullPool

from flask_marmeon import Marmeon, SitemapEntry, check_routes, everyone
from flask_marmeon.indexnow import submit_changed
from flask_marmeon.sqlalchemy import paged

ORIGIN = "https://shop.example"
ROWS = 2_000
BEFORE = datetime(2026, 1, 1, 12, 0)  # naive: UTC, as the column holds it
WATERMARK = datetime(2026, 6, 1, tzinfo=timezone.utc)


class Base(DeclarativeBase):
    pass


class Product(Base):
    __tablename__ = "indexnow_product"
    id: Mapped[int] = mapped_column(primary_key=True)
    listed: Mapped[bool]
    updated_at: Mapped[datetime] = mapped_column(index=True)
    released: Mapped[date]


@pytest.fixture
def engine(database_url: str) -> Iterator[Engine]:
    made = create_engine(database_url, poolclass=NullPool)
    Base.metadata.drop_all(made)
    Base.metadata.create_all(made)
    with Session(made) as session:
        session.add_all(
            Product(id=n, listed=n % 10 != 0, updated_at=BEFORE, released=BEFORE.date())
            for n in range(1, ROWS + 1)
        )
        session.commit()
    yield made
    Base.metadata.drop_all(made)
    made.dispose()


def touch(engine: Engine, ids: list[int], when: datetime) -> None:
    with Session(engine) as session:
        session.execute(
            update(Product).where(Product.id.in_(ids)).values(updated_at=when)
        )
        session.commit()


class Shop:
    """The app, and what its provider read: rows made into entries, and the
    statements sent."""

    def __init__(
        self,
        engine: Engine,
        tmp_path: Path,
        column: Any = Product.updated_at,
        **options: Any,
    ) -> None:
        self.rows = 0
        self.statements: list[str] = []
        self.app = Flask("shop", instance_path=str(tmp_path))
        self.app.config.update(APP_URL=ORIGIN, MARMEON_INDEXNOW_KEY="shop-key-0001")
        Marmeon(self.app)

        @event.listens_for(engine, "before_cursor_execute")
        def count(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
            if "indexnow_product" in statement:
                self.statements.append(statement)

        def entry(row: Any) -> SitemapEntry:
            self.rows += 1
            return SitemapEntry({"product_id": row.id}, getattr(row, column.key))

        provider = paged(
            select(Product.id, column).where(Product.listed),
            key=Product.id,
            entry=entry,
            session=sessionmaker(engine),
            **options,
        )
        self.app.add_url_rule(
            "/products/<int:product_id>",
            "product",
            lambda product_id: "product",
            sitemap=provider,
            authorize=everyone,
        )

    def changed(self) -> list[str]:
        self.rows = 0
        self.statements.clear()
        done = submit_changed(self.app, since=WATERMARK, dry_run=True)
        return list(done.urls)


def test_only_the_changed_rows_are_read(engine: Engine, tmp_path: Path) -> None:
    shop = Shop(engine, tmp_path, last_modified=Product.updated_at)
    assert check_routes(shop.app) == []
    assert shop.changed() == [] and shop.rows == 0
    # Ten rows change after the watermark (two of them unlisted).
    touched = [5, 10, 333, 1999, *range(700, 706)]
    touch(engine, touched, WATERMARK + timedelta(hours=1))
    urls = shop.changed()
    ids = [n for n in touched if n % 10]
    assert urls == [f"{ORIGIN}/products/{n}" for n in sorted(ids)]
    assert shop.rows == len(ids)  # the changed rows, not 2,000
    (statement,) = shop.statements  # one query, no boundaries
    assert "updated_at >" in statement and "WITH RECURSIVE" not in statement


def test_without_last_modified_every_row_is_read(
    engine: Engine, tmp_path: Path
) -> None:
    # The same answer, by every part: the cost last_modified= spares.
    shop = Shop(engine, tmp_path)
    touch(engine, [5, 333], WATERMARK + timedelta(hours=1))
    assert shop.changed() == [f"{ORIGIN}/products/5", f"{ORIGIN}/products/333"]
    assert shop.rows == ROWS - ROWS // 10


def test_an_aware_watermark_meets_a_naive_column(
    engine: Engine, tmp_path: Path
) -> None:
    # The column holds UTC without a zone: a change a second after the
    # watermark is found, one a second before is not.
    shop = Shop(engine, tmp_path, last_modified=Product.updated_at)
    naive = WATERMARK.replace(tzinfo=None)
    touch(engine, [1], naive + timedelta(seconds=1))
    touch(engine, [2], naive - timedelta(seconds=1))
    assert shop.changed() == [f"{ORIGIN}/products/1"]


def test_a_date_column_counts_its_whole_day(engine: Engine, tmp_path: Path) -> None:
    shop = Shop(
        engine, tmp_path, column=Product.released, last_modified=Product.released
    )
    with Session(engine) as session:
        session.execute(
            update(Product).where(Product.id == 3).values(released=WATERMARK.date())
        )
        session.commit()
    touch(engine, [3], WATERMARK + timedelta(minutes=1))
    assert shop.changed() == [f"{ORIGIN}/products/3"]
    assert shop.rows == 1


def test_a_last_modified_that_is_not_a_date_column_is_h10(
    engine: Engine, tmp_path: Path
) -> None:
    for wrong in (Product.listed, "updated", 3):
        shop = Shop(engine, tmp_path, last_modified=wrong)
        (problem,) = check_routes(shop.app)
        assert "last_modified=" in str(problem) and "updated_at" in str(problem)
