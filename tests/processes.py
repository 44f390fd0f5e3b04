"""Real server processes for the tests: a free port, waiting for it, gunicorn.

Imported as ``tests.processes`` (the project root is on pytest's path).
Each process is started on a free port of 127.0.0.1 and stopped by its pid.
"""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    """A TCP port of 127.0.0.1 that nothing listens on now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def wait_for_port(
    port: int, process: subprocess.Popen[bytes], what: str, timeout: float = 15
) -> None:
    """Until ``process`` listens on ``port``; RuntimeError if it exits first
    or does not listen within ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"{what} exited with {process.returncode}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"{what} did not listen on {port}")


@contextmanager
def gunicorn(
    app: str,
    pythonpath: Path,
    env: dict[str, str],
    workers: int = 1,
    port: int | None = None,
) -> Iterator[int]:
    """gunicorn serving ``app`` (``module:factory()``, found on
    ``pythonpath``) with ``env`` on ``port`` (default: a free one); yields
    the port, then stops it."""
    port = port or free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "--bind", f"127.0.0.1:{port}"]
        + ["--workers", str(workers), "--pythonpath", str(pythonpath), app],
        env=env,
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    assert process.stderr is not None
    try:
        try:
            wait_for_port(port, process, "gunicorn", timeout=60)
        except RuntimeError as error:
            process.terminate()
            pytest.fail(f"{error}: {process.stderr.read()!r}")
        yield port
    finally:
        process.terminate()
        process.wait(timeout=30)
        process.stderr.close()
