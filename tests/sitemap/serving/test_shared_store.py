"""A sitemap shared by processes and machines: real gunicorn workers, two
servers, one real Redis, and the faults of each part."""

from __future__ import annotations

import contextlib
import gzip
import logging
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from lxml import etree

from flask_marmeon import Marmeon, everyone
from flask_marmeon.sitemap.serving.cache import SitemapCache
from flask_marmeon.sitemap.serving.shared_refresh import GIVE_UP
from flask_marmeon.sitemap.serving.shared_store import SharedFiles, Stamp
from flask_marmeon.sitemap.state import sitemap_of
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


# -- the lock, against Redis, in one process -----------------------------------


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class Build:
    """A sitemap's build that counts its calls."""

    def __init__(self) -> None:
        self.calls = 0

    def __call__(self) -> tuple[bytes, ...]:
        self.calls += 1
        return (b"<urlset/>",)


def shared_app(url: str) -> tuple[Flask, SharedFiles]:
    from flask_caching import Cache

    app = Flask("shared")
    cache = Cache(app, config={"CACHE_TYPE": "RedisCache", "CACHE_REDIS_URL": url})
    return app, SharedFiles(cache, "https://notes.example", app.app_context)


def test_a_dead_holders_lock_is_taken_over_after_its_deadline(
    redis_server: RedisServer,
) -> None:
    _, shared = shared_app(redis_server.url)
    # A holder killed between SETNX and EXPIRE: a lock with no expiry,
    # whose deadline is 1006 on the caches' clock.
    assert shared.build_lock.take("dead", 6, now=1000)
    redis_server.client().persist(shared.prefix.encode() + b"lock")  # type: ignore[attr-defined]
    build = Build()
    clock = Clock()
    cache = SitemapCache(
        build, ttl=300, retry_after=30, shared=shared, lock_timeout=6, clock=clock
    )
    # Before its deadline the lock holds: the refresh waits for the store.
    assert cache.get(wait=0).value is None
    assert cache.busy and build.calls == 0
    clock.now = 1006.5
    # Its next look takes the lock over and builds.
    assert cache.join(5)
    assert build.calls == 1
    lookup = cache.get()
    assert lookup.value is not None and lookup.value.bodies == (b"<urlset/>",)
    # Released after the build was stored.
    assert redis_server.client().get(shared.prefix.encode() + b"lock") is None  # type: ignore[attr-defined]


def test_a_holder_that_never_finishes_is_waited_for_give_up_seconds(
    redis_server: RedisServer,
) -> None:
    _, shared = shared_app(redis_server.url)
    # Another process holds the lock, alive (renewing it), and never stores.
    assert shared.build_lock.take("alive", 10_000, now=1000)
    looks = 0
    stamp = shared.stamp

    def look() -> Stamp | None:
        nonlocal looks
        looks += 1
        return stamp()

    shared.stamp = look  # type: ignore[method-assign]
    build = Build()
    clock = Clock()
    cache = SitemapCache(
        build, ttl=300, retry_after=30, shared=shared, clock=clock, poll=0.01
    )
    assert cache.get(wait=0).value is None
    wait_until(lambda: looks >= 5)  # it looks for the other's build, again
    assert cache.busy and build.calls == 0
    clock.now += GIVE_UP + 1
    # Then it builds on its own.
    assert cache.join(5)
    assert build.calls == 1
    lookup = cache.get()
    assert lookup.value is not None and lookup.value.bodies == (b"<urlset/>",)


def shared_site(url: str, root: str) -> Flask:
    from flask_caching import Cache

    app = Flask("site")
    app.config.update(APP_URL="https://notes.example", APPLICATION_ROOT=root)
    cache = Cache(app, config={"CACHE_TYPE": "RedisCache", "CACHE_REDIS_URL": url})
    Marmeon(app, sitemap_cache=cache)
    app.get("/about", sitemap=True, authorize=everyone)(lambda: "about")
    return app


