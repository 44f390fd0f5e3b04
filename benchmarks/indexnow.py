"""IndexNow: the cost of finding what changed (issue 30, "Speed").

1. A plain provider of 1,000,000 entries, 1,000 of them changed after the
   watermark: :func:`flask_marmeon.sitemap.changes.changed_addresses`
   against the provider's own time to yield its entries (the best of
   ``--repeat`` runs each, in the same process). Target: at most 1.2x.
2. A real PostgreSQL (``tests/postgres.py``'s server) with ``--rows``
   (10,000,000) rows, ``updated_at`` indexed, 1,000 of them changed:
   ``paged(..., last_modified=Product.updated_at)`` finds them reading only
   those rows (counted: the rows made into entries). Target: under 1 s.

    python benchmarks/indexnow.py [--rows 10000000] [--entries 1000000]
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Iterator
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from flask import Flask  # noqa: E402
from sqlalchemy import DateTime, create_engine, select  # noqa: E402
from sqlalchemy.orm import (  # noqa: E402
    DeclarativeBase,
    Mapped,
    mapped_column,
    sessionmaker,
)
from sqlalchemy.pool import NullPool  # noqa: E402

from flask_marmeon import Marmeon, SitemapEntry, everyone  # noqa: E402
from flask_marmeon.sitemap.changes import changed_addresses  # noqa: E402
from flask_marmeon.sqlalchemy import paged  # noqa: E402

ORIGIN = "https://shop.example"
CHANGED = 1_000
WATERMARK = datetime(2026, 6, 1, tzinfo=timezone.utc)
BEFORE = WATERMARK - timedelta(days=30)
AFTER = WATERMARK + timedelta(hours=1)


class Base(DeclarativeBase):
    pass


class Product(Base):
    __tablename__ = "product"
    id: Mapped[int] = mapped_column(primary_key=True)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


def best(run: Callable[[], Any], repeat: int) -> float:
    """The least CPU time of ``repeat`` runs (the machine is shared: CPU
    time moves less than wall time)."""
    times = []
    for _ in range(repeat):
        started = time.process_time()
        run()
        times.append(time.process_time() - started)
    return min(times)


def plain(entries: int, repeat: int) -> None:
    every = entries // CHANGED

    def provider() -> Iterator[SitemapEntry]:
        for n in range(entries):
            yield SitemapEntry({"n": n}, AFTER if n % every == 0 else BEFORE)

    app = Flask("bench")
    app.config["APP_URL"] = ORIGIN
    Marmeon(app)
    app.get("/p/<int:n>", sitemap=provider, authorize=everyone)(lambda n: "p")
    found = changed_addresses(app, WATERMARK)
    assert len(found) == CHANGED, len(found)

    def drain() -> None:
        for _ in provider():
            pass

    # Taken in turns, so that a busy moment of the machine hits both.
    own = finding = float("inf")
    for _ in range(repeat):
        own = min(own, best(drain, 1))
        finding = min(finding, best(lambda: changed_addresses(app, WATERMARK), 1))
    ratio = finding / own
    print(f"plain provider, {entries:,} entries, {CHANGED:,} changed")
    print(f"  the provider alone       {own:8.3f} s CPU")
    print(
        f"  finding the changes      {finding:8.3f} s CPU  {ratio:.2f}x"
        " (target <= 1.2x)"
    )


def postgres(rows: int, repeat: int) -> None:
    import psycopg

    from tests.postgres import PostgresServer

    server = PostgresServer()
    try:
        started = time.perf_counter()
        with psycopg.connect(server.dsn("postgres"), autocommit=True) as db:
            db.execute(
                "CREATE TABLE product (id bigint NOT NULL,"
                " updated_at timestamptz NOT NULL)"
            )
            db.execute(
                "INSERT INTO product SELECT n, %s FROM generate_series(1, %s) AS n",
                (BEFORE, rows),
            )
            db.execute("ALTER TABLE product ADD PRIMARY KEY (id)")
            db.execute("CREATE INDEX product_updated_at ON product (updated_at)")
            step = rows // CHANGED
            db.execute(
                "UPDATE product SET updated_at = %s WHERE id %% %s = 0",
                (AFTER, step),
            )
            db.execute("VACUUM ANALYZE product")
        loaded = time.perf_counter() - started
        print(f"\nPostgreSQL, {rows:,} rows loaded in {loaded:.0f} s")
        engine = create_engine(server.url, poolclass=NullPool)
        read = [0]

        def entry(row: Any) -> SitemapEntry:
            read[0] += 1
            return SitemapEntry({"product_id": row.id}, row.updated_at)

        app = Flask("bench_pg")
        app.config["APP_URL"] = ORIGIN
        Marmeon(app)
        app.add_url_rule(
            "/products/<int:product_id>",
            "product",
            lambda product_id: "p",
            sitemap=paged(
                select(Product.id, Product.updated_at),
                key=Product.id,
                entry=entry,
                last_modified=Product.updated_at,
                session=sessionmaker(engine),
            ),
            authorize=everyone,
        )
        found = changed_addresses(app, WATERMARK)
        assert len(found) == CHANGED and read[0] == CHANGED, (len(found), read[0])
        took = float("inf")
        for _ in range(repeat):
            started = time.perf_counter()
            changed_addresses(app, WATERMARK)
            took = min(took, time.perf_counter() - started)
        print(
            f"  last_modified=: {CHANGED:,} changed rows found, {CHANGED:,} rows read"
        )
        print(f"  finding the changes      {took:8.3f} s wall  (target < 1 s)")
        engine.dispose()
    finally:
        server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entries", type=int, default=1_000_000)
    parser.add_argument("--rows", type=int, default=10_000_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--skip-postgres", action="store_true")
    args = parser.parse_args()
    plain(args.entries, args.repeat)
    if not args.skip_postgres:
        postgres(args.rows, args.repeat)


if __name__ == "__main__":
    main()
