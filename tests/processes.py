"""Real server processes for the tests: a free port, waiting for it, gunicorn.

Imported as ``tests.processes`` (the project root is on pytest's path).
Each process is started on a free port of 127.0.0.1 and stopped by its pid.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]

#: An HTTP answer: status, headers, body.
Response = tuple[int, dict[str, str], bytes]


def http_get(
    url: str, headers: dict[str, str] | None = None, timeout: float = 10
) -> Response:
    """GET ``url`` (an error status is an answer too)."""
    request = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


def at_once(
    fetch: Callable[[], Response], count: int, wait: float = 30
) -> list[Response]:
    """``count`` calls of ``fetch``, each in its own thread, let go together
    (a barrier); every answer, in the order they came."""
    barrier = threading.Barrier(count)
    results: list[Response] = []
    lock = threading.Lock()

    def call() -> None:
        barrier.wait()
        got = fetch()
        with lock:
            results.append(got)

    threads = [threading.Thread(target=call) for _ in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(wait)
    assert len(results) == count
    return results


def wait_until(
    check: Callable[[], object],
    timeout: float = 10,
    what: object = "timed out",
    every: float = 0.05,
) -> None:
    """Ask ``check`` every ``every`` s until it is true; fail with ``what``
    (called if it is a function) after ``timeout`` s."""
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, what() if callable(what) else what
        time.sleep(every)


def free_port() -> int:
    """A TCP port of 127.0.0.1 that nothing listens on now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def listens(pid: int, port: int) -> bool:
    """Whether process ``pid`` itself holds the socket listening on ``port``.

    A connection succeeding proves only that somebody listens: with several
    test runs on one machine, that may be another run's server.
    """
    inodes: set[str] = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with open(table) as lines:
            next(lines)
            for line in lines:
                fields = line.split()
                if fields[3] == "0A" and int(fields[1].rsplit(":", 1)[1], 16) == port:
                    inodes.add(f"socket:[{fields[9]}]")
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            if os.readlink(fd) in inodes:
                return True
        except OSError:
            continue
    return False


def wait_for_port(
    port: int, process: subprocess.Popen[bytes], what: str, timeout: float = 15
) -> None:
    """Until ``process`` listens on ``port``; RuntimeError if it exits first
    (another process took the port, say) or does not listen within
    ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"{what} exited with {process.returncode}")
        if listens(process.pid, port):
            return
        time.sleep(0.05)
    raise RuntimeError(f"{what} did not listen on {port}")


def start_on_free_port(
    command: Callable[[int], list[str]], what: str, **popen: Any
) -> tuple[int, subprocess.Popen[bytes]]:
    """Start ``command(port)`` on a free port and wait until it listens there;
    a port that another process took in between is tried again (3 times)."""
    for attempt in range(3):
        port = free_port()
        process: subprocess.Popen[bytes] = subprocess.Popen(command(port), **popen)
        try:
            wait_for_port(port, process, what)
        except RuntimeError:
            if process.poll() is None:
                process.kill()
            process.wait()
            if attempt == 2:
                raise
            continue
        return port, process
    raise AssertionError("unreachable")


def listening_socket() -> socket.socket:
    """A socket listening on a free port of 127.0.0.1, for a server process
    to inherit (gunicorn's ``--bind fd://N``).

    A port chosen by :func:`free_port` is free only when it is chosen: with
    several test runs on one machine, another server can take it before ours
    binds, and the test then talks to a stranger. A socket bound here is ours
    from the start.
    """
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(128)
    sock.set_inheritable(True)
    return sock


def gunicorn_command(sock: socket.socket, *arguments: str) -> list[str]:
    """gunicorn's command line, bound to the inherited ``sock``."""
    return [sys.executable, "-m", "gunicorn", "--bind", f"fd://{sock.fileno()}"] + [
        *arguments
    ]


def wait_for_workers(
    log: Path, workers: int, process: subprocess.Popen[bytes], timeout: float = 60
) -> None:
    """Until gunicorn's ``log`` says every worker has booted; RuntimeError if
    the process exits first or the workers do not boot in ``timeout`` s."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        text = log.read_text(errors="replace")
        if text.count("Booting worker") >= workers:
            return
        if process.poll() is not None:
            raise RuntimeError(f"gunicorn exited with {process.returncode}:\n{text}")
        time.sleep(0.05)
    raise RuntimeError(f"gunicorn's workers did not boot:\n{log.read_text()}")


@contextmanager
def gunicorn(
    app: str,
    pythonpath: Path,
    env: dict[str, str],
    workers: int = 1,
    sock: socket.socket | None = None,
) -> Iterator[int]:
    """gunicorn serving ``app`` (``module:factory()``, found on
    ``pythonpath``) with ``env`` on ``sock`` (default: a new
    :func:`listening_socket`); yields the port once every worker has
    booted, then stops it."""
    sock = sock or listening_socket()
    port: int = sock.getsockname()[1]
    with tempfile.TemporaryDirectory() as directory, sock:
        log = Path(directory) / "gunicorn.log"
        with log.open("wb") as output:
            process = subprocess.Popen(
                gunicorn_command(sock, "--workers", str(workers))
                + ["--pythonpath", str(pythonpath), app],
                env=env,
                cwd=ROOT,
                stdout=subprocess.DEVNULL,
                stderr=output,
                pass_fds=(sock.fileno(),),
            )
        try:
            try:
                wait_for_workers(log, workers, process)
            except RuntimeError as error:
                pytest.fail(str(error))
            yield port
        finally:
            process.terminate()
            process.wait(timeout=30)
