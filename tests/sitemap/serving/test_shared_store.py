"""A sitemap shared by processes and machines: real gunicorn workers, two
servers, one real Redis, and the faults of each part."""

from __future__ import annotations

import gzip
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from lxml import etree

from tests.processes import Response, wait_until

from ..conftest import SM, Start
from ..gunicorn_app import advance, make_table
from ..servers import (
    MemcachedServer,
    RedisServer,
    asked_meanwhile,
    builds,
    done,
    on_both,
    together,
)


@pytest.fixture(params=["redis", "memcached"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[dict[str, str]]:
    """A real shared store of each kind: ``start()``'s argument for it."""
    server: RedisServer | MemcachedServer
    if request.param == "redis":
        server = RedisServer(tmp_path)
        yield {"redis": server.url}
    else:
        server = MemcachedServer()
        yield {"memcached": server.address}
    server.stop()


def only_good(results: list[Response], good: bytes) -> None:
    assert {status for status, _, _ in results} == {200}
    assert {body for _, _, body in results} == {good}


def test_four_workers_build_once_for_concurrent_cold_requests(
    store: dict[str, str], start: Start, tmp_path: Path
) -> None:
    server = start(**store)
    results = together(server, 64)
    assert builds(tmp_path) == 1
    assert {status for status, _, _ in results} == {200}
    assert len({body for _, _, body in results}) == 1
    assert len({headers["ETag"] for _, headers, _ in results}) == 1
    assert b"https://notes.example/n/3" in results[0][2]


def test_four_workers_read_a_part_s_range_once(
    redis_server: RedisServer, start: Start, tmp_path: Path
) -> None:
    make_table(tmp_path, 50)
    server = start(redis=redis_server.url, paged=1)
    # Nobody has built the index nor this part: 100 requests at once.
    results = together(server, 100, "/sitemap-p-3.xml")
    assert {status for status, _, _ in results} == {200}
    assert len({body for _, _, body in results}) == 1
    assert len({headers["ETag"] for _, headers, _ in results}) == 1
    body = results[0][2]
    assert b"<loc>https://notes.example/p/21<" in body and b"/p/30<" in body
    assert body.count(b"<url>") == 10
    reads = (tmp_path / "part_reads").read_text().split()
    assert len(reads) == 1
    # Another part is its own read; the index reads no part.
    assert server.get("/sitemap-p-5.xml")[0] == 200
    assert server.get("/sitemap.xml")[0] == 200
    assert len((tmp_path / "part_reads").read_text().split()) == 2


def test_two_servers_sharing_one_redis_build_once(
    redis_server: RedisServer, start: Start, tmp_path: Path
) -> None:
    one = start(workers=2, redis=redis_server.url)
    two = start(workers=2, redis=redis_server.url)
    results = on_both(one, two, 24)
    assert builds(tmp_path) == 1
    assert len(results) == 48
    assert {status for status, _, _ in results} == {200}
    assert len({headers["ETag"] for _, headers, _ in results}) == 1
    assert len({headers["Last-Modified"] for _, headers, _ in results}) == 1


def test_after_the_ttl_one_rebuild_and_meanwhile_the_last_file_at_once(
    redis_server: RedisServer, start: Start, tmp_path: Path
) -> None:
    server = start(redis=redis_server.url, clock=1)
    good = server.get("/sitemap.xml")[2]
    only_good(together(server, 32), good)  # every worker has it
    (tmp_path / "mode").write_text("hang")  # the rebuild hangs until "ok"
    advance(tmp_path, 301)  # past the TTL of 300 s
    # Every answer while the one rebuild hangs: the last file, at once.
    only_good(together(server, 32), good)
    wait_until(lambda: builds(tmp_path) == 2)
    assert done(tmp_path) == 1  # all answered while it hangs
    (tmp_path / "mode").write_text("ok")
    wait_until(lambda: done(tmp_path) == 2)
    only_good(together(server, 32), good)  # the same URLs, the same bytes
    time.sleep(0.3)  # the workers' refreshes end
    assert builds(tmp_path) == 2


def test_redis_stopped_mid_run_each_process_serves_its_own_and_says_so_once(
    redis_server: RedisServer, start: Start, tmp_path: Path
) -> None:
    server = start(workers=2, redis=redis_server.url, clock=1)
    good = server.get("/sitemap.xml")[2]
    redis_server.stop()
    for _ in range(4):
        advance(tmp_path, 301)  # past the TTL: each worker asked refreshes
        only_good(together(server, 16), good)
        time.sleep(0.4)  # its refresh, without the store, ends
    log = server.text()
    said = log.count("The shared cache cannot be reached")
    assert 1 <= said <= 2  # once per process that refreshed, not per request
    assert " 500 " not in log and "Traceback" in log  # the cause, logged


def test_redis_flushed_mid_run_is_rebuilt_once(
    redis_server: RedisServer, start: Start, tmp_path: Path
) -> None:
    server = start(redis=redis_server.url, clock=1)
    good = server.get("/sitemap.xml")[2]
    only_good(together(server, 16), good)  # every worker has it
    redis_server.flush()
    advance(tmp_path, 301)  # past the TTL
    only_good(together(server, 32), good)
    wait_until(lambda: builds(tmp_path) == 2)
    time.sleep(0.5)
    assert builds(tmp_path) == 2
    assert "gone from the shared cache" in server.text()


def test_redis_that_hangs_mid_run_never_holds_a_request(
    redis_server: RedisServer, start: Start, tmp_path: Path
) -> None:
    server = start(workers=2, redis=redis_server.url, clock=1)
    good = server.get("/sitemap.xml")[2]
    only_good(together(server, 32), good)  # every worker has it: none is cold
    redis_server.pause()
    try:
        advance(tmp_path, 301)  # past the TTL
        started = time.monotonic()
        only_good(together(server, 16), good)
        assert time.monotonic() - started < 0.4  # Redis' timeout is 0.5 s
        assert server.get("/n/1")[0] == 200
        time.sleep(0.8)  # past Redis' timeout: the refresh gives up on it
    finally:
        redis_server.resume()
    wait_until(lambda: "cannot be reached" in server.text())


def test_a_failure_pauses_every_process_and_is_logged_once(
    redis_server: RedisServer, start: Start, tmp_path: Path
) -> None:
    server = start(redis=redis_server.url, build_delay=0, clock=1)
    good = server.get("/sitemap.xml")[2]
    only_good(together(server, 16), good)
    (tmp_path / "mode").write_text("raise")
    advance(tmp_path, 301)  # past the TTL; MARMEON_SITEMAP_RETRY_AFTER is 30 s
    for _ in range(5):
        only_good(together(server, 16), good)
        time.sleep(0.3)
    assert builds(tmp_path) == 2
    assert server.text().count("Building the sitemap failed") == 1
    assert "database down" in server.text()


def test_a_cold_start_with_a_hanging_provider_answers_503_and_pages(
    redis_server: RedisServer, start: Start, tmp_path: Path
) -> None:
    (tmp_path / "mode").write_text("hang")
    server = start(workers=1, redis=redis_server.url, wait=0.5)
    with asked_meanwhile(server, ["/sitemap.xml"] * 24, wait=30) as results:
        started = time.monotonic()
        pages = [server.get("/n/1")[0] for _ in range(5)]
        took = time.monotonic() - started
    (tmp_path / "mode").write_text("ok")
    assert pages == [200] * 5
    assert took < 3  # at most the waits ahead of them, never the provider's hang
    assert {status for status, _, _ in results} == {503}
    assert all(int(headers["Retry-After"]) >= 1 for _, headers, _ in results)
    assert all(headers["Cache-Control"] == "no-store" for _, headers, _ in results)
    assert builds(tmp_path) == 1
    wait_until(lambda: server.get("/sitemap.xml")[0] == 200)


def test_a_client_that_disconnects_mid_body_tears_nothing(
    redis_server: RedisServer, start: Start, tmp_path: Path
) -> None:
    server = start(workers=2, redis=redis_server.url, urls=50_000, build_delay=0)
    status, _, whole = server.get("/sitemap.xml", timeout=30)
    assert status == 200
    for encoding in ("identity", "gzip"):
        for _ in range(10):
            with socket.create_connection(("127.0.0.1", server.port)) as sock:
                sock.sendall(
                    b"GET /sitemap.xml HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                    b"Accept-Encoding: " + encoding.encode() + b"\r\n\r\n"
                )
                assert sock.recv(4096).startswith(b"HTTP/1.1 200")
    status, _, again = server.get("/sitemap.xml", timeout=30)
    assert status == 200 and again == whole
    status, headers, packed = server.get(
        "/sitemap.xml", {"Accept-Encoding": "gzip"}, timeout=30
    )
    assert headers["Content-Encoding"] == "gzip"
    assert gzip.decompress(packed) == whole
    assert len(etree.fromstring(whole).findall(f"{SM}url")) == 50_000
    assert server.get("/n/7")[0] == 200
    assert " 500 " not in server.text()
