"""The cache on its own: TTL, single flight, retry-after, with a fake clock."""

from __future__ import annotations

import logging
import threading
import time

import pytest

from flask_marmeon.sitemap.cache import SitemapCache


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class Builds:
    def __init__(self) -> None:
        self.calls = 0
        self.fail = False

    def __call__(self) -> str:
        self.calls += 1
        if self.fail:
            raise RuntimeError("database down")
        return f"build {self.calls}"


def test_a_value_is_kept_for_the_ttl() -> None:
    clock, build = Clock(), Builds()
    cache = SitemapCache(build, ttl=300, retry_after=30, clock=clock)
    assert cache.get().value == "build 1"
    clock.now += 299
    assert cache.get().value == "build 1"
    clock.now += 1
    assert cache.get().value == "build 2"
    assert build.calls == 2


def test_a_failure_is_logged_once_and_not_retried_for_retry_after(
    caplog: pytest.LogCaptureFixture,
) -> None:
    clock, build = Clock(), Builds()
    cache = SitemapCache(build, ttl=300, retry_after=30, clock=clock)
    build.fail = True
    with caplog.at_level(logging.ERROR, logger="flask_marmeon"):
        first = cache.get()
        clock.now += 10.5
        second = cache.get()
    assert (first.value, first.retry_after) == (None, 30)
    assert (second.value, second.retry_after) == (None, 20)  # whole seconds, up
    assert build.calls == 1
    (record,) = caplog.records
    assert record.levelno == logging.ERROR
    assert record.exc_info is not None and "database down" in str(record.exc_info[1])
    clock.now += 20
    build.fail = False
    assert cache.get().value == "build 2"


def test_the_last_good_value_is_served_after_a_failure() -> None:
    clock, build = Clock(), Builds()
    cache = SitemapCache(build, ttl=300, retry_after=30, clock=clock)
    assert cache.get().value == "build 1"
    build.fail = True
    clock.now += 301
    assert cache.get().value == "build 1"
    clock.now += 29
    assert cache.get().value == "build 1"
    assert build.calls == 2


def test_requests_that_arrive_together_share_one_build() -> None:
    calls = 0
    started = threading.Event()

    def slow() -> str:
        nonlocal calls
        calls += 1
        started.set()
        time.sleep(0.2)
        return "built"

    cache = SitemapCache(slow, ttl=300, retry_after=30)
    results: list[str | None] = []
    threads = [
        threading.Thread(target=lambda: results.append(cache.get().value))
        for _ in range(8)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(5)
    assert started.is_set()
    assert calls == 1
    assert results == ["built"] * 8
