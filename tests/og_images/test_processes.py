"""gunicorn's workers: any of them draws any image from its address; with a
shared store, requests arriving together at several workers draw once."""

from __future__ import annotations

import os
import signal
import threading
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from flask_marmeon import Marmeon
from flask_marmeon.og_images.generator import image_path
from flask_marmeon.og_images.state import og_images_of
from tests.processes import ROOT, Response, at_once, gunicorn, http_get, wait_until
from tests.sitemap.servers import RedisServer

from .gunicorn_app import config


def addresses(directory: Path, count: int) -> list[str]:
    """Paths written by an app of the same configuration (another process)."""
    os.environ["MARMEON_TEST_DIR"] = str(directory)
    try:
        app = Flask("writer")
        app.config.update(config())
        Marmeon(app)
        og = og_images_of(app)
        paths = []
        for n in range(count):
            with app.test_request_context("/"):
                path = image_path(
                    og, app.secret_key, (f"Note {n}", "", "Notes"), page_path="/"
                )
            assert path is not None
            paths.append(path)
        return paths
    finally:
        del os.environ["MARMEON_TEST_DIR"]


def fetch_together(port: int, path: str, count: int) -> list[Response]:
    return at_once(
        lambda: http_get(f"http://127.0.0.1:{port}{path}", timeout=30), count
    )


@contextmanager
def served(
    directory: Path,
    workers: int,
    redis: RedisServer | None = None,
    shared: bool = False,
) -> Iterator[int]:
    """tests/og_images/gunicorn_app.py under gunicorn, writing into
    ``directory``, with ``redis`` as its store (shared by the workers when
    ``shared``); yields its port."""
    env = {**os.environ, "MARMEON_TEST_DIR": str(directory), "PYTHONPATH": str(ROOT)}
    if redis is not None:
        env["MARMEON_TEST_REDIS"] = redis.url
    if shared:
        env["MARMEON_TEST_SHARED"] = "1"
    with gunicorn(
        "tests.og_images.gunicorn_app:create()", ROOT, env, workers=workers
    ) as port:
        yield port


def draws(directory: Path) -> list[str]:
    path = directory / "draws"
    return path.read_text().split() if path.exists() else []


def test_any_worker_draws_any_image_from_its_address(tmp_path: Path) -> None:
    paths = addresses(tmp_path, 3)
    written = len(draws(tmp_path))  # the writer drew each once
    with served(tmp_path, 4) as port:
        for path in paths:
            bodies = set()
            for _ in range(6):
                with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}") as r:
                    assert r.status == 200
                    bodies.add(r.read())
            assert len(bodies) == 1
    assert len(draws(tmp_path)) > written


def test_with_a_shared_store_requests_together_draw_once(
    tmp_path: Path, redis_server: RedisServer
) -> None:
    [path] = addresses(tmp_path, 1)
    written = len(draws(tmp_path))
    with served(tmp_path, 4, redis_server, shared=True) as port:
        results = fetch_together(port, path, 12)
        assert [status for status, _, _ in results] == [200] * 12
        assert len({body for _, _, body in results}) == 1
        assert len(draws(tmp_path)) - written == 1
        # Kept in the store: later requests to any worker draw nothing.
        fetch_together(port, path, 8)
        assert len(draws(tmp_path)) - written == 1
    # For one day.
    client: Any = redis_server.client()
    [key] = [k for k in client.keys("*") if b"/og/" in k and b"/png/" in k]
    assert 86_000 < client.ttl(key) <= 86_400


def test_a_killed_drawer_s_image_is_drawn_by_another_worker_within_seconds(
    tmp_path: Path, redis_server: RedisServer
) -> None:
    [path] = addresses(tmp_path, 1)
    written = len(draws(tmp_path))
    (tmp_path / "draw_mode").write_text("hang")
    with served(tmp_path, 3, redis_server, shared=True) as port:
        url = f"http://127.0.0.1:{port}{path}"

        def ask() -> None:
            try:
                urllib.request.urlopen(url, timeout=30).close()
            except OSError:
                pass  # its worker is killed

        first = threading.Thread(target=ask)
        first.start()
        # The drawer holds the lock.
        wait_until(lambda: len(draws(tmp_path)) != written)
        [drawer] = draws(tmp_path)[written:]
        os.kill(int(drawer), signal.SIGKILL)
        (tmp_path / "draw_mode").write_text("ok")
        killed = time.monotonic()
        with urllib.request.urlopen(url, timeout=30) as answer:
            assert answer.status == 200
        # Its lock, no longer renewed, is taken over after its lifetime (6
        # s), not after the ten seconds a drawing is waited for.
        assert time.monotonic() - killed < 8
        first.join(30)
    assert drawer not in draws(tmp_path)[written + 1 :]


def test_without_the_setting_no_image_goes_into_the_shared_store(
    tmp_path: Path, redis_server: RedisServer
) -> None:
    paths = addresses(tmp_path, 3)
    with served(tmp_path, 2, redis_server) as port:
        for path in paths:
            results = fetch_together(port, path, 4)
            assert [status for status, _, _ in results] == [200] * 4
    client: Any = redis_server.client()
    assert [k for k in client.keys("*") if b"/og/" in k] == []


def test_a_dead_drawer_s_lock_is_taken_over_and_freed(
    redis_server: RedisServer,
) -> None:
    from flask_caching import Cache

    from flask_marmeon.og_images.store import ImageStore

    app = Flask("images")
    cache = Cache(
        app, config={"CACHE_TYPE": "RedisCache", "CACHE_REDIS_URL": redis_server.url}
    )
    store = ImageStore(cache, "https://notes.example", app.app_context)
    lock = f"{store.prefix}/lock/tag"
    # A drawer killed between Redis' SETNX and EXPIRE: a lock that never
    # expires, whose deadline passes in a second.
    with app.app_context():
        cache.set(lock, ("dead", time.time() + 1), timeout=0)
    assert store.get("tag", lambda: b"png") == b"png"
    assert store.drawn == 1
    with app.app_context():
        # Taken over, then freed by the new holder; the image is shared.
        assert cache.get(lock) is None
        assert cache.get(f"{store.prefix}/png/tag") == b"png"
    cache.cache._write_client.close()  # type: ignore[attr-defined]
    cache.cache._read_client.close()  # type: ignore[attr-defined]


def test_the_shared_images_keys_name_the_app_as_the_sitemap_s(
    tmp_path: Path, redis_server: RedisServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Apps of one APP_URL under other import names (production and
    # staging) keep their images apart; one MARMEON_CACHE_PREFIX shares them.
    from flask_caching import Cache

    [path] = addresses(tmp_path, 1)
    monkeypatch.setenv("MARMEON_TEST_DIR", str(tmp_path))  # the drawing's log

    def drawn_by(name: str, path: str, **settings: object) -> int:
        app = Flask(name)
        app.config.update(config(), MARMEON_OG_IMAGES_SHARED=True, **settings)
        cache = Cache(
            app,
            config={"CACHE_TYPE": "RedisCache", "CACHE_REDIS_URL": redis_server.url},
        )
        Marmeon(app, sitemap_cache=cache)
        assert app.test_client().get(path).status_code == 200
        cache.cache._write_client.close()
        cache.cache._read_client.close()
        return int(og_images_of(app).store.drawn)

    assert drawn_by("production", path) == 1
    assert drawn_by("staging", path) == 1
    assert drawn_by("production", path) == 0  # from the store
    assert drawn_by("one", path, MARMEON_CACHE_PREFIX="shop") == 1
    assert drawn_by("two", path, MARMEON_CACHE_PREFIX="shop") == 0