def test_keys_come_from_configuration_only(redis_server: RedisServer) -> None:
    client = redis_server.client()
    blog = shared_site(redis_server.url, "/blog").test_client()
    for host in ("notes.example", "evil.example"):
        headers = {"Host": host, "X-Forwarded-Host": "evil.example"}
        response = blog.get("/sitemap.xml", headers=headers)
        assert response.status_code == 200
        assert b"<loc>https://notes.example/" in response.data
    # Stored after it is served: wait, so no thread meets a stopped Redis.
    assert sitemap_of(blog.application).cache.join(5)
    keys = {k.decode() for k in client.keys("*")}  # type: ignore[attr-defined]
    assert keys and not any("evil" in key for key in keys)
    assert {key.split(":")[3] for key in keys} == {"sitemap"}
    scopes = {key.split(":")[2] for key in keys}
    assert len(scopes) == 1
    # Another mount path is another sitemap, under other keys.
    shop = shared_site(redis_server.url, "/shop")
    assert shop.test_client().get("/sitemap.xml").status_code == 200
    assert sitemap_of(shop).cache.join(5)
    keys = {k.decode() for k in client.keys("*")}  # type: ignore[attr-defined]
    assert len({key.split(":")[2] for key in keys}) == 2


def test_a_cache_that_is_never_reached_falls_back_to_memory_and_says_so_once(
    caplog: pytest.LogCaptureFixture, request: pytest.FixtureRequest
) -> None:
    from flask_caching import Cache

    # A port bound here and never listened on: nobody answers there, and no
    # other test run's server can take it meanwhile (a port merely free
    # when chosen could be another run's Redis by the time it is asked).
    nobody = socket.socket()
    nobody.bind(("127.0.0.1", 0))
    request.addfinalizer(nobody.close)
    app = Flask("down")
    app.config["APP_URL"] = "https://down.example"
    cache = Cache(
        app,
        config={
            "CACHE_TYPE": "RedisCache",
            "CACHE_REDIS_URL": f"redis://127.0.0.1:{nobody.getsockname()[1]}/0",
            "CACHE_OPTIONS": {"socket_connect_timeout": 0.2, "socket_timeout": 0.2},
        },
    )
    app.config["MARMEON_SITEMAP_TTL"] = 0  # every request refreshes
    Marmeon(app, sitemap_cache=cache)
    app.get("/about", sitemap=True, authorize=everyone)(lambda: "about")
    client = app.test_client()
    with caplog.at_level(logging.WARNING, logger="flask_marmeon"):
        for _ in range(4):
            response = client.get("/sitemap.xml")
            assert response.status_code == 200
            assert b"https://down.example/about" in response.data
            assert sitemap_of(app).cache.join(5)
    said = [r for r in caplog.records if "cannot be reached" in r.getMessage()]
    # Named by the app's address, as one process may serve several apps.
    assert [r.getMessage().split("; ")[0] for r in said] == [
        "The shared cache cannot be reached for the sitemap of https://down.example"
    ]
    assert said[0].exc_info is not None
    assert sitemap_of(app).cache.builds == 4


class Unreachable:
    """A store that is down: every call fails as redis-py's do."""

    def get(self, *args: object, **kwargs: object) -> object:
        raise ConnectionError("nobody listens")

    set = add = delete = get


class SlowToSay(logging.Handler):
    """Holds the store's outage warning until let go, as writing its
    traceback does on a loaded machine; notes when it was written."""

    def __init__(self, order: list[str]) -> None:
        super().__init__(logging.WARNING)
        self.order = order
        self.writing = threading.Event()
        self.go = threading.Event()

    def emit(self, record: logging.LogRecord) -> None:
        if "cannot be reached" in record.getMessage():
            self.writing.set()
            self.go.wait(10)
            self.order.append("said")


def test_no_request_that_met_an_unreachable_cache_is_answered_before_it_is_said(
    request: pytest.FixtureRequest,
) -> None:
    shared = SharedFiles(Unreachable(), "https://down.example", contextlib.nullcontext)
    cache = SitemapCache(Build(), ttl=300, retry_after=30, shared=shared, clock=Clock())
    order: list[str] = []
    handler = SlowToSay(order)
    logger = logging.getLogger("flask_marmeon")
    logger.addHandler(handler)
    request.addfinalizer(lambda: logger.removeHandler(handler))
    # The look at the store's newest build (a request's, in the background)
    # meets the outage first, and is still writing its warning when ...
    look = threading.Thread(target=cache.newest)
    look.start()
    assert handler.writing.wait(5)

    def ask() -> None:
        # ... a request's build meets it too.
        order.append("answered" if cache.get().value is not None else "503")

    asker = threading.Thread(target=ask)
    asker.start()
    asker.join(0.5)  # time enough for the request to be answered meanwhile
    handler.go.set()
    asker.join(5)
    look.join(5)
    # Said before the request is answered: no log read after a request that
    # met the outage (nor a recovery's line) comes before the outage's.
    assert order == ["said", "answered"]
