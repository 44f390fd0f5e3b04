"""The app that gunicorn serves in the tests about processes (and in
benchmarks/sitemap_load.py), configured by environment variables:

- ``MARMEON_TEST_DIR``: a directory; ``builds`` there gets one line per call
  of the provider (``pid``), ``done`` one line per build that gave its
  entries, and ``mode`` says what the provider does:
  ``ok`` (the default), ``raise``, ``hang`` (until ``mode`` changes, 30 s
  at most) or ``garbage``.
- ``MARMEON_TEST_REDIS``: a Redis URL for ``sitemap_cache``; else
  ``MARMEON_TEST_MEMCACHED``, a memcached's ``host:port``; else none.
- ``MARMEON_TEST_URLS`` (3), ``MARMEON_TEST_TTL`` (300),
  ``MARMEON_TEST_WAIT`` (20), ``MARMEON_TEST_INDEX`` (0),
  ``MARMEON_TEST_BUILD_DELAY`` (0.3 s: long enough for concurrent requests
  to meet the build).
- ``MARMEON_TEST_CLOCK`` (0): 1 makes the sitemap's clock (every file's
  cache's) the wall clock plus the seconds in ``clock`` in the directory, which
  :func:`advance` moves on (every worker reads it at each look).
- ``MARMEON_TEST_PAGED`` (0): 1 adds ``/p/<int:n>``, a ``paged()`` route over
  the SQLite file ``shop.db`` in the directory (a table ``p`` of ids, made
  by the test), 10 ids a part; each query of a part's range adds a line to
  ``part_reads`` there (and waits the build delay, so concurrent requests
  meet it; while ``part_mode`` there says ``hang``, 30 s at most).
  ``MARMEON_TEST_LASTMOD`` (0): 1 gives id ``n`` the last_modified day
  2026-01-01 plus ``n`` days. ``MARMEON_TEST_DATABASE``: an SQLAlchemy URL
  to read instead (its table ``MARMEON_TEST_TABLE``, default ``p``, of
  ids); ``MARMEON_TEST_PART_URLS`` (10): URLs a part holds.

Every answer says which worker gave it (``X-Test-Worker``: its pid).
"""

from __future__ import annotations

import logging
import os
import sys
import time
from collections.abc import Callable, Iterator
from datetime import date, timedelta
from pathlib import Path
from typing import Any

from flask import Flask

from flask_marmeon import Marmeon, SitemapEntry, everyone
from flask_marmeon.sitemap.state import sitemap_of


def _mode(directory: Path) -> str:
    try:
        return (directory / "mode").read_text().strip() or "ok"
    except FileNotFoundError:
        return "ok"


def _hangs(path: Path) -> bool:
    try:
        return path.read_text().strip() == "hang"
    except FileNotFoundError:
        return False


def make_table(directory: Path, rows: int, url: str | None = None) -> None:
    """The paged route's table ``p`` of ids 1 to ``rows``: in ``shop.db`` in
    ``directory``, or in the database at ``url`` (``MARMEON_TEST_DATABASE``:
    SQLite, or the real PostgreSQL as issue 27's team ran it)."""
    from sqlalchemy import create_engine, text
    from sqlalchemy.pool import NullPool

    engine = create_engine(
        url or f"sqlite:///{directory / 'shop.db'}", poolclass=NullPool
    )
    with engine.begin() as connection:
        connection.execute(text("CREATE TABLE p (id INTEGER PRIMARY KEY)"))
        connection.execute(
            text("INSERT INTO p (id) VALUES (:n)"),
            [{"n": n} for n in range(1, rows + 1)],
        )
    engine.dispose()


def advance(directory: Path, seconds: float) -> None:
    """Move the sitemap's clock ``seconds`` on, in every worker."""
    path = directory / "clock"
    ahead = float(path.read_text()) if path.exists() else 0.0
    # Replaced whole, so that a worker never reads it half written.
    (directory / "clock.new").write_text(f"{ahead + seconds}")
    os.replace(directory / "clock.new", path)


def _clock(directory: Path) -> Callable[[], float]:
    path = directory / "clock"

    def now() -> float:
        try:
            return time.time() + float(path.read_text())
        except FileNotFoundError:
            return time.time()

    return now


