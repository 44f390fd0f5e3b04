"""Ordinary pages while unbuilt parts are asked, for ``benchmarks/scale.py``'s
table of listings in two languages.

gunicorn (4 sync workers, started like the tests' in
``tests/sitemap/servers.py``, stopped by its pid) serves
``benchmarks.scale_two_languages:create()`` sharing a fresh Redis. After the
index is built, 16 threads each ask one part that nobody has built, at
once, and ask again after each ``Retry-After`` (as a crawler does) until
their part is served; meanwhile one thread asks an ordinary page (a
listing, which reads no table) over and over, each on a new connection.
The figure is that page's p99 from the moment the 16 are asked until the
last of them is served.
"""

from __future__ import annotations

import math
import os
import statistics
import subprocess
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from benchmarks.scale_measure import locals_of
from tests.processes import gunicorn_command, listening_socket, wait_for_workers
from tests.sitemap.servers import RedisServer, stop

ROOT = Path(__file__).resolve().parent.parent
ASKED = 16
PAGE = "/en/listings/1"


def fetch(base: str, path: str) -> tuple[int, dict[str, str], bytes]:
    request = urllib.request.Request(base + path, headers={"Accept-Encoding": "gzip"})
    try:
        with urllib.request.urlopen(request, timeout=120) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


def quantile(values: list[float], share: float) -> float:
    """The value ``share`` of ``values`` are at or below (nearest rank)."""
    ordered = sorted(values)
    rank = math.ceil(len(ordered) * share)
    return ordered[min(max(rank, 1), len(ordered)) - 1]


def pages_while_parts_build(database: str, directory: Path) -> dict[str, Any]:
    """Start Redis and gunicorn, ask 16 unbuilt parts, time the page."""
    redis = RedisServer(directory)
    sock = listening_socket()
    base = f"http://127.0.0.1:{sock.getsockname()[1]}"
    log = directory / "gunicorn-scale.log"
    with log.open("wb") as output:
        server = start_gunicorn(sock, database, redis.url, output)
    sock.close()
    try:
        wait_for_workers(log, 4, server)
        return measure(base)
    finally:
        stop(server, wait=10)
        redis.stop()


def start_gunicorn(
    sock: Any, database: str, redis: str, output: Any
) -> subprocess.Popen[bytes]:
    """gunicorn, 4 sync workers, bound to the inherited ``sock``."""
    return subprocess.Popen(
        gunicorn_command(sock, "--workers", "4", "--worker-class", "sync")
        + ["--timeout", "120", "--graceful-timeout", "2"]
        + ["benchmarks.scale_two_languages:create()"],
        cwd=ROOT,
        env={
            **os.environ,
            "MARMEON_SCALE_DB": database,
            "MARMEON_SCALE_REDIS": redis,
            "PYTHONPATH": str(ROOT),
        },
        stdout=output,
        stderr=subprocess.STDOUT,
        pass_fds=(sock.fileno(),),
    )


def measure(base: str) -> dict[str, Any]:
    deadline = time.monotonic() + 600
    status, _, index = fetch(base, "/sitemap.xml")
    while status != 200 and time.monotonic() < deadline:
        time.sleep(1)
        status, _, index = fetch(base, "/sitemap.xml")
    if status != 200:
        raise SystemExit(f"gunicorn's index answered {status}")
    paths = locals_of(index)
    if len(paths) < ASKED:
        raise SystemExit(f"{len(paths)} parts: fewer than {ASKED} to ask")
    for _ in range(40):  # every worker has answered a page before
        fetch(base, PAGE)
    # Parts spread over the table, none asked before.
    asked = [paths[i * len(paths) // ASKED] for i in range(ASKED)]
    times: list[float] = []
    done = threading.Event()
    refusals: list[int] = []
    served: list[float] = []
    failures: list[str] = []

    def page() -> None:
        while not done.is_set():
            started = time.perf_counter()
            status, _, _ = fetch(base, PAGE)
            times.append(time.perf_counter() - started)
            if status != 200:
                failures.append(f"{PAGE} answered {status}")
            time.sleep(0.02)

    def crawl(path: str) -> None:
        started = time.perf_counter()
        refused = 0
        while time.monotonic() < deadline:
            status, headers, _ = fetch(base, path)
            if status == 200:
                served.append(time.perf_counter() - started)
                break
            if status != 503:
                failures.append(f"{path} answered {status}")
                break
            refused += 1
            time.sleep(float(headers.get("Retry-After", "5")))
        refusals.append(refused)

    timer = threading.Thread(target=page)
    timer.start()
    crawlers = [threading.Thread(target=crawl, args=(path,)) for path in asked]
    for crawler in crawlers:
        crawler.start()
    for crawler in crawlers:
        crawler.join()
    done.set()
    timer.join()
    if failures:
        raise SystemExit("; ".join(failures))
    if len(served) != ASKED:
        raise SystemExit(f"{ASKED - len(served)} parts were not served in time")
    return {
        "p99": quantile(times, 0.99),
        "p50": statistics.median(times),
        "max": max(times),
        "pages": len(times),
        "all_served": max(served),
        "refusals": sum(refusals),
    }
