"""When the H10 check runs for a real server (issue 9, "For a new user").

Flask's ``flask run`` has no hook between loading the app and serving it,
but it stops at once when loading raises (``run_command`` re-raises, and
under the reloader prints the error at start). So an app factory that ends
with ``raise_on_problems(app)`` stops ``flask run`` and gunicorn before
either answers anything; without it, the extension's WSGI edge runs the
check before the first request, which is refused while a problem remains.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from tests.processes import free_port, wait_until

TESTS = Path(__file__).parent


def environ() -> dict[str, str]:
    env = {**os.environ, "PYTHONPATH": str(TESTS), "PYTHONUNBUFFERED": "1"}
    for name in ("APP_URL", "APP_LOCALES", "FLASK_APP", "FLASK_DEBUG"):
        env.pop(name, None)
    return env


def python_m(*arguments: str) -> subprocess.Popen[str]:
    """``python -m arguments`` in tests/, its output read as text."""
    return subprocess.Popen(
        [sys.executable, "-m", *arguments],
        env=environ(),
        cwd=TESTS,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )


def flask_run(app: str, port: int, *options: str) -> subprocess.Popen[str]:
    return python_m("flask", "--app", app, *options, "run", "--port", str(port))


def gunicorn_at_any_port(*arguments: str) -> subprocess.Popen[str]:
    return python_m("gunicorn", "--bind", f"127.0.0.1:{free_port()}", *arguments)


def finish(process: subprocess.Popen[str], timeout: float = 60) -> tuple[int, str]:
    try:
        output, _ = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        process.terminate()
        output, _ = process.communicate(timeout=30)
        pytest.fail(f"the server did not stop at start:\n{output}")
    return process.returncode, output


@pytest.mark.parametrize("options", [(), ("--debug",)])
def test_flask_run_stops_at_start(options: tuple[str, ...]) -> None:
    process = flask_run("startup_site:create_app()", free_port(), *options)
    code, output = finish(process)
    assert code != 0
    assert "StartupError" in output
    assert "route '/contact' (endpoint 'contact') does not answer GET" in output
    assert "Running on" not in output


def test_gunicorn_stops_at_start() -> None:
    process = gunicorn_at_any_port("--workers", "2", "startup_site:create_app()")
    code, output = finish(process)
    assert code != 0
    assert "StartupError" in output and "'/contact'" in output


def test_gunicorn_preload_stops_in_the_master() -> None:
    process = gunicorn_at_any_port("--preload", "startup_site:create_app()")
    code, output = finish(process)
    assert code != 0
    # gunicorn prints the error's message in the master ("Error: [H10] ...").
    assert "[H10]" in output and "'/contact'" in output
    assert "Booting worker" not in output


def test_without_the_call_the_first_request_is_refused() -> None:
    port = free_port()
    process = flask_run("startup_site:create_app(check=False)", port)
    lines: list[str] = []
    assert process.stdout is not None
    reader = threading.Thread(target=lambda: lines.extend(process.stdout or ()))
    reader.start()
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5)
            except urllib.error.HTTPError as error:
                assert error.code == 500
                break
            except OSError:
                assert process.poll() is None, "flask run stopped"
                assert time.monotonic() < deadline, "flask run did not start"
                time.sleep(0.1)
            else:
                pytest.fail("the app answered despite its H10 problem")
        # The server logs the error after it has answered.
        wait_until(
            lambda: any("StartupError" in line for line in lines),
            what=lambda: "".join(lines),
        )
    finally:
        process.terminate()
        process.wait(timeout=30)
        reader.join(30)
        process.stdout.close()
    assert "Running on" in "".join(lines)


def test_a_gunicorn_on_starting_hook_stops_at_start(tmp_path: Path) -> None:
    # docs/deployment.rst: the hook for an app one does not build oneself.
    config = tmp_path / "gunicorn.conf.py"
    config.write_text(
        "preload_app = True\n\n"
        "def on_starting(server):\n"
        "    from startup_site import create_app\n"
        "    from flask_marmeon import raise_on_problems\n\n"
        "    raise_on_problems(create_app(check=False))\n"
    )
    process = gunicorn_at_any_port(
        "--config", str(config), "startup_site:create_app(check=False)"
    )
    code, output = finish(process)
    assert code != 0
    assert "[H10]" in output and "Booting worker" not in output
