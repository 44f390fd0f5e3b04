"""Real servers for the tests about processes: redis-server, memcached and
gunicorn.

Each is started on a free port of 127.0.0.1 and stopped by its pid. Debian's
``redis-server`` and ``memcached`` are installed by ``make test`` (the
Makefile's server-deps), gunicorn by the dev dependencies.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import threading
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.processes import (
    Response,
    at_once,
    gunicorn_command,
    http_get,
    listening_socket,
    start_on_free_port,
    wait_for_workers,
    wait_until,
)

ROOT = Path(__file__).resolve().parents[2]
REDIS = shutil.which("redis-server") or "/usr/bin/redis-server"
MEMCACHED = shutil.which("memcached") or "/usr/bin/memcached"
#: Sixteen of the test app's paged route's parts (``paged=1``).
PARTS = [f"/sitemap-p-{number}.xml" for number in range(1, 17)]


def need(program: str) -> None:
    if not os.path.exists(program):
        name = os.path.basename(program)
        if os.environ.get("CI"):
            pytest.fail(f"{name} is missing: `make test` installs it.")
        pytest.skip(f"{name} is not installed: run `make server-deps`.")


def need_redis() -> None:
    need(REDIS)


def stop(process: subprocess.Popen[bytes], wait: float = 5) -> None:
    """Stop a server by its pid: SIGTERM, then SIGKILL after ``wait`` s."""
    if process.poll() is not None:
        return
    process.terminate()
    try:
        process.wait(wait)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(5)


class RedisServer:
    """One redis-server, in memory only, on a free port."""

    def __init__(self, directory: Path) -> None:
        need_redis()
        self.port, self.process = start_on_free_port(
            lambda port: (
                [REDIS, "--port", str(port), "--bind", "127.0.0.1"]
                + ["--save", "", "--appendonly", "no", "--dir", str(directory)]
            ),
            "redis-server",
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.paused = False

    def client(self) -> object:
        import redis

        return redis.Redis.from_url(self.url, socket_timeout=5)

    def flush(self) -> None:
        self.client().flushall()  # type: ignore[attr-defined]

    def pause(self) -> None:
        """Stop answering (SIGSTOP): a server that hangs, connections pile up."""
        os.kill(self.process.pid, signal.SIGSTOP)
        self.paused = True

    def resume(self) -> None:
        os.kill(self.process.pid, signal.SIGCONT)
        self.paused = False

    def stop(self) -> None:
        if self.process.poll() is None and self.paused:
            self.resume()
        stop(self.process)


class MemcachedServer:
    """One memcached, 64 MB, TCP only, on a free port."""

    def __init__(self) -> None:
        need(MEMCACHED)
        self.port, self.process = start_on_free_port(
            lambda port: (
                [MEMCACHED, "-p", str(port), "-l", "127.0.0.1", "-U", "0"]
                + ["-m", "64"]
                # memcached will not run as root without a user to become.
                + (["-u", "nobody"] if os.geteuid() == 0 else [])
            ),
            "memcached",
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        self.address = f"127.0.0.1:{self.port}"

    def stop(self) -> None:
        stop(self.process)


class Gunicorn:
    """gunicorn serving ``tests.sitemap.gunicorn_app:create()`` with gthread
    workers (or ``worker_class="sync"``: one request at a time each);
    ``env`` configures the app (see that module)."""

    def __init__(
        self,
        directory: Path,
        env: dict[str, str],
        workers: int = 4,
        threads: int = 8,
        worker_class: str = "gthread",
    ) -> None:
        sock = listening_socket()
        self.port = sock.getsockname()[1]
        self.base = f"http://127.0.0.1:{self.port}"
        self.log = directory / f"gunicorn-{self.port}.log"
        self._log_file = self.log.open("wb")
        self.process = subprocess.Popen(
            gunicorn_command(sock, "--workers", str(workers))
            + ["--worker-class", worker_class]
            + (["--threads", str(threads)] if worker_class == "gthread" else [])
            + ["--graceful-timeout", "2", "--preload"]
            + ["tests.sitemap.gunicorn_app:create()"],
            cwd=ROOT,
            env={**os.environ, **env, "PYTHONPATH": str(ROOT)},
            stdout=self._log_file,
            stderr=subprocess.STDOUT,
            pass_fds=(sock.fileno(),),
        )
        sock.close()
        self.wait_for_workers(workers)

    def wait_for_workers(self, workers: int) -> None:
        """Until every worker has booted (each logs 'Booting worker')."""
        wait_for_workers(self.log, workers, self.process)

    def get(
        self, path: str, headers: dict[str, str] | None = None, timeout: float = 10
    ) -> Response:
        return http_get(self.base + path, headers, timeout)

    def wait_for_parts(self, numbers: Iterable[int], timeout: float = 30) -> None:
        """Until each of the paged route's parts ``numbers`` is a 200."""
        deadline = time.monotonic() + timeout
        for number in numbers:
            path = f"/sitemap-p-{number}.xml"
            wait_until(
                lambda path=path: self.get(path)[0] == 200,
                deadline - time.monotonic(),
                path,
                every=0.2,
            )

    def text(self) -> str:
        return self.log.read_text(errors="replace")

    def stop(self) -> None:
        stop(self.process, wait=10)
        self._log_file.close()


def together(
    server: Gunicorn, count: int, path: str = "/sitemap.xml"
) -> list[Response]:
    """``count`` requests of ``path`` let go at once."""
    return at_once(lambda: server.get(path), count)


def on_both(one: Gunicorn, two: Gunicorn, count: int) -> list[Response]:
    """``together()`` on two servers at once: both sets of answers."""
    results: list[Response] = []
    threads = [
        threading.Thread(target=lambda s=s: results.extend(together(s, count)))
        for s in (one, two)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    return results


@contextmanager
def asked_meanwhile(
    server: Gunicorn, paths: list[str], wait: float = 10
) -> Iterator[list[Response]]:
    """Each of ``paths`` asked in its own thread while the block runs; the
    answers (in the order they came) are complete once it ends (each thread
    waited for ``wait`` s at most)."""
    answers: list[Response] = []
    threads = [
        threading.Thread(target=lambda p=p: answers.append(server.get(p)))
        for p in paths
    ]
    for thread in threads:
        thread.start()
    yield answers
    for thread in threads:
        thread.join(wait)


def answer_times(server: Gunicorn, paths: list[str], times: int = 20) -> list[float]:
    """How long ``paths`` took, one after another, each a 200, ``times``
    times (0.05 s apart): seconds each time."""
    took: list[float] = []
    for _ in range(times):
        started = time.monotonic()
        for path in paths:
            assert server.get(path)[0] == 200, path
        took.append(time.monotonic() - started)
        time.sleep(0.05)
    return took


def builds(directory: Path) -> int:
    """Calls of the test app's provider (in any worker)."""
    path = directory / "builds"
    return len(path.read_text().split()) if path.exists() else 0


def done(directory: Path) -> int:
    """Builds of the test app's provider that gave their entries."""
    path = directory / "done"
    return len(path.read_text().split()) if path.exists() else 0
