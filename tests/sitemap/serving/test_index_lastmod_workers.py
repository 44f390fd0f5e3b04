"""A part's ``<lastmod>`` reaches the index across processes: gunicorn with
four sync workers sharing one real Redis. The worker that built the part is
killed before the index is built again, so the date can only have come
through the store; then every worker serves it."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

from lxml import etree

from tests.processes import wait_until

from ..conftest import SM, Start
from ..gunicorn_app import advance, make_table
from ..servers import Gunicorn, together


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
    found = together(server, count)
    assert {status for status, _, _ in found} == {200}
    return [(headers["X-Test-Worker"], dates(body)) for _, headers, body in found]


def test_a_part_built_by_one_worker_has_its_lastmod_in_every_worker_s_index(
    start_sync: Start, tmp_path: Path
) -> None:
    # 5 parts of 10 ids; id n last modified 2026-01-01 + n days
    make_table(tmp_path, 50)
    server = start_sync(
        lastmod=1,
        build_delay=0,
        clock=1,
    )
    parts = [f"sitemap-p-{n}.xml" for n in range(1, 6)]
    before = indexes(server, 16)
    assert {tuple(found.items()) for _, found in before} == {
        tuple(dict.fromkeys(parts).items())  # nothing built yet, in any worker
    }
    wait_until(lambda: server.get("/sitemap-p-2.xml")[0] == 200, 15, every=0.1)
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
