"""Builds of parts never crowd out a process: at most two at once, no sync
worker held by a request waiting for one, and a killed builder's lock taken
over within seconds (real gunicorn sync workers, one real Redis)."""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from flask import Flask

from flask_marmeon import everyone
from tests.processes import wait_until

from ..conftest import Start
from ..gunicorn_app import make_table
from ..paged_keys import Keys
from ..servers import PARTS, answer_times, asked_meanwhile

ORIGIN = "https://shop.example"


class Gate(Keys):
    """A paged provider whose parts wait for ``go``; counts how many build at once."""

    def __init__(self, keys: list[int]) -> None:
        super().__init__(keys)
        self.go = threading.Event()
        self.lock = threading.Lock()
        self.now = 0
        self.most = 0

    def entries(self, start: int, stop: int | None, limit: int) -> Iterator[object]:
        with self.lock:
            self.now += 1
            self.most = max(self.most, self.now)
        try:
            self.go.wait(10)
            yield from super().entries(start, stop, limit)
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
        path = f"/sitemap-p-{number}.xml"
        wait_until(
            lambda path=path: app.test_client().get(path).status_code == 200,
            deadline - time.monotonic(),
            path,
        )
    assert provider.most == 2


def test_sync_workers_answer_pages_while_many_unbuilt_parts_are_asked(
    start_sync: Start, tmp_path: Path, database_url: str
) -> None:
    make_table(tmp_path, 200, database_url)  # 20 parts of 10
    # Each part's read takes a second: a request waiting for it would hold
    # its sync worker that long.
    server = start_sync(
        database=database_url,
        build_delay=1,
    )
    assert server.get("/sitemap.xml")[0] == 200
    with asked_meanwhile(server, PARTS) as parts:
        took = answer_times(server, ["/n/1"])
    assert max(took) <= 1, sorted(took)[-3:]
    assert {status for status, _, _ in parts} <= {200, 503}
    waited = [headers for status, headers, _ in parts if status == 503]
    assert waited and all(int(h["Retry-After"]) >= 1 for h in waited)
    server.wait_for_parts(range(1, 17))


def test_a_killed_builder_s_part_is_built_by_another_worker_within_seconds(
    start_sync: Start, tmp_path: Path, database_url: str
) -> None:
    make_table(tmp_path, 50, database_url)
    (tmp_path / "part_mode").write_text("hang")
    server = start_sync(
        database=database_url,
        build_delay=0,
    )
    assert server.get("/sitemap-p-3.xml")[0] == 503  # a sync worker: at once
    reads = tmp_path / "part_reads"
    wait_until(lambda: reads.exists() and reads.read_text().split())
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