def create() -> Flask:
    """Build the app from the environment."""
    env = os.environ
    directory = Path(env["MARMEON_TEST_DIR"])
    urls = int(env.get("MARMEON_TEST_URLS", "3"))
    delay = float(env.get("MARMEON_TEST_BUILD_DELAY", "0.3"))
    logging.basicConfig(
        level=logging.INFO,
        stream=sys.stderr,
        format="%(process)d %(levelname)s %(name)s: %(message)s",
    )
    app = Flask(__name__)
    app.config.update(
        APP_URL="https://notes.example",
        MARMEON_SITEMAP_TTL=float(env.get("MARMEON_TEST_TTL", "300")),
        MARMEON_SITEMAP_WAIT=float(env.get("MARMEON_TEST_WAIT", "20")),
        MARMEON_SITEMAP_RETRY_AFTER=float(env.get("MARMEON_TEST_RETRY_AFTER", "30")),
        MARMEON_SITEMAP_INDEX=env.get("MARMEON_TEST_INDEX", "0") == "1",
    )
    if env.get("MARMEON_TEST_PAGED") == "1":
        # Ten ids a part of the paged route.
        app.config["MARMEON_SITEMAP_MAX_URLS"] = int(
            env.get("MARMEON_TEST_PART_URLS", "10")
        )
    cache = None
    if env.get("MARMEON_TEST_REDIS"):
        from flask_caching import Cache

        cache = Cache(
            app,
            config={
                "CACHE_TYPE": "RedisCache",
                "CACHE_REDIS_URL": env["MARMEON_TEST_REDIS"],
                # A Redis that hangs is then an error after half a second.
                "CACHE_OPTIONS": {"socket_timeout": 0.5, "socket_connect_timeout": 0.5},
            },
        )
    elif env.get("MARMEON_TEST_MEMCACHED"):
        from flask_caching import Cache

        cache = Cache(
            app,
            config={
                "CACHE_TYPE": "MemcachedCache",
                "CACHE_MEMCACHED_SERVERS": [env["MARMEON_TEST_MEMCACHED"]],
            },
        )
    Marmeon(app, sitemap_cache=cache)

    @app.after_request
    def worker(response: Any) -> Any:
        # Which worker answered (the tests about processes tell them apart).
        response.headers["X-Test-Worker"] = str(os.getpid())
        return response

    if env.get("MARMEON_TEST_CLOCK") == "1":
        sitemap_of(app).files.clock = _clock(directory)

    def notes() -> Iterator[SitemapEntry]:
        with (directory / "builds").open("a") as log:
            log.write(f"{os.getpid()}\n")
        time.sleep(delay)
        mode = _mode(directory)
        deadline = time.monotonic() + 30
        while mode == "hang" and time.monotonic() < deadline:
            time.sleep(0.05)
            mode = _mode(directory)
        if mode == "raise":
            raise RuntimeError("database down")
        if mode == "garbage":
            yield "not an entry"  # type: ignore[misc]
        for n in range(1, urls + 1):
            yield SitemapEntry({"n": n})
        with (directory / "done").open("a") as log:
            log.write(f"{os.getpid()}\n")

    @app.get("/n/<int:n>", sitemap=notes, authorize=everyone)
    def note(n: int) -> str:
        return f"note {n}"

    if env.get("MARMEON_TEST_PAGED") == "1":
        _add_paged(app, directory, delay)
    return app


def _add_paged(app: Flask, directory: Path, delay: float) -> None:
    from sqlalchemy import Column, Integer, MetaData, Table, create_engine, event
    from sqlalchemy.orm import sessionmaker
    from sqlalchemy.pool import NullPool

    from flask_marmeon.sqlalchemy import paged

    database = os.environ.get("MARMEON_TEST_DATABASE")
    if database:
        # No connection kept across requests (nor across gunicorn's fork).
        engine = create_engine(database, poolclass=NullPool)
    else:
        engine = create_engine(f"sqlite:///{directory / 'shop.db'}")
    name = os.environ.get("MARMEON_TEST_TABLE", "p")
    table = Table(name, MetaData(), Column("id", Integer, primary_key=True))

    @event.listens_for(engine, "before_cursor_execute")
    def count(conn: object, cursor: object, statement: str, *args: object) -> None:
        # A part's range (the query saying where parts begin steps with
        # ">=" too, in a WITH RECURSIVE).
        if ">=" in statement and "WITH RECURSIVE" not in statement:
            with (directory / "part_reads").open("a") as log:
                log.write(f"{os.getpid()}\n")
            time.sleep(delay)
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline and _hangs(directory / "part_mode"):
                time.sleep(0.05)

    dated = os.environ.get("MARMEON_TEST_LASTMOD") == "1"

    def entry(row: Any) -> SitemapEntry:
        day = date(2026, 1, 1) + timedelta(days=row.id) if dated else None
        return SitemapEntry({"n": row.id}, last_modified=day)  # /p/<n>

    provider = paged(
        table.select(), key=table.c.id, entry=entry, session=sessionmaker(engine)
    )
    app.add_url_rule(
        "/p/<int:n>", "p", lambda n: f"p {n}", sitemap=provider, authorize=everyone
    )
