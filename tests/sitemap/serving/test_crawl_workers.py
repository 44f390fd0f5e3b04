"""Every crawl lists each row once while rows come and go, as issue 27's
team ran it: real PostgreSQL, real Redis, gunicorn with four sync workers;
a thread inserts and deletes rows all over the key range while a crawler
reads the index and every part over HTTP, again and again."""

from __future__ import annotations

import threading
import time
from email.utils import parsedate_to_datetime
from pathlib import Path

from sqlalchemy import create_engine, text
from sqlalchemy.pool import NullPool

from ..conftest import Start, locs
from ..gunicorn_app import make_table
from ..servers import PARTS, Gunicorn, answer_times, asked_meanwhile
from ..tables import Table

ORIGIN = "https://notes.example"  # tests/sitemap/gunicorn_app.py's APP_URL


def crawl(server: Gunicorn) -> tuple[list[int], float, float]:
    """One full crawl over HTTP: the index, then each of the paged route's
    parts it names (a 503 asked again); the ids listed, the oldest part's
    Last-Modified, and when the crawl ended."""
    status, _, index = server.get("/sitemap.xml")
    assert status == 200
    ids: list[int] = []
    oldest = time.time()
    for address in [loc for loc in locs(index) if "/sitemap-p-" in loc]:
        path = address.removeprefix(ORIGIN)
        for _ in range(400):
            status, headers, body = server.get(path)
            if status != 503:
                break
            time.sleep(0.05)
        assert status == 200, (path, status)
        modified = parsedate_to_datetime(headers["Last-Modified"])
        oldest = min(oldest, modified.timestamp())
        ids += [int(page.rsplit("/", 1)[1]) for page in locs(body)]
    return ids, oldest, time.time()


def test_every_crawl_of_four_sync_workers_lists_each_row_once(
    postgres_url: str, start_sync: Start
) -> None:
    table = Table(postgres_url)  # 2,000 rows: 22 parts of 100 URLs
    # A TTL of one second: ranges, parts and the index are built again and
    # again, by whichever worker a request finds them stale in.
    server = start_sync(
        database=postgres_url,
        table="ad",
        part_urls=100,
        build_delay=0,
        ttl=1,
    )
    changer = threading.Thread(target=table.change, daemon=True)
    changer.start()
    crawls = 0
    try:
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline or crawls < 3:
            ids, oldest, ended = crawl(server)
            crawls += 1
            table.check_crawl(crawls, ids, oldest, ended)
    finally:
        table.stop.set()
        changer.join(5)
    assert table.changes > 30 and crawls >= 3
    assert " 500 " not in server.text() and "Traceback" not in server.text()


def test_pages_are_answered_while_a_table_lock_holds_every_build(
    postgres_url: str, start_sync: Start, tmp_path: Path
) -> None:
    """Issue 27: a health check that never touches the database took 39 s
    while a table lock held one build. Here a lock holds every build of
    16 parts asked at once, on four sync workers."""
    make_table(tmp_path, 200, postgres_url)  # 20 parts of 10
    server = start_sync(
        database=postgres_url,
        build_delay=0,
    )
    assert server.get("/sitemap.xml")[0] == 200  # the ranges, before the lock
    engine = create_engine(postgres_url, poolclass=NullPool)
    holder = engine.connect()
    transaction = holder.begin()
    holder.execute(text("LOCK TABLE p IN ACCESS EXCLUSIVE MODE"))
    try:
        with asked_meanwhile(server, PARTS) as parts:
            took = answer_times(server, ["/n/1", "/sitemap.xml"])
        # Nobody waited for a build: each part asked is a 503 at once.
        assert [status for status, _, _ in parts] == [503] * 16
        assert max(took) <= 1, sorted(took)[-3:]
        # The builds are still held by the lock, seconds on.
        assert server.get("/sitemap-p-1.xml")[0] == 503
    finally:
        transaction.rollback()
        holder.close()
        engine.dispose()
    server.wait_for_parts(range(1, 17))
