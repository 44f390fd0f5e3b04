"""The lock that processes share through the store (shared_lock.py), on a
real Redis and a real memcached: one holder at a time, only the holder
renews or releases it, and a dead holder's lock is taken over (past its
deadline, without an expiry, or killed with SIGKILL) by one process only."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from flask import Flask

from flask_marmeon.shared_lock import Heartbeat, SharedLock
from tests.processes import ROOT
from tests.sitemap.servers import MemcachedServer, RedisServer


def cache_config(kind: str, where: str, prefix: str) -> dict[str, Any]:
    """Flask-Caching's configuration of a cache on the server at ``where``,
    its keys under ``prefix``."""
    if kind == "redis":
        return {
            "CACHE_TYPE": "RedisCache",
            "CACHE_REDIS_URL": where,
            "CACHE_KEY_PREFIX": prefix,
        }
    return {
        "CACHE_TYPE": "MemcachedCache",
        "CACHE_MEMCACHED_SERVERS": [where],
        "CACHE_KEY_PREFIX": prefix,
    }


@pytest.fixture(scope="module", params=["redis", "memcached"])
def server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[str, str]]:
    """A real server of each kind for the module: (its kind, its address)."""
    server: RedisServer | MemcachedServer
    if request.param == "redis":
        server = RedisServer(tmp_path_factory.mktemp("redis"))
        yield "redis", server.url
    else:
        server = MemcachedServer()
        yield "memcached", server.address
    server.stop()


@pytest.fixture
def store(server: tuple[str, str]) -> tuple[str, str, str]:
    """The server, and keys of the test's own: (kind, address, prefix)."""
    return (*server, f"t{uuid.uuid4().hex[:12]}:")


@pytest.fixture
def lock_on(store: tuple[str, str, str]) -> Iterator[Callable[[str], SharedLock]]:
    """Locks on the store, each through a client of its own (as processes
    have), closed at the end."""
    from flask_caching import Cache

    clients: list[Any] = []

    def make(key: str = "lock") -> SharedLock:
        app = Flask("locks")
        cache = Cache(app, config=cache_config(*store))
        clients.append(cache.cache)
        return SharedLock(cache, key, app.app_context)

    yield make
    for client in clients:
        close(client)


def close(client: Any) -> None:
    """Close a cachelib client's connections: Redis' pools, and this
    thread's sockets of python-memcached (its client is thread-local)."""
    for name in ("_write_client", "_read_client"):
        if hasattr(client, name):
            getattr(client, name).close()
    if hasattr(client, "_client"):
        client._client.disconnect_all()


def test_one_holder_at_a_time_and_only_it_releases(
    lock_on: Callable[..., SharedLock],
) -> None:
    lock = lock_on()
    assert lock.take("a", 6, now=1000)
    assert not lock.take("b", 6, now=1001)
    lock.release("b")  # not b's: nothing happens
    assert not lock.take("b", 6, now=1002)
    assert not lock.renew("b", 6, now=1002)
    lock.release("a")
    assert lock.take("b", 6, now=1003)


def test_a_lock_past_its_deadline_is_taken_over_even_while_the_store_keeps_it(
    lock_on: Callable[..., SharedLock],
) -> None:
    lock = lock_on()
    assert lock.take("a", 6, now=1000)
    # The store keeps the key for six real seconds; its deadline has passed.
    assert not lock.take("b", 6, now=1006)
    assert lock.take("b", 6, now=1006.5)
    # The old holder, back, neither renews nor frees the new holder's lock.
    assert not lock.renew("a", 6, now=1007)
    lock.release("a")
    assert not lock.take("c", 6, now=1008)


def test_renewing_moves_the_deadline_on(lock_on: Callable[..., SharedLock]) -> None:
    lock = lock_on()
    assert lock.take("a", 6, now=1000)
    assert lock.renew("a", 6, now=1005)
    assert not lock.take("b", 6, now=1010)  # held until 1011
    assert lock.take("b", 6, now=1011.5)


def test_a_lock_that_lost_its_expiry_is_taken_over_after_its_deadline(
    lock_on: Callable[..., SharedLock],
) -> None:
    lock = lock_on()
    # A holder killed between Redis' SETNX and EXPIRE (cachelib's add): a
    # key the store never expires (timeout 0 is "forever" for both).
    with lock.context():
        lock.backend.set(lock.key, ("dead", 1006.0), timeout=0)
    assert not lock.take("b", 6, now=1005)
    assert lock.take("b", 6, now=1007)


