"""What every worker of ``benchmarks/scale.py`` measures, and the tables it
loads: a worker's memory, the CPU time it and PostgreSQL take, and a
table of keys and dates made by ``generate_series`` and vacuumed as a
live table is.

Also the Flask app both measure, over such a table (``table_app``).

Not a benchmark of its own: ``scale.py`` and ``scale_two_languages.py``
import it (the project root on the path, as ``benchmarks.scale_measure``).
"""

from __future__ import annotations

import gzip
import os
import re
import statistics
import time
from collections.abc import Callable, Sequence
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, TypeVar

from tests.postgres import PostgresServer

#: Row n was last changed at START + n seconds.
START = datetime(2024, 1, 1, tzinfo=timezone.utc)
MiB = 2**20
T = TypeVar("T")
#: The listings app's origin (scale_two_languages.py), which its index names.
ORIGIN = "https://shop.example"
#: URLs a part of flask_marmeon's sitemap holds (MARMEON_SITEMAP_MAX_URLS).
PER_PART = 50_000
_LOC = re.compile(rb"<loc>\s*([^<\s]+)\s*</loc>")


def load(server: PostgresServer, table: str, rows: int) -> float:
    """Create ``table(id bigint primary key, updated_at timestamptz)`` with
    ``rows`` rows; the seconds it took."""
    import psycopg

    started = time.perf_counter()
    with psycopg.connect(server.dsn("postgres"), autocommit=True) as connection:
        connection.execute(
            f"CREATE TABLE {table} (id bigint NOT NULL,"
            " updated_at timestamptz NOT NULL)"
        )
        connection.execute(
            f"INSERT INTO {table} SELECT n, timestamptz '2024-01-01 00:00:00+00'"
            " + n * interval '1 second' FROM generate_series(1, %s) AS n",
            (rows,),
        )
        # The key after the rows: one sort instead of ten million insertions.
        connection.execute(f"ALTER TABLE {table} ADD PRIMARY KEY (id)")
        # As a table that has lived a while: statistics and a visibility map.
        # Right after the load one VACUUM marks only some pages all-visible
        # (measured: none of 5,406, then 1,637, then all): again until all
        # are, as autovacuum has long done for a live table.
        connection.execute(f"VACUUM ANALYZE {table}")
        for _ in range(5):
            pages, visible = connection.execute(
                "SELECT relpages, relallvisible FROM pg_class WHERE relname = %s",
                (table,),
            ).fetchone() or (0, 0)
            if visible >= pages:
                break
            connection.execute(f"VACUUM {table}")
    return time.perf_counter() - started


def memory() -> dict[str, int]:
    """This process's VmRSS and VmHWM (bytes)."""
    fields = {}
    for line in Path("/proc/self/status").read_text().splitlines():
        name, _, value = line.partition(":")
        if name in ("VmRSS", "VmHWM"):
            fields[name] = int(value.split()[0]) * 1024
    return fields


def reset_peak() -> int:
    """Reset VmHWM to the resident set now (Linux's clear_refs 5); that size."""
    Path("/proc/self/clear_refs").write_text("5")
    return memory()["VmRSS"]


def server_cpu(postmaster: int) -> float:
    """CPU seconds used so far by PostgreSQL's processes (the postmaster and
    its children, the backends among them)."""
    total = 0
    # os.listdir, not Path.glob: glob's own look at each /proc/<pid> raises
    # when that process ends meanwhile (Python 3.11's pathlib).
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            text = Path("/proc", pid, "stat").read_text()
        except OSError:  # a process that ended meanwhile
            continue
        fields = text[text.rindex(")") + 2 :].split()
        if int(fields[1]) == postmaster or pid == str(postmaster):
            total += int(fields[11]) + int(fields[12])
    return total / os.sysconf("SC_CLK_TCK")


class Clock:
    """Times requests: wall time, and the CPU time they took in this worker
    and in PostgreSQL (which a loaded machine does not inflate)."""

    def __init__(self, get: Callable[[str], bytes], postmaster: int) -> None:
        self.get = get
        self.postmaster = postmaster
        self.figures: dict[str, Any] = {}

    def __call__(self, name: str, path: str, times: int = 1) -> bytes:
        """GET ``path`` ``times`` times; record the median as ``name``."""
        walls, cpus = [], []
        for _ in range(times):
            wall, cpu, body = self.measure(lambda: self.get(path))
            walls.append(wall)
            cpus.append(cpu)
        self.figures[name] = statistics.median(walls)
        self.figures[name + "_cpu"] = statistics.median(cpus)
        return body

    def measure(self, run: Callable[[], T]) -> tuple[float, float, T]:
        """``run()``'s wall time, CPU time (here and in PostgreSQL) and result."""
        # Reading /proc costs this worker CPU: before the clock starts and
        # after it stops.
        before = server_cpu(self.postmaster)
        cpu = time.process_time()
        started = time.perf_counter()
        body = run()
        wall = time.perf_counter() - started
        cpu = time.process_time() - cpu
        return wall, cpu + server_cpu(self.postmaster) - before, body


