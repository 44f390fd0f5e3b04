"""The cache on its own, in one process: TTL, stale while rebuilding, single
flight, retry-after, a bounded wait, with a fake clock."""

from __future__ import annotations

import logging
import threading
import time

import pytest

from flask_marmeon.sitemap.serving.health import Health
from flask_marmeon.sitemap.serving.ttl_cache import BUILDING_RETRY, Lookup, SitemapCache

BUILDER = "flask_marmeon sitemap"


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class Builds:
    def __init__(self) -> None:
        self.calls = 0
        self.fail = False
        self.release = threading.Event()
        self.release.set()

    def __call__(self) -> tuple[bytes, ...]:
        self.calls += 1
        self.release.wait(10)
        if self.fail:
            raise RuntimeError("database down")
        return (f"build {self.calls}".encode(),)


def body(cache: SitemapCache) -> bytes | None:
    value = cache.get().value
    return None if value is None else value.bodies[0]


def test_a_value_is_kept_for_the_ttl_then_rebuilt_while_the_last_is_served() -> None:
    clock, build = Clock(), Builds()
    cache = SitemapCache(build, ttl=300, retry_after=30, clock=clock)
    assert body(cache) == b"build 1"  # a cold start waits for the build
    clock.now += 299
    assert body(cache) == b"build 1"
    clock.now += 1
    build.release.clear()  # the rebuild hangs until released
    assert body(cache) == b"build 1"  # stale, while the rebuild still hangs
    assert body(cache) == b"build 1"
    assert cache.busy and build.calls == 2
    build.release.set()
    assert cache.join(5)
    assert body(cache) == b"build 2"
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
    assert body(cache) == b"build 2"


def test_the_last_good_value_is_served_after_a_failure() -> None:
    clock, build = Clock(), Builds()
    cache = SitemapCache(build, ttl=300, retry_after=30, clock=clock)
    assert body(cache) == b"build 1"
    build.fail = True
    clock.now += 301
    assert body(cache) == b"build 1"
    assert cache.join(5)
    clock.now += 29
    lookup = cache.get()
    assert lookup.value is not None and lookup.value.bodies == (b"build 1",)
    assert build.calls == 2


@pytest.mark.parametrize(
    "garbage",
    [(), ("text",), b"not a tuple", None],
    ids=["empty", "str", "bytes", "none"],
)
def test_a_build_that_gives_no_files_is_a_failure(
    garbage: object, caplog: pytest.LogCaptureFixture
) -> None:
    cache = SitemapCache(lambda: garbage, ttl=300, retry_after=30)  # type: ignore[arg-type,return-value]
    with caplog.at_level(logging.ERROR, logger="flask_marmeon"):
        lookup = cache.get()
    assert lookup.value is None and lookup.retry_after == 30
    assert len(caplog.records) == 1


def test_requests_that_arrive_together_share_one_build() -> None:
    build = Builds()
    build.release.clear()  # the build lasts until every request has come
    cache = SitemapCache(build, ttl=300, retry_after=30)
    arrived = threading.Barrier(9)
    results: list[bytes | None] = []

    def request() -> None:
        arrived.wait()
        results.append(body(cache))

    threads = [threading.Thread(target=request) for _ in range(8)]
    for thread in threads:
        thread.start()
    arrived.wait()  # the eight ask now
    deadline = time.monotonic() + 5
    while not cache.busy:  # the first of them started the build
        assert time.monotonic() < deadline
        time.sleep(0.01)
    build.release.set()
    for thread in threads:
        thread.join(5)
    assert build.calls == 1
    assert results == [b"build 1"] * 8


