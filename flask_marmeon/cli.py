"""The ``flask marmeon`` command group."""

from __future__ import annotations

import click
from flask.cli import AppGroup

marmeon_group = AppGroup("marmeon", help="flask_marmeon: check routes and sitemaps.")


@marmeon_group.command("check-routes")
def check_routes_command() -> None:
    """List every route marked for the sitemap with its status (stub, issue 3)."""
    click.echo("No route is marked for the sitemap.")
