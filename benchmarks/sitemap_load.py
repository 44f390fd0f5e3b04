"""The sitemap under load, across processes: gunicorn (4 gthread workers)
sharing one Redis, on 127.0.0.1 only.

It measures:

1. 200 concurrent connections on a cold cache: how many builds (the
   provider writes one line per call; the target is 1);
2. the p99 latency of a cached /sitemap.xml (gzip, as crawlers ask);
3. the p99 latency of a request that arrives during a rebuild (the TTL has
   passed and the provider takes 2 s: the last file, at once);
4. the bytes on the wire for 50,000 URLs, with and without gzip;
5. the memory of a worker that built and served 1,000,000 URLs in index mode
   (VmHWM, the peak resident set, against the size of the files).

Every loop is bounded in count and time; servers are started on free
loopback ports and stopped by their pids. The app is the tests' gunicorn
app (tests/sitemap/gunicorn_app.py), with redis-server from Debian
(``make server-deps``).

    python benchmarks/sitemap_load.py [--urls 50000] [--requests 1000]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.sitemap.servers import Gunicorn, RedisServer  # noqa: E402

Timing = list[float]


def serve(
    directory: Path, redis: RedisServer, urls: int, workers: int = 4, **env: object
) -> Gunicorn:
    """gunicorn serving tests/sitemap/gunicorn_app.py's ``urls`` URLs from
    ``directory``, sharing ``redis``; ``env``: its other MARMEON_TEST_*
    settings (lower case, without the prefix)."""
    values = {f"MARMEON_TEST_{k.upper()}": str(v) for k, v in env.items()}
    settings = {"MARMEON_TEST_DIR": str(directory), "MARMEON_TEST_REDIS": redis.url}
    settings["MARMEON_TEST_URLS"] = str(urls)
    return Gunicorn(directory, {**settings, **values}, workers=workers)


def builds(directory: Path) -> list[str]:
    path = directory / "builds"
    return path.read_text().split() if path.exists() else []


def fetch(base: str, path: str, gzip: bool) -> tuple[int, int, float]:
    headers = {"Accept-Encoding": "gzip"} if gzip else {}
    request = urllib.request.Request(base + path, headers=headers)
    started = time.perf_counter()
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            size = len(response.read())
            status = response.status
    except urllib.error.HTTPError as error:
        size, status = len(error.read()), error.code
    return status, size, time.perf_counter() - started


def concurrently(
    base: str, count: int, threads: int, gzip: bool
) -> list[tuple[int, int, float]]:
    """``count`` GETs of /sitemap.xml from ``threads`` threads at once."""
    results: list[tuple[int, int, float]] = []
    lock = threading.Lock()
    barrier = threading.Barrier(threads)
    per_thread = [
        count // threads + (1 if n < count % threads else 0) for n in range(threads)
    ]

    def run(n: int) -> None:
        barrier.wait()
        for _ in range(n):
            got = fetch(base, "/sitemap.xml", gzip)
            with lock:
                results.append(got)

    workers = [threading.Thread(target=run, args=(n,)) for n in per_thread]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(300)
    return results


def p99(values: Timing) -> float:
    return statistics.quantiles(values, n=100)[98] * 1000


def cold_and_cached(
    directory: Path, redis: RedisServer, urls: int, requests: int
) -> None:
    server = serve(directory, redis, urls, build_delay=0, ttl=300)
    try:
        started = time.perf_counter()
        cold = concurrently(server.base, 200, 200, gzip=True)
        took = time.perf_counter() - started
        statuses = sorted({status for status, _, _ in cold})
        print(
            f"cold: 200 concurrent connections, 4 workers: {len(builds(directory))}"
            f" build(s), statuses {statuses}, all answered in {took:.2f} s"
        )
        cached = concurrently(server.base, requests, 16, gzip=True)
        print(
            f"cached /sitemap.xml (gzip, 16 clients, {requests} requests):"
            f" p50 {statistics.median(t for *_, t in cached) * 1000:.1f} ms,"
            f" p99 {p99([t for *_, t in cached]):.1f} ms"
        )
        _, plain, _ = fetch(server.base, "/sitemap.xml", gzip=False)
        _, packed, _ = fetch(server.base, "/sitemap.xml", gzip=True)
        print(
            f"bytes on the wire for {urls:,} URLs: {plain:,} plain, {packed:,} gzip"
            f" ({plain / packed:.1f}x less)"
        )
    finally:
        server.stop()


def during_rebuild(directory: Path, redis: RedisServer, urls: int) -> None:
    redis.flush()
    (directory / "builds").unlink(missing_ok=True)
    server = serve(directory, redis, urls, build_delay=2, ttl=3)
    try:
        concurrently(server.base, 64, 32, gzip=True)  # every worker warm
        time.sleep(3.1)  # past the TTL: the next request starts a 2 s rebuild
        started = time.perf_counter()
        during = concurrently(server.base, 400, 16, gzip=True)
        took = time.perf_counter() - started
        statuses = sorted({status for status, _, _ in during})
        print(
            f"during a 2 s rebuild ({len(during)} requests in {took:.2f} s,"
            f" statuses {statuses}): p99 {p99([t for *_, t in during]):.1f} ms;"
            f" builds so far {len(builds(directory))} (1 cold + 1 rebuild)"
        )
    finally:
        server.stop()


def memory(directory: Path, redis: RedisServer, urls: int) -> None:
    redis.flush()
    (directory / "builds").unlink(missing_ok=True)
    server = serve(directory, redis, urls, workers=1, build_delay=0, index=1, wait=120)
    try:
        started = time.perf_counter()
        status, _, _ = fetch(server.base, "/sitemap.xml", gzip=False)
        took = time.perf_counter() - started
        total = 0
        part = 1
        while True:
            status, size, _ = fetch(server.base, f"/sitemap-{part}.xml", gzip=False)
            if status != 200 or part > 100:
                break
            total += size
            part += 1
        (pid,) = builds(directory)
        status_text = Path(f"/proc/{pid}/status").read_text()
        fields = dict(
            line.split(":", 1) for line in status_text.splitlines() if ":" in line
        )
        peak = int(fields["VmHWM"].split()[0]) * 1024
        rss = int(fields["VmRSS"].split()[0]) * 1024
        print(
            f"{urls:,} URLs, index mode, 1 worker: cold /sitemap.xml in {took:.2f} s"
            f" (build + store in Redis), {part - 1} parts, {total / 1e6:.1f} MB of"
            f" files; worker peak RSS {peak / 1e6:.0f} MB, now {rss / 1e6:.0f} MB"
        )
    finally:
        server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--urls", type=int, default=50_000)
    parser.add_argument("--requests", type=int, default=1000)
    parser.add_argument("--big", type=int, default=1_000_000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as name:
        directory = Path(name)
        redis = RedisServer(directory)
        try:
            cold_and_cached(directory, redis, args.urls, args.requests)
            during_rebuild(directory, redis, args.urls)
            memory(directory, redis, args.big)
        finally:
            redis.stop()


if __name__ == "__main__":
    main()
