"""The ``flask marmeon`` command group."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime
from typing import Any

import click
from flask import Flask, current_app
from flask.cli import AppGroup, ScriptInfo

from ._edge import check_routes
from .audit import audit as run_audit
from .audit.fetch import TIMEOUT
from .audit.site import MAX_PAGES, MAX_SITEMAPS
from .errors import StartupError
from .indexnow import IndexNowError, Submission, submit_changed
from .indexnow.send import MAX_URLS
from .indexnow.watermark import from_iso
from .routing.checks import RouteStatus, route_statuses
from .sitemap.build import EmptyRoute, build_sitemap
from .sitemap.export import ExportError, export_sitemap
from .sitemap.report import failure

marmeon_group = AppGroup("marmeon", help="flask_marmeon: check routes and sitemaps.")


@marmeon_group.command("check-routes", with_appcontext=False)
def check_routes_command() -> None:
    """List every route marked for the sitemap with its status.

    Exits with status 1, naming every problem (code H10), when a marked route
    cannot be in the sitemap, APP_URL is missing, or a route's ``locales=``
    is wrong. Works on an app whose factory ends with ``raise_on_problems(app)``.
    """
    app = _load_even_if_stopped()
    with app.app_context():
        _check_routes(app)


def _load_even_if_stopped() -> Flask:
    """The app of the command line, even when its factory stopped it with
    :func:`~flask_marmeon.raise_on_problems`: the error carries the app."""
    if current_app:
        return current_app._get_current_object()  # type: ignore[attr-defined,no-any-return]
    info = click.get_current_context().ensure_object(ScriptInfo)
    try:
        return info.load_app()
    except StartupError as error:
        if not isinstance(error.app, Flask):
            raise
        return error.app


def _check_routes(app: Flask) -> None:
    statuses = route_statuses(app)
    problems = check_routes(app)
    empty = _empty_routes(app) if statuses and not problems else {}
    if statuses:
        _table(statuses, empty)
    else:
        click.echo("No route is marked for the sitemap.")
    if empty:
        click.echo(f"\n{len(empty)} warning(s):")
        for route in empty.values():
            click.echo(
                f"  - route {route.rule!r} (endpoint {route.endpoint!r}): its"
                f" provider gave entries, and the sitemap lists none of them:"
                f" {route.message}."
            )
    if problems:
        click.echo(f"\n{len(problems)} problem(s), code H10:", err=True)
        for problem in problems:
            click.echo(f"  - [{problem.id}] {problem.where}{problem.message}", err=True)
            if problem.hint:
                click.echo(f"    hint: {problem.hint}", err=True)
        click.get_current_context().exit(1)


def _empty_routes(app: Flask) -> dict[str, EmptyRoute]:
    """The marked routes whose entries the sitemap leaves out, all of them
    (by rule): the providers run, as for a request of the sitemap."""
    try:
        sitemap = build_sitemap(app)
    except Exception as error:
        # A warning, not a failure: CI may check routes without the database.
        click.echo(
            f"\nThe sitemap's entries were not checked: building it failed"
            f" ({failure(error)}).",
            err=True,
        )
        return {}
    return {route.rule: route for route in sitemap.empty_routes}


def _table(statuses: list[RouteStatus], empty: dict[str, EmptyRoute]) -> None:
    # Like Flask's "flask routes": one line per route, columns aligned.
    rows = [
        (
            str(status.rule.endpoint),
            ", ".join(sorted((status.rule.methods or set()) - {"HEAD", "OPTIONS"})),
            status.rule.rule,
            f"H10 ({len(status.problems)})"
            if status.problems
            else "warning"
            if status.rule.rule in empty
            else "ok",
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


@marmeon_group.command("audit")
@click.option(
    "--format",
    "output",
    type=click.Choice(["text", "json", "junit"]),
    default=None,
    help="text (a table, the default), json, or junit (JUnit XML for CI: one"
    " test case per page, its errors as failures).",
)
@click.option("--json", "as_json", is_flag=True, help="The same as --format json.")
@click.option(
    "--timeout",
    type=click.FloatRange(min=0, min_open=True),
    default=TIMEOUT,
    show_default=True,
    help="Seconds to wait for each answer; a slower one is reported as a 504.",
)
@click.option(
    "--max-pages",
    type=click.IntRange(min=1),
    default=MAX_PAGES,
    show_default=True,
    help="Addresses to fetch at most, listed and linked (and listed URLs to"
    " audit at most); more is the warning audit-capped.",
)
@click.option(
    "--max-sitemaps",
    type=click.IntRange(min=1),
    default=MAX_SITEMAPS,
    show_default=True,
    help="Sitemap files to read at most (robots.txt's and the indexes' parts).",
)
def audit_command(
    output: str | None,
    as_json: bool,
    timeout: float,
    max_pages: int,
    max_sitemaps: int,
) -> None:
    """Crawl the app as a search engine does, in-process, and report findings.

    Fetches robots.txt, the sitemaps and every URL they list through the app
    itself (no network; APP_URL names the origin). Exits with status 1 when
    any finding is an error.
    """
    if as_json and output not in (None, "json"):
        raise click.UsageError(
            f"--json asks for JSON and --format for {output}: give one of them."
        )
    output = "json" if as_json else output or "text"
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    # The app cannot start (H10), APP_URL is missing, or the audit extra is.
    with _said(StartupError, ValueError, ImportError, bar="Auditing") as bar:
        report = run_audit(
            app,
            progress=bar,
            timeout=timeout,
            max_pages=max_pages,
            max_sitemaps=max_sitemaps,
        )
    if output == "junit":
        click.echo(report.junit(), nl=False)
    else:
        click.echo(report.to_json() if output == "json" else report.table())
    if report.errors:
        click.get_current_context().exit(1)


@marmeon_group.command("export-sitemap")
@click.argument("directory", type=click.Path(file_okay=False, writable=True))
@click.option(
    "--base-url",
    metavar="URL",
    default=None,
    help="Where the files will be served (a CDN, a bucket): the index names"
    " them under URL instead of APP_URL.",
)
def export_sitemap_command(directory: str, base_url: str | None) -> None:
    """Write the sitemap into DIRECTORY as static files, for a CDN.

    The index (sitemap.xml) and every part, each also gzipped (NAME.gz),
    read in one database snapshot; DIRECTORY is made when missing. The files
    are written aside, then moved into place with the index last, so a
    failure leaves the last export whole; only files the last export wrote
    (listed in .marmeon-export) are ever removed.
    """
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    with _said(StartupError, ExportError, bar="Exporting") as bar:
        names = export_sitemap(app, directory, progress=bar, base_url=base_url)
    click.echo(f"Wrote {len(names)} files (and their .gz) into {directory}.")


def _moment(ctx: click.Context, param: click.Parameter, value: str | None) -> Any:
    """``--since``: an ISO 8601 date and time (a date alone: its midnight)."""
    if value is None:
        return None
    try:
        return from_iso(value)
    except ValueError:
        raise click.BadParameter(
            f"{value!r} is not an ISO 8601 date and time, such as"
            " 2026-12-01T09:00:00Z or 2026-12-01.",
            ctx,
            param,
        ) from None


@marmeon_group.command("indexnow")
@click.option("--dry-run", is_flag=True, help="Print the URLs; send nothing.")
@click.option(
    "--since",
    metavar="ISO-8601",
    callback=_moment,
    help="Send what changed after this moment instead of the last run's.",
)
def indexnow_command(dry_run: bool, since: datetime | None) -> None:
    """Tell IndexNow (Bing, Yandex, Naver, Seznam, Yep) which pages changed.

    Sends every address of the sitemap whose last_modified is later than
    the last run's watermark, and moves it once everything was accepted.
    The first run sends nothing and sets it. Exits with status 1 when
    anything was not accepted.
    """
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    with _said(IndexNowError, StartupError):
        done = submit_changed(app, since, dry_run)
    _say(done)


def _say(done: Submission) -> None:
    """What a run did, for the person (or the cron mail) reading it."""
    if done.first_run:
        if done.dry_run:
            click.echo("No watermark yet: the first run sends nothing.", err=True)
        else:
            click.echo(
                "First run: nothing sent; the watermark is set. The next run"
                " sends the pages that change from now on."
            )
        return
    changed = (
        f"{len(done.urls)} URL(s) changed since {done.since:%Y-%m-%d %H:%M:%S} UTC"
    )
    if done.dry_run:
        for url in done.urls:
            click.echo(url)
        click.echo(f"{changed} (dry run: nothing sent).", err=True)
        return
    if not done.urls:
        click.echo(f"{changed}: nothing to send.")
        return
    sent = [answer for answer in done.answers if answer.accepted]
    count = min(len(done.urls), len(sent) * MAX_URLS)
    click.echo(f"{changed}: sent {count} URL(s) in {len(sent)} request(s).")
    if not done.accepted:
        click.echo(f"Not accepted: {done.answers[-1].message}.", err=True)
        click.echo(
            "The watermark stays where it was: the next run sends them again.",
            err=True,
        )
        click.get_current_context().exit(1)


class _ProgressBar:
    """A click progress bar on stderr, made at the first step. It hides the
    cursor while it runs: :meth:`close` ends its line and shows the cursor
    again, also when the work stopped before the end."""

    def __init__(self, label: str) -> None:
        self.label = label
        self.bar: Any = None
        self.closed = False

    def __call__(self, done: int, total: int) -> None:
        if self.closed:
            return
        if self.bar is None:
            self.bar = click.progressbar(
                length=total, label=self.label, file=sys.stderr
            )
            self.bar.__enter__()
        self.bar.update(1)
        if done == total:
            self.close()

    def close(self) -> None:
        """End the bar's line and show the cursor (once)."""
        if self.bar is not None and not self.closed:
            self.bar.__exit__(None, None, None)
        self.closed = True


@contextmanager
def _said(
    *errors: type[Exception], bar: str | None = None
) -> Iterator[_ProgressBar | None]:
    """Say ``errors`` in one line and exit with status 1: what is wrong and
    what to do is the message, and a traceback says nothing more to the one
    running the command. With ``bar``, its label, :func:`_progress_bar`'s
    bar runs, closed before anything is said."""
    progress = _progress_bar(bar) if bar else None
    try:
        yield progress
    except errors as error:
        if progress is not None:
            progress.close()
        click.echo(f"Error: {error}", err=True)
        click.get_current_context().exit(1)
    finally:
        if progress is not None:
            progress.close()


def _progress_bar(label: str = "Auditing") -> _ProgressBar | None:
    """A progress bar on stderr, only when stderr is a terminal."""
    if not sys.stderr.isatty():
        return None
    return _ProgressBar(label)