# -- the boundaries query's plan ------------------------------------------------


def boundaries_plan(server: PostgresServer, name: str, size: int) -> list[str]:
    """EXPLAIN ANALYZE of paged()'s boundaries query on table ``name``
    (parts of ``size`` rows): the lines that name a scan, a sort, a window
    or the time."""
    import psycopg
    from sqlalchemy import BigInteger, Column, DateTime, MetaData, Table, select
    from sqlalchemy.dialects import postgresql

    from flask_marmeon.sqlalchemy import paged

    table = Table(
        name,
        MetaData(),
        Column("id", BigInteger, primary_key=True),
        Column("updated_at", DateTime(timezone=True)),
    )
    statement = select(table.c.id, table.c.updated_at)
    query = paged(statement, key=table.c.id, entry=dict).boundaries_query(size)
    sql = str(
        query.compile(
            dialect=postgresql.dialect(), compile_kwargs={"literal_binds": True}
        )
    )
    with psycopg.connect(server.dsn("postgres")) as connection:
        plan = [
            str(row[0])
            for row in connection.execute("EXPLAIN (ANALYZE, COSTS OFF) " + sql)
        ]
    words = ("Scan", "Sort", "WindowAgg", "Heap Fetches", "Execution Time")
    return [line for line in plan if any(word in line for word in words)]


def seconds(value: float) -> str:
    return f"{value * 1000:.1f} ms" if value < 1 else f"{value:.2f} s"


def print_table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> None:
    """Columns as wide as their widest cell."""
    widths = [max(len(r[i]) for r in [*rows, header]) for i in range(len(header))]
    for line in [header, *rows]:
        print(
            "  ".join(
                cell.ljust(width) for cell, width in zip(line, widths, strict=True)
            ).rstrip()
        )


def locals_of(index: bytes) -> list[str]:
    """The paths of an index's parts (the index as sent, gzipped or not)."""
    if index[:2] == b"\x1f\x8b":
        index = gzip.decompress(index)
    return [loc.decode().removeprefix(ORIGIN) for loc in _LOC.findall(index)]


def table_app(
    name: str, table: str, url: str, redis: str | None, **config: object
) -> tuple[Any, Any]:
    """A Flask app ``name`` with flask_marmeon over the table ``table`` (id,
    updated_at: see :func:`load`) of the database at ``url``: the app (its
    sitemap shared through ``redis`` when given; ``config`` added to its
    own) and the table's Flask-SQLAlchemy model, for its paged route.

    A part is waited for however long it takes (``MARMEON_SITEMAP_WAIT``
    600 s): the benchmarks measure how long a part takes, and a 503 after
    the usual wait (20 s, on a loaded machine) would hide the figure.
    """
    from flask import Flask
    from flask_sqlalchemy import SQLAlchemy
    from sqlalchemy import BigInteger, DateTime
    from sqlalchemy.orm import DeclarativeBase, mapped_column

    from flask_marmeon import Marmeon

    class Base(DeclarativeBase):
        pass

    db = SQLAlchemy(model_class=Base)

    class Row(db.Model):  # type: ignore[name-defined,misc]
        __tablename__ = table
        # Columns without annotations: this module's annotations are strings
        # that SQLAlchemy would look up among its globals.
        id = mapped_column(BigInteger, primary_key=True)
        updated_at = mapped_column(DateTime(timezone=True), nullable=False)

    app = Flask(name)
    app.config["APP_URL"] = ORIGIN
    app.config["SQLALCHEMY_DATABASE_URI"] = url
    app.config["MARMEON_SITEMAP_MAX_URLS"] = PER_PART
    app.config["MARMEON_SITEMAP_WAIT"] = 600
    app.config.update(config)
    db.init_app(app)
    if redis is None:
        Marmeon(app)
    else:
        from flask_caching import Cache

        shared = Cache(
            app, config={"CACHE_TYPE": "RedisCache", "CACHE_REDIS_URL": redis}
        )
        Marmeon(app, sitemap_cache=shared)
    return app, Row
