"""Builds of parts never crowd out a process: at most two at once, no sync
worker held by a request waiting for one, and a killed builder's lock taken
over within seconds (real gunicorn sync workers, one real Redis)."""

from __future__ import annotations

import os
import signal
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import create_engine, text
from sqlalchemy.pool import NullPool

from flask_marmeon import SitemapEntry, everyone

from ..conftest import Start
from ..servers import RedisServer

ORIGIN = "https://shop.example"


@pytest.fixture
def redis_server(tmp_path: Path) -> Iterator[RedisServer]:
    server = RedisServer(tmp_path)
    yield server
    server.stop()


class Gate:
    """A paged provider whose parts wait for ``go``; counts how many build at once."""

    def __init__(self, keys: list[int]) -> None:
        self.keys = keys
        self.go = threading.Event()
        self.lock = threading.Lock()
        self.now = 0
        self.most = 0

    def boundaries(self, size: int) -> list[int]:
        return self.keys[::size]

    def entries(self, start: int, stop: int | None, limit: int) -> Iterator[object]:
        with self.lock:
            self.now += 1
            self.most = max(self.most, self.now)
        try:
            self.go.wait(10)
            end = len(self.keys) if stop is None else self.keys.index(stop)
            for key in self.keys[self.keys.index(start) : end][:limit]:
                yield SitemapEntry({"n": key})
        finally:
            with self.lock:
                self.now -= 1


def test_at_most_two_parts_build_at_once_the_rest_wait_then_503(
    make_app: Callable[..., Flask],
) -> None:
    provider = Gate(list(range(1, 61)))
    app = make_app(
        APP_URL=ORIGIN, MARMEON_SITEMAP_MAX_URLS=10, MARMEON_SITEMAP_WAIT=0.5
    )
    app.add_url_rule("/p/<int:n>", "p", str, authorize=everyone, sitemap=provider)
    results: dict[int, Any] = {}

    def ask(number: int) -> None:
        results[number] = app.test_client().get(f"/sitemap-p-{number}.xml")

    threads = [threading.Thread(target=ask, args=(n,)) for n in range(1, 7)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10)
    assert provider.most == 2
    assert {response.status_code for response in results.values()} == {503}
    assert all(int(r.headers["Retry-After"]) >= 1 for r in results.values())
    provider.go.set()
    deadline = time.monotonic() + 10
    for number in range(1, 7):
        while app.test_client().get(f"/sitemap-p-{number}.xml").status_code != 200:
            assert time.monotonic() < deadline
            time.sleep(0.05)
    assert provider.most == 2


def shop(directory: Path, rows: int) -> None:
    # A connection's own "with" commits but does not close it (Python 3.13
    # warns of each one the garbage collector closes).
    with closing(sqlite3.connect(directory / "shop.db")) as database, database:
        database.execute("CREATE TABLE p (id INTEGER PRIMARY KEY)")
        database.executemany(
            "INSERT INTO p VALUES (?)", [(n,) for n in range(1, rows + 1)]
        )


def table_of(url: str, rows: int) -> None:
    """The paged route's table ``p`` of ids 1 to ``rows``, in the database
    at ``url`` (SQLite, and the real PostgreSQL as issue 27's team ran it)."""
    engine = create_engine(url, poolclass=NullPool)
    with engine.begin() as connection:
        connection.execute(text("CREATE TABLE p (id INTEGER PRIMARY KEY)"))
        connection.execute(
            text("INSERT INTO p (id) VALUES (:n)"),
            [{"n": n} for n in range(1, rows + 1)],
        )
    engine.dispose()


def test_sync_workers_answer_pages_while_many_unbuilt_parts_are_asked(
    redis_server: RedisServer, start: Start, database_url: str
) -> None:
    table_of(database_url, 200)  # 20 parts of 10
    # Each part's read takes a second: a request waiting for it would hold
    # its sync worker that long.
    server = start(
        workers=4,
        worker_class="sync",
        redis=redis_server.url,
        paged=1,
        database=database_url,
        build_delay=1,
    )
    assert server.get("/sitemap.xml")[0] == 200
    parts: dict[int, tuple[int, dict[str, str], bytes]] = {}

    def ask(number: int) -> None:
        parts[number] = server.get(f"/sitemap-p-{number}.xml")

    threads = [threading.Thread(target=ask, args=(n,)) for n in range(1, 17)]
    for thread in threads:
        thread.start()
    took: list[float] = []
    for _ in range(20):
        started = time.monotonic()
        assert server.get("/n/1")[0] == 200
        took.append(time.monotonic() - started)
        time.sleep(0.05)
    for thread in threads:
        thread.join(10)
    assert max(took) <= 1, sorted(took)[-3:]
    assert {status for status, _, _ in parts.values()} <= {200, 503}
    waited = [headers for status, headers, _ in parts.values() if status == 503]
    assert waited and all(int(h["Retry-After"]) >= 1 for h in waited)
    deadline = time.monotonic() + 30
    for number in range(1, 17):
        while server.get(f"/sitemap-p-{number}.xml")[0] != 200:
            assert time.monotonic() < deadline
            time.sleep(0.2)


def test_a_killed_builder_s_part_is_built_by_another_worker_within_seconds(
    redis_server: RedisServer, start: Start, tmp_path: Path, database_url: str
) -> None:
    table_of(database_url, 50)
    (tmp_path / "part_mode").write_text("hang")
    server = start(
        workers=4,
        worker_class="sync",
        redis=redis_server.url,
        paged=1,
        database=database_url,
        build_delay=0,
    )
    assert server.get("/sitemap-p-3.xml")[0] == 503  # a sync worker: at once
    reads = tmp_path / "part_reads"
    deadline = time.monotonic() + 10
    while not reads.exists() or not reads.read_text().split():
        assert time.monotonic() < deadline
        time.sleep(0.05)
    (builder,) = reads.read_text().split()
    os.kill(int(builder), signal.SIGKILL)
    (tmp_path / "part_mode").write_text("ok")
    killed = time.monotonic()
    while server.get("/sitemap-p-3.xml")[0] != 200:
        assert time.monotonic() - killed < 15, "the dead builder's lock still holds"
        time.sleep(0.2)
    assert time.monotonic() - killed < 10
    assert builder not in reads.read_text().split()[1:]
    assert "Is a sitemap provider hanging?" not in server.text()