def test_a_hanging_build_keeps_cold_requests_waiting_only_for_the_wait(
    caplog: pytest.LogCaptureFixture,
) -> None:
    build = Builds()
    build.release.clear()  # hangs until the end of the test
    cache = SitemapCache(build, ttl=300, retry_after=7, wait=0.3)
    before = len([t for t in threading.enumerate() if t.name == BUILDER])
    answers: list[int] = []

    def request() -> None:
        lookup = cache.get()
        assert lookup.value is None
        answers.append(lookup.retry_after)

    with caplog.at_level(logging.WARNING, logger="flask_marmeon"):
        threads = [threading.Thread(target=request) for _ in range(20)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(5)
        # The waiters are gone while the build still hangs; only the one
        # build thread is left.
        assert not any(thread.is_alive() for thread in threads)
        assert cache.busy and not build.release.is_set()
        builders = [t for t in threading.enumerate() if t.name == BUILDER]
        assert len(builders) == before + 1
        assert answers == [7] * 20
        assert build.calls == 1
    warnings = [r for r in caplog.records if "MARMEON_SITEMAP_WAIT" in r.getMessage()]
    assert len(warnings) == 1
    build.release.set()
    assert cache.join(5)
    assert body(cache) == b"build 1"


def test_a_wait_of_zero_answers_a_cold_start_at_once() -> None:
    build = Builds()
    build.release.clear()
    cache = SitemapCache(build, ttl=300, retry_after=30, wait=0)
    # Answered while the build hangs: come back when a build is usually done.
    assert cache.get() == Lookup(None, BUILDING_RETRY)
    assert cache.busy
    build.release.set()
    assert cache.join(5)
    assert body(cache) == b"build 1"


class Finishing(Health):
    """Says that a build worked only when let: the build's thread is still
    finishing after it installed its files."""

    def __init__(self) -> None:
        super().__init__()
        self.installed = threading.Event()
        self.let = threading.Event()

    def worked(self, group: str, name: str) -> None:
        self.installed.set()
        self.let.wait(10)
        super().worked(group, name)


class LettingClock(Clock):
    """Lets the build's thread finish the first time a request reads the time
    (with the cache's lock held, so the thread ends while the request waits)."""

    def __init__(self, let: threading.Event) -> None:
        super().__init__()
        self.let = let
        self.armed = False

    def __call__(self) -> float:
        if self.armed:
            self.let.set()
        return self.now


def test_a_clear_while_the_last_build_finishes_gets_the_next_request_a_new_build(
    caplog: pytest.LogCaptureFixture,
) -> None:
    build, health = Builds(), Finishing()
    clock = LettingClock(health.let)
    cache = SitemapCache(
        build, ttl=300, retry_after=30, wait=10, clock=clock, health=health
    )
    assert cache.get(wait=0) == Lookup(None, BUILDING_RETRY)
    assert health.installed.wait(5)  # build 1 is in, its thread not yet done
    cache.clear()
    clock.armed = True
    with caplog.at_level(logging.WARNING, logger="flask_marmeon"):
        # Waits while build 1's thread ends without files: a new build
        # starts, and the request gets it (not a 503 at once).
        lookup = cache.get()
    assert lookup.value is not None and lookup.value.bodies[0] == b"build 2"
    assert build.calls == 2
    assert not [r for r in caplog.records if "MARMEON_SITEMAP_WAIT" in r.getMessage()]


def test_the_wait_warning_says_how_long_the_build_has_really_taken(
    caplog: pytest.LogCaptureFixture,
) -> None:
    clock, build = Clock(), Builds()
    build.release.clear()  # hangs until the end of the test
    cache = SitemapCache(build, ttl=300, retry_after=30, wait=0.2, clock=clock)
    assert cache.get(wait=0) == Lookup(None, BUILDING_RETRY)
    clock.now += 45  # the build has run for 45 seconds when a request comes
    with caplog.at_level(logging.WARNING, logger="flask_marmeon"):
        assert cache.get() == Lookup(None, 30)
    (warning,) = [r for r in caplog.records if "MARMEON_SITEMAP_WAIT" in r.getMessage()]
    assert "has taken 45 seconds" in warning.getMessage()
    build.release.set()
    assert cache.join(5)
