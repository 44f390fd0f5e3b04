"""A sitemap's shared store in one process: the build lock against a real
Redis (a dead holder's lock taken over, a holder that never finishes
waited for), keys from configuration only, and a store that cannot be
reached (memory instead, said once, said before any request is answered)."""

from __future__ import annotations

import contextlib
import logging
import socket
import threading

import pytest
from flask import Flask

from flask_marmeon import Marmeon, everyone
from flask_marmeon.sitemap.serving.shared_refresh import GIVE_UP
from flask_marmeon.sitemap.serving.shared_store import SharedFiles, Stamp
from flask_marmeon.sitemap.serving.ttl_cache import SitemapCache
from flask_marmeon.sitemap.state import sitemap_of
from tests.processes import wait_until

from ..servers import RedisServer

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
