"""What the sitemap logs when a database or the shared store fails: a
traceback once per route and cause, then one line per failure, and once
when it works again."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from flask import Flask

from flask_marmeon import SitemapEntry, everyone
from flask_marmeon.sitemap.serving.shared_refresh import PROBE
from flask_marmeon.sitemap.state import sitemap_of

ORIGIN = "https://shop.example"


class Flaky:
    """A paged provider of keys 1..100 whose store is down while ``down``."""

    def __init__(self) -> None:
        self.down = True

    def boundaries(self, size: int) -> list[int]:
        return list(range(1, 101))[::size]

    def entries(self, start: int, stop: int | None, limit: int) -> Iterator[object]:
        if self.down:
            raise ConnectionError("connection refused")
        for key in range(start, min(stop or 101, start + limit)):
            yield SitemapEntry({"n": key})


class Store:
    """A shared store in memory (the four calls of a Flask-Caching Cache)
    that cannot be reached while ``down``."""

    def __init__(self) -> None:
        self.values: dict[str, Any] = {}
        self.down = False

    def _check(self) -> None:
        if self.down:
            raise ConnectionError("Error 111 connecting to cache:6379")

    def get(self, key: str) -> Any:
        self._check()
        return self.values.get(key)

    def set(self, key: str, value: Any, timeout: int | None = None) -> bool:
        self._check()
        self.values[key] = value
        return True

    def add(self, key: str, value: Any, timeout: int | None = None) -> bool:
        self._check()
        return self.values.setdefault(key, value) is value

    def delete(self, key: str) -> bool:
        self._check()
        return self.values.pop(key, None) is not None


def sweep(app: Flask, numbers: range) -> list[int]:
    client = app.test_client()
    statuses = [client.get(f"/sitemap-p-{n}.xml").status_code for n in numbers]
    for cache in sitemap_of(app).files._parts.values():
        assert cache.join(5)
    return statuses


def test_a_failing_database_is_one_traceback_per_route_and_cause(
    make_app: Callable[..., Flask], caplog: pytest.LogCaptureFixture
) -> None:
    provider = Flaky()
    app = make_app(
        APP_URL=ORIGIN, MARMEON_SITEMAP_MAX_URLS=10, MARMEON_SITEMAP_RETRY_AFTER=0
    )
    app.add_url_rule("/p/<int:n>", "p", str, authorize=everyone, sitemap=provider)
    with caplog.at_level(logging.INFO, "flask_marmeon"):
        assert sweep(app, range(1, 11)) == [503] * 10
        assert sweep(app, range(1, 4)) == [503] * 3
    errors = [r for r in caplog.records if r.levelno == logging.ERROR]
    assert len(errors) == 13  # one line per failing part
    (traced,) = [r for r in errors if r.exc_info]
    assert "part 1 of the route '/p/<int:n>'" in traced.getMessage()
    for record in errors:
        if record is not traced:
            message = record.getMessage()
            assert "\n" not in message and len(message) < 400
            assert "ConnectionError: connection refused" in message
            assert "logged with its traceback before" in message
    caplog.clear()
    provider.down = False
    with caplog.at_level(logging.INFO, "flask_marmeon"):
        assert sweep(app, range(1, 11)) == [200] * 10
    again = [r.getMessage() for r in caplog.records if "works again" in r.getMessage()]
    assert len(again) == 1
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


def test_a_store_outage_is_said_once_and_its_return_once(
    caplog: pytest.LogCaptureFixture,
) -> None:
    from flask_marmeon import Marmeon

    store = Store()
    app = Flask("shop")
    app.config.update(APP_URL=ORIGIN, MARMEON_SITEMAP_MAX_URLS=10)
    Marmeon(app, sitemap_cache=store)
    provider = Flaky()
    provider.down = False
    app.add_url_rule("/p/<int:n>", "p", str, authorize=everyone, sitemap=provider)
    assert sweep(app, range(1, 3)) == [200] * 2
    store.down = True
    with caplog.at_level(logging.INFO, "flask_marmeon"):
        assert sweep(app, range(3, 11)) == [200] * 8
        down = [r for r in caplog.records if "cannot be reached" in r.getMessage()]
        assert len(down) == 1 and down[0].exc_info is not None
        store.down = False
        assert sweep(app, range(1, 11)) == [200] * 10
    up = [r for r in caplog.records if "reachable again" in r.getMessage()]
    assert len(up) == 1


def test_a_store_known_to_be_down_is_looked_at_every_probe_seconds() -> None:
    from contextlib import nullcontext

    from flask_marmeon.sitemap.serving.shared_store import SharedFiles
    from flask_marmeon.sitemap.serving.ttl_cache import SitemapCache

    store = Store()
    looks: list[str] = []
    get = store.get
    store.get = lambda key: looks.append(key) or get(key)  # type: ignore[method-assign]
    now = [1000.0]
    shared = SharedFiles(store, ORIGIN, nullcontext)
    cache = SitemapCache(
        lambda: (b"<urlset/>",),
        ttl=300,
        retry_after=30,
        shared=shared,
        clock=lambda: now[0],
    )
    store.down = True
    assert cache.get().value is not None  # built here
    assert cache.join(5)
    cache.newest()  # a request looks, finds it down
    looks.clear()
    cache.newest()  # the next request does not look
    store.down = False
    now[0] += PROBE - 1
    cache.newest()
    assert looks == []
    now[0] += 1
    cache.newest()
    assert looks  # looked at again: up
    looks.clear()
    cache.newest()  # and every request looks while it is up
    assert looks
