"""A part's ``<lastmod>`` reaches the index across processes: gunicorn with
four sync workers sharing one real Redis. The worker that built the part is
killed before the index is built again, so the date can only have come
through the store; then every worker serves it."""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from lxml import etree

from ..conftest import SM, Start
from ..gunicorn_app import advance
from ..servers import Gunicorn, RedisServer
from .test_part_builds import shop


@pytest.fixture
def redis_server(tmp_path: Path) -> Iterator[RedisServer]:
    server = RedisServer(tmp_path)
    yield server
    server.stop()


def dates(body: bytes) -> dict[str, str | None]:
    """Each part of the paged route the index names -> its <lastmod>
    (None: none)."""
    found = {
        (item.findtext(f"{SM}loc") or "").rsplit("/", 1)[1]: item.findtext(
            f"{SM}lastmod"
        )
        for item in etree.fromstring(body).iter(f"{SM}sitemap")
    }
    return {name: day for name, day in found.items() if name.startswith("sitemap-p-")}


def indexes(server: Gunicorn, count: int) -> list[tuple[str, dict[str, str | None]]]:
    """``count`` indexes asked at once (so that every worker answers some):
    who answered, and the dates."""
    found: list[tuple[str, dict[str, str | None]]] = []

    def ask() -> None:
        status, headers, body = server.get("/sitemap.xml")
        assert status == 200
        found.append((headers["X-Test-Worker"], dates(body)))

    threads = [threading.Thread(target=ask) for _ in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(15)
    return found


def test_a_part_built_by_one_worker_has_its_lastmod_in_every_worker_s_index(
    redis_server: RedisServer, start: Start, tmp_path: Path
) -> None:
    shop(tmp_path, 50)  # 5 parts of 10 ids; id n last modified 2026-01-01 + n days
    server = start(
        workers=4,
        worker_class="sync",
        redis=redis_server.url,
        paged=1,
        lastmod=1,
        build_delay=0,
        clock=1,
    )
    parts = [f"sitemap-p-{n}.xml" for n in range(1, 6)]
    before = indexes(server, 16)
    assert {tuple(found.items()) for _, found in before} == {
        tuple(dict.fromkeys(parts).items())  # nothing built yet, in any worker
    }
    deadline = time.monotonic() + 15
    while server.get("/sitemap-p-2.xml")[0] != 200:
        assert time.monotonic() < deadline
        time.sleep(0.1)
    (builder,) = set((tmp_path / "part_reads").read_text().split())
    os.kill(int(builder), signal.SIGKILL)
    server.wait_for_workers(5)  # gunicorn starts a fifth in its place
    # Every worker's index is stale: the next is built without the builder.
    advance(tmp_path, 301)
    # Part 2 holds ids 11 to 20: its newest day is 2026-01-21.
    expected = {**dict.fromkeys(parts), "sitemap-p-2.xml": "2026-01-21"}
    dated: set[str] = set()
    deadline = time.monotonic() + 20
    while len(dated) < 4:
        assert time.monotonic() < deadline, dated
        for worker, found in indexes(server, 16):
            assert worker != builder
            if found == expected:
                dated.add(worker)
            else:
                # A worker's copy from before (stale, sent while it takes
                # the new one), never after it served the date.
                assert worker not in dated, found
                assert found == dict.fromkeys(parts), found
        time.sleep(0.1)
    # No worker read part 2's rows again: the date came through the store.
    assert set((tmp_path / "part_reads").read_text().split()) == {builder}
