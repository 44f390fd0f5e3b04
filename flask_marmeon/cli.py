"""The ``flask marmeon`` command group."""

from __future__ import annotations

import click
from flask import current_app
from flask.cli import AppGroup

from .routing.checks import RouteStatus, app_problems, route_statuses

marmeon_group = AppGroup("marmeon", help="flask_marmeon: check routes and sitemaps.")


@marmeon_group.command("check-routes")
def check_routes_command() -> None:
    """List every route marked for the sitemap with its status.

    Exits with status 1, naming every problem (code H10), when a marked route
    cannot be in the sitemap, APP_URL is missing, or a route's ``locales=``
    is wrong.
    """
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    statuses = route_statuses(app)
    if statuses:
        _table(statuses)
    else:
        click.echo("No route is marked for the sitemap.")
    problems = [p for status in statuses for p in status.problems]
    problems += app_problems(app, statuses)
    if problems:
        click.echo(f"\n{len(problems)} problem(s), code H10:", err=True)
        for problem in problems:
            click.echo(f"  - {problem}", err=True)
        click.get_current_context().exit(1)


def _table(statuses: list[RouteStatus]) -> None:
    # Like Flask's "flask routes": one line per route, columns aligned.
    rows = [
        (
            str(status.rule.endpoint),
            ", ".join(sorted((status.rule.methods or set()) - {"HEAD", "OPTIONS"})),
            status.rule.rule,
            "ok" if not status.problems else f"H10 ({len(status.problems)})",
        )
        for status in statuses
    ]
    headers = ("Endpoint", "Methods", "Rule", "Status")
    widths = [max(len(row[i]) for row in [headers, *rows]) for i in range(4)]
    line = "  ".join(f"{{{i}:<{w}}}" for i, w in enumerate(widths))
    click.echo(line.format(*headers).rstrip())
    click.echo(line.format(*("-" * w for w in widths)).rstrip())
    for row in rows:
        click.echo(line.format(*row).rstrip())
