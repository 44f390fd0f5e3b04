"""flask marmeon check-routes."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from flask import Flask

from flask_marmeon import everyone


def view(**kwargs: object) -> str:
    return "ok"


def test_no_marked_route(app: Flask) -> None:
    app.get("/about")(view)
    result = app.test_cli_runner().invoke(args=["marmeon", "check-routes"])
    assert result.exit_code == 0
    assert "No route is marked" in result.output


def test_a_table_of_the_marked_routes(app: Flask) -> None:
    app.get("/about", sitemap=True, authorize=everyone)(view)
    app.get("/n/<int:n>", endpoint="note", sitemap=lambda: [], authorize=everyone)(view)
    app.get("/unmarked", endpoint="unmarked")(view)
    result = app.test_cli_runner().invoke(args=["marmeon", "check-routes"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].split() == ["Endpoint", "Methods", "Rule", "Status"]
    rows = {line.split()[0]: line.split() for line in lines[2:]}
    assert rows["view"] == ["view", "GET", "/about", "ok"]
    assert rows["note"] == ["note", "GET", "/n/<int:n>", "ok"]
    assert "unmarked" not in rows


def test_every_problem_is_named_and_the_exit_status_is_1(
    make_app: Callable[..., Flask],
) -> None:
    app = make_app()  # no APP_URL
    app.post("/form", endpoint="form", sitemap=True, authorize=everyone)(view)
    app.get("/secret", endpoint="secret", sitemap=True)(view)
    app.get("/about", endpoint="about", sitemap=True, authorize=everyone)(view)
    result = app.test_cli_runner().invoke(args=["marmeon", "check-routes"])
    assert result.exit_code == 1
    assert "3 problem(s)" in result.output
    for culprit in ("'/form'", "'/secret'", "APP_URL is not set"):
        assert culprit in result.output
    rows = {line.split()[0]: line for line in result.output.splitlines() if line}
    assert rows["about"].rstrip().endswith("ok")
    assert rows["form"].rstrip().endswith("H10 (1)")


def test_a_wrong_locales_option_fails_without_marked_routes(
    make_app: Callable[..., Flask],
) -> None:
    app = make_app(APP_LOCALES=["en"])
    app.get("/about", endpoint="about", locales=["en"])(view)
    result = app.test_cli_runner().invoke(args=["marmeon", "check-routes"])
    assert result.exit_code == 1
    assert "No route is marked" in result.output
    assert "route '/about' (endpoint 'about') has locales=" in result.output


def test_the_group_is_on_app_cli(app: Flask) -> None:
    from flask_marmeon.cli import marmeon_group

    assert app.cli.commands["marmeon"] is marmeon_group


FACTORY = """
from flask import Flask
from flask_marmeon import Marmeon, everyone, raise_on_problems


def create_app():
    app = Flask(__name__)
    app.config["APP_URL"] = "https://recipes.example"
    Marmeon(app)
    app.get("/r/<int:recipe_id>", endpoint="recipe", sitemap=True)(lambda recipe_id: "")
    app.get("/about", endpoint="about", sitemap=True, authorize=everyone)(lambda: "")
    raise_on_problems(app)  # as the README recommends
    return app
"""


def test_check_routes_prints_its_table_for_an_app_that_stops_at_start(
    tmp_path: Path,
) -> None:
    # The real command line, with a factory that ends with raise_on_problems.
    (tmp_path / "recipes.py").write_text(FACTORY)
    flask = [sys.executable, "-m", "flask", "--app", "recipes:create_app"]
    result = subprocess.run(
        [*flask, "marmeon", "check-routes"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 1, result.stderr
    assert "Traceback" not in result.stdout + result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].split() == ["Endpoint", "Methods", "Rule", "Status"]
    rows = {line.split()[0]: line.split() for line in lines[2:]}
    assert rows["recipe"][-2:] == ["H10", "(2)"]
    assert rows["about"][-1] == "ok"
    assert "2 problem(s), code H10" in result.stderr
    assert "has no policy" in result.stderr
    # Another command may still fail: the app refuses to start.
    other = subprocess.run(
        [*flask, "routes"], cwd=tmp_path, capture_output=True, text=True, timeout=60
    )
    assert other.returncode != 0 and "StartupError" in other.stderr
