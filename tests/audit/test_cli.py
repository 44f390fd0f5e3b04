"""``flask marmeon audit``: the table, --json, the exit status, the progress bar."""

from __future__ import annotations

import io
import json
import threading

import pytest
from flask import request

from flask_marmeon import Marmeon
from flask_marmeon.audit import audit
from flask_marmeon.cli import _progress_bar

from .conftest import DESCRIPTION_B, ORIGIN, Site, runner_for


def test_a_clean_site_exits_0_with_a_summary(site: Site) -> None:
    result = runner_for(site).invoke(args=["marmeon", "audit"])
    assert result.exit_code == 0, result.output
    assert result.output.strip() == "2 pages audited: 0 errors, 0 warnings."


def test_an_error_exits_1_and_is_listed(site: Site) -> None:
    del site.files["/b"]
    result = runner_for(site).invoke(args=["marmeon", "audit"])
    assert result.exit_code == 1
    assert "ERROR  page-status" in result.output
    assert f"  {ORIGIN}/b" in result.output.splitlines()


def test_warnings_alone_exit_0(site: Site) -> None:
    site.page("/b", title="Chains", description=DESCRIPTION_B)
    result = runner_for(site).invoke(args=["marmeon", "audit"])
    assert result.exit_code == 0
    assert result.output.splitlines()[0].startswith("WARNING  title-too-short")
    assert result.output.splitlines()[-1] == "2 pages audited: 0 errors, 1 warning."


def test_json(site: Site) -> None:
    del site.files["/b"]
    result = runner_for(site).invoke(args=["marmeon", "audit", "--json"])
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    assert data == {
        "pages": 2,
        "findings": [
            {
                "code": "link-broken",
                "severity": "error",
                "url": f"{ORIGIN}/",  # the home page links /b
                "message": data["findings"][0]["message"],
            },
            {
                "code": "page-status",
                "severity": "error",
                "url": f"{ORIGIN}/b",
                "message": data["findings"][1]["message"],
            },
        ],
    }


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_no_progress_bar_unless_stderr_is_a_terminal(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr("sys.stderr", io.StringIO())
    assert _progress_bar() is None
    terminal = Terminal()
    monkeypatch.setattr("sys.stderr", terminal)
    advance = _progress_bar()
    assert advance is not None
    for done in range(1, 4):
        advance(done, 3)
    assert "Auditing" in terminal.getvalue()
    assert "100%" in terminal.getvalue()


def test_an_app_that_cannot_start_says_why(site: Site) -> None:
    from flask_marmeon import StartupError, everyone

    app = site.app()
    Marmeon(app)

    @app.post("/contact", sitemap=True, authorize=everyone)
    def contact() -> str:
        return "Thanks"

    with pytest.raises(StartupError, match="/contact"):
        audit(app)
    result = app.test_cli_runner().invoke(args=["marmeon", "audit"])
    assert result.exit_code == 1
    assert result.stderr.startswith("Error: ") and "/contact" in result.stderr


def test_an_app_without_app_url_says_so() -> None:
    from flask import Flask

    app = Flask("bare")
    Marmeon(app)
    result = app.test_cli_runner().invoke(args=["marmeon", "audit"])
    assert result.exit_code == 1
    assert "APP_URL" in result.stderr


def test_timeout_sets_how_long_each_answer_may_take(site: Site) -> None:
    release = threading.Event()
    app = site.app()
    Marmeon(app)

    @app.before_request
    def stuck() -> None:
        if request.path == "/b":
            release.wait()

    try:
        result = app.test_cli_runner().invoke(
            args=["marmeon", "audit", "--timeout", "0.5"]
        )
    finally:
        release.set()
    assert result.exit_code == 1, result.output
    assert "504 (no answer within 0.5 s)" in result.output


@pytest.mark.parametrize("value", ["0", "-3", "soon"])
def test_timeout_must_be_a_number_of_seconds_above_zero(site: Site, value: str) -> None:
    result = runner_for(site).invoke(args=["marmeon", "audit", "--timeout", value])
    assert result.exit_code == 2
    assert "--timeout" in result.output
