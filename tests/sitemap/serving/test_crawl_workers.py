"""Every crawl lists each row once while rows come and go, as issue 27's
team ran it: real PostgreSQL, real Redis, gunicorn with four sync workers;
a thread inserts and deletes rows all over the key range while a crawler
reads the index and every part over HTTP, again and again."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from email.utils import parsedate_to_datetime
from pathlib import Path

import pytest
from lxml import etree

from ..conftest import SM, Start
from ..servers import Gunicorn, RedisServer
from ..test_consistent_parts import Table

ORIGIN = "https://notes.example"  # tests/sitemap/gunicorn_app.py's APP_URL


@pytest.fixture
def redis_server(tmp_path: Path) -> Iterator[RedisServer]:
    server = RedisServer(tmp_path)
    yield server
    server.stop()


def locs(body: bytes) -> list[str]:
    return [loc.text or "" for loc in etree.fromstring(body).iter(f"{SM}loc")]


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
    postgres_url: str, redis_server: RedisServer, start: Start
) -> None:
    table = Table(postgres_url)  # 2,000 rows: 22 parts of 100 URLs
    # A TTL of one second: ranges, parts and the index are built again and
    # again, by whichever worker a request finds them stale in.
    server = start(
        workers=4,
        worker_class="sync",
        redis=redis_server.url,
        paged=1,
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
            twice = sorted({key for key in ids if ids.count(key) > 1})
            assert not twice, f"crawl {crawls}: rows listed twice: {twice[:10]}"
            # A row there from before the oldest part was read (one second
            # for Last-Modified's whole seconds, one for the build) until the
            # crawl ended is listed.
            since = oldest - 2
            added, gone = table.added.copy(), table.gone.copy()
            expected = {
                key
                for key, came in added.items()
                if came < since and gone.get(key, ended + 1) > ended
            }
            missing = sorted(expected - set(ids))
            assert not missing, f"crawl {crawls}: rows missing: {missing[:10]}"
    finally:
        table.stop.set()
        changer.join(5)
    assert table.changes > 30 and crawls >= 3
    assert " 500 " not in server.text() and "Traceback" not in server.text()
