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
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from tests.processes import (
    gunicorn_command,
    listening_socket,
    start_on_free_port,
    wait_for_workers,
)

ROOT = Path(__file__).resolve().parents[2]
REDIS = shutil.which("redis-server") or "/usr/bin/redis-server"
MEMCACHED = shutil.which("memcached") or "/usr/bin/memcached"


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
    ) -> tuple[int, dict[str, str], bytes]:
        request = urllib.request.Request(self.base + path, headers=headers or {})
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:
                return response.status, dict(response.headers), response.read()
        except urllib.error.HTTPError as error:
            return error.code, dict(error.headers), error.read()

    def text(self) -> str:
        return self.log.read_text(errors="replace")

    def stop(self) -> None:
        stop(self.process, wait=10)
        self._log_file.close()