@pytest.mark.parametrize("garbage", [1, "locked", ("x",), (7, 1.0), None])
def test_a_value_that_is_no_lock_is_taken_over(
    lock_on: Callable[..., SharedLock], garbage: object
) -> None:
    # An older release's image lock held 1.
    lock = lock_on()
    with lock.context():
        lock.backend.set(lock.key, garbage, timeout=0)
    assert lock.take("b", 6, now=1000)
    assert not lock.take("c", 6, now=1001)


def test_a_taker_killed_while_it_took_over_delays_the_next_one_look_only(
    lock_on: Callable[..., SharedLock],
) -> None:
    lock = lock_on()
    assert lock.take("dead", 6, now=1000)
    # A process began to take "dead"'s lock over at 1007 and was killed
    # between SETNX and EXPIRE of its takeover key: a key without expiry.
    with lock.context():
        lock.backend.set(f"{lock.key}:over:dead", ("killed", 1013.0), timeout=0)
    assert not lock.take("b", 6, now=1012)  # the killed taker's time is not up
    assert not lock.take("b", 6, now=1014)  # now it is: its key goes
    assert lock.take("b", 6, now=1014.1)


def test_one_process_only_takes_over_a_dead_lock(
    lock_on: Callable[..., SharedLock],
) -> None:
    for round_ in range(10):
        key = f"lock{round_}"
        assert lock_on(key).take("dead", 6, now=1000)
        # Eight takers, each with a client of its own, at once.
        takers = [lock_on(key) for _ in range(8)]
        barrier = threading.Barrier(len(takers))
        won: list[str] = []

        threads = [
            threading.Thread(target=take, args=(lock, f"t{n}", barrier, won))
            for n, lock in enumerate(takers)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(10)
        assert len(won) == 1, (round_, won)


def take(
    lock: SharedLock, token: str, barrier: threading.Barrier, won: list[str]
) -> None:
    """One taker of a race: ``token`` joins ``won`` when it took the lock."""
    barrier.wait()
    try:
        if lock.take(token, 6, now=2000):
            won.append(token)
    finally:
        close(lock.backend.cache)  # type: ignore[attr-defined]


HOLDER = """
import sys, time
from flask import Flask
from flask_caching import Cache
from flask_marmeon.shared_lock import Heartbeat, SharedLock
from tests.test_shared_lock import cache_config

app = Flask("holder")
cache = Cache(app, config=cache_config(*sys.argv[1:4]))
lock = SharedLock(cache, "lock", app.app_context)
assert lock.take("holder", 2, time.time())
with Heartbeat(lambda: lock.renew("holder", 2, time.time()), 2 / 3):
    print("held", flush=True)
    time.sleep(60)
"""


def deadline_of(lock: SharedLock) -> float:
    with lock.context():
        held = lock.backend.get(lock.key)
    assert isinstance(held, tuple) and held[0] == "holder"
    return float(held[1])


def test_a_killed_holder_s_lock_is_taken_over_within_seconds(
    store: tuple[str, str, str], lock_on: Callable[..., SharedLock]
) -> None:
    lock = lock_on()
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER, *store],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "held\n"
        # Its heartbeat keeps it past its first deadline.
        first = deadline_of(lock)
        until = time.monotonic() + 10
        while deadline_of(lock) == first:
            assert time.monotonic() < until, "the heartbeat never renewed the lock"
            time.sleep(0.05)
        assert not lock.take("other", 2, time.time())
        os.kill(holder.pid, signal.SIGKILL)
        killed = time.monotonic()
        while not lock.take("other", 2, time.time()):
            assert time.monotonic() - killed < 10, "the dead holder's lock still holds"
            time.sleep(0.05)
        # Its last deadline at most: a lifetime after its last beat.
        assert time.monotonic() - killed < 3
    finally:
        holder.kill()
        holder.communicate(timeout=10)  # closes its pipe


def test_the_heartbeat_renews_until_its_end_and_outlives_a_store_that_fails() -> None:
    beats: list[int] = []

    def renew() -> None:
        beats.append(1)
        if len(beats) == 2:
            raise ConnectionError("the store is down")

    with Heartbeat(renew, 0.01):
        while len(beats) < 4:  # on after the failed second beat
            time.sleep(0.01)
    # Ended with the block: no thread of it is left.
    assert "flask_marmeon lock" not in {t.name for t in threading.enumerate()}
