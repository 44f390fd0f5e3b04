"""``flask marmeon export-sitemap DIR``: the sitemap as static files.

The same builds as the endpoints' (build.py), written into a directory for
a CDN or an object store: the site's files, every part of every paged route
(built one at a time, so one part is held at once), each beside its gzip
form ``NAME.gz``, and the index last. Every paged route that can
(``paged()``) reads its rows in one database snapshot (one transaction,
``REPEATABLE READ`` where the database has it).

A reader of DIR, at any instant, gets the whole previous export or the
whole new one. Each file but the index is named after its bytes as well
(``sitemap-products-3.<digest>.xml``), so an export never writes over a
file that the index before it names; the files are first written into a
staging directory inside DIR, then moved into place under those names, and
the index is replaced last, by one rename. The files of the export before
it stay until the next export ends (a reader of its index may still be
reading them); only then are they removed. A failure midway changes nothing
of the last export. A list of the files written is kept beside the index
(``.marmeon-export``): an export removes only files named there (other
files, the user's or another tool's, are left alone).
"""

from __future__ import annotations

import gzip
import hashlib
import os
import re
import secrets
import shutil
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from flask import Flask

from .._edge import raise_on_problems
from .._state import get_state
from .build import Sitemap, build_boundaries, build_part, build_sitemap
from .paged import PagedRoute, paged_routes, part_range
from .report import failure
from .xml import sitemap_index

#: The names an export gives its files: the index, and the others under
#: their own name and the digest of their bytes (before: their name alone).
_OURS = re.compile(r"sitemap(-[a-z0-9-]+)?(\.[0-9a-f]{12})?\.xml")
#: The index's name, the one file written over.
_INDEX = "sitemap.xml"
#: The list of the files an export wrote, beside the index.
_LIST = ".marmeon-export"
#: The staging directory's name (then a random part).
_STAGING = ".marmeon-export-"


class ExportError(Exception):
    """The export could not be done: the message says why, what the
    directory holds now and what to do."""


def _directory(target: Path) -> None:
    """Make ``target`` (and its parents) when missing, or say why not."""
    try:
        target.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        reason = error.strerror or str(error)
        if target.is_symlink() and not target.exists():
            link = os.readlink(target)
            reason = f"it is a symbolic link to {link!r}, which is missing"
        raise ExportError(
            f"The directory {str(target)!r} cannot be made ({reason}). Give a"
            " directory that exists or can be made, and that this process may"
            " write into."
        ) from error


def _write(directory: Path, name: str, body: bytes) -> None:
    """``name`` and ``name.gz`` in the staging directory (ours alone)."""
    (directory / name).write_bytes(body)
    (directory / f"{name}.gz").write_bytes(gzip.compress(body, 6, mtime=0))


def export_sitemap(
    app: Flask,
    directory: str | os.PathLike[str],
    progress: Callable[[int, int], None] | None = None,
    *,
    base_url: str | None = None,
) -> list[str]:
    """Write the app's sitemap into ``directory`` (made when missing);
    return the names written (each file but the index named after its bytes
    too: ``sitemap-products-3.<digest>.xml``), the index (``sitemap.xml``)
    last.

    ``base_url`` (``https://cdn.example/sitemaps``) is where the index says
    the files are, instead of APP_URL and the mount path.

    How the files replace the last export's, whole or not at all: see the
    module's docstring.

    ``progress(done, total)`` is called after each file. Raises
    :class:`~flask_marmeon.StartupError` when the app has H10 problems, and
    :class:`ExportError` when the directory cannot be made or written, or a
    provider fails (the message names the route, and the range of a part).
    """
    raise_on_problems(app)
    if not os.fspath(directory).strip():
        # "$OUT" with OUT unset: Path("") is the current directory.
        raise ExportError(
            f"DIRECTORY is empty ({os.fspath(directory)!r}; an unset variable?):"
            " give the directory to write into, such as public/sitemaps, or ."
            " for the current one."
        )
    target = Path(directory)
    _directory(target)
    base = _base(app, base_url)
    with ExitStack() as snapshots:
        for route in paged_routes(app):
            snapshot = getattr(route.provider, "snapshot", None)
            if callable(snapshot):
                snapshots.enter_context(snapshot())
        return _export(app, target, base, progress)


def _base(app: Flask, base_url: str | None) -> str:
    if base_url is None:
        return get_state(app).settings.site_base
    parts = urlsplit(base_url)
    if parts.scheme not in ("http", "https") or not parts.netloc or parts.query:
        raise ExportError(
            f"--base-url {base_url!r} is not an http(s) address without a query:"
            " give where the files will be served, such as"
            " https://cdn.example/sitemaps."
        )
    return base_url.rstrip("/")


def _export(
    app: Flask,
    target: Path,
    base: str,
    progress: Callable[[int, int], None] | None,
) -> list[str]:
    starts: dict[str, tuple[Any, ...]] = {}

    def where(route: PagedRoute) -> tuple[Any, ...]:
        # Asked by the build for the routes the index lists: one on another
        # host is left out, and its store asked nothing (as the endpoint's).
        try:
            starts[route.slug] = build_boundaries(app, route)
        except Exception as error:
            raise ExportError(
                f"Where the parts of {route.where} begin could not be asked of"
                f" its store ({failure(error)}). Nothing was written: run the"
                " export again when the store answers."
            ) from error
        return starts[route.slug]

    try:
        sitemap = build_sitemap(app, where)
    except ExportError:
        raise
    except Exception as error:
        raise ExportError(
            f"Building the sitemap failed ({failure(error)}). Nothing was"
            " written: run the export again when its providers answer."
        ) from error
    routes = [route for route in paged_routes(app) if route.slug in starts]
    last, earlier = _written_before(target)
    staging = target / f"{_STAGING}{secrets.token_hex(4)}"
    staging.mkdir()
    written: list[str] = []
    try:
        try:
            _write_files(app, staging, sitemap, routes, starts, written, progress, base)
        except Exception as error:
            known = isinstance(error, (ExportError, OSError))
            reason = str(error) if known else failure(error)
            raise ExportError(
                f"The export stopped after {len(written)} file(s): {reason}."
                f" Nothing in {str(target)!r} was changed: it still holds the"
                " previous export, whole (its index sitemap.xml, if any, and"
                " every file it names); run the export again once this is"
                " fixed."
            ) from error
        new = set(written)
        _check_places(target, written)
        # The list first, naming every file of ours that may be in DIR
        # until the end: even if the moves are cut short, the next export
        # removes what this one moved in.
        _keep_list(target, written, (last | earlier) - new)
        _move_into_place(staging, target, written)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    # The last export's files stay (a reader of its index may still be
    # reading them); the ones before it go.
    kept = last - new
    for name in earlier - new - kept:
        for stale in (target / name, target / f"{name}.gz"):
            if stale.is_file() and not stale.is_symlink():
                stale.unlink()
    _keep_list(target, written, kept)
    for name in (_INDEX, f"{_INDEX}.gz"):
        # Dated as the last of the files.
        os.utime(target / name)
    return written


def _check_places(target: Path, written: list[str]) -> None:
    """That each file written can take its place (a directory of that name
    cannot), so that nothing changes unless everything can."""
    for name in written:
        for place in (target / name, target / f"{name}.gz"):
            if place.is_dir():
                raise ExportError(
                    f"{str(place)!r} is a directory, where the export writes"
                    " a sitemap file of that name. Nothing in"
                    f" {str(target)!r} was changed: move that directory away"
                    " and run the export again."
                )


def _move_into_place(staging: Path, target: Path, written: list[str]) -> None:
    """Every file written, in order: the index last. The other files' names
    are new (or name the very same bytes), so no reader of the last index
    sees one of its files change; the index is replaced by one rename (its
    gzip twin by another), so a reader gets the old one or the new one,
    whole."""
    assert written[-1] == _INDEX
    for name in written:
        for one in (name, f"{name}.gz"):
            os.replace(staging / one, target / one)


def _keep_list(target: Path, written: list[str], kept: set[str]) -> None:
    """The list of the files of ours in DIR, beside the index: this
    export's, a blank line, then those of the last one that stay."""
    temporary = target / f"{_LIST}.{secrets.token_hex(4)}.tmp"
    lines = [*written, "", *sorted(kept)]
    temporary.write_text("".join(f"{line}\n" for line in lines))
    os.rename(temporary, target / _LIST)


def _written_before(target: Path) -> tuple[set[str], set[str]]:
    """The files of the last export and those kept of the one before it
    (the list beside the index): the only ones an export removes, so a
    file of the user's or of another tool (a hand-written
    ``sitemap-news.xml``, another index's files) is never touched. A list
    written before exports kept files apart holds the last export's."""
    try:
        text = (target / _LIST).read_text()
    except (OSError, UnicodeDecodeError):
        return set(), set()
    last, _, earlier = text.partition("\n\n")

    def ours(part: str) -> set[str]:
        return {name for name in part.split("\n") if _OURS.fullmatch(name)}

    return ours(last), ours(earlier)


def _write_files(
    app: Flask,
    target: Path,
    sitemap: Sitemap,
    routes: list[PagedRoute],
    starts: dict[str, tuple[Any, ...]],
    written: list[str],
    progress: Callable[[int, int], None] | None,
    base: str,
) -> None:
    """Write every file the index names, each part built in turn, then the
    index (naming the files under ``base``, each part with its
    ``<lastmod>``); ``written`` grows with each name."""
    listed = sitemap.names
    days = dict(zip(listed, sitemap.lastmods, strict=False))
    total = len(listed) + 1
    # Looked up once per part: a set, not the tuple (thousands of parts).
    named = set(listed)

    # Each file's name as written: its name and the digest of its bytes.
    files: dict[str, str] = {}

    def done(name: str, body: bytes) -> None:
        digest = hashlib.sha256(body).hexdigest()[:12]
        files[name] = (
            name if name == _INDEX else f"{name.removesuffix('.xml')}.{digest}.xml"
        )
        _write(target, files[name], body)
        written.append(files[name])
        if progress is not None:
            progress(len(written), total)

    for name in listed:
        digits = name.removeprefix("sitemap-").removesuffix(".xml")
        if digits.isdigit():
            done(name, sitemap.files[int(digits) - 1].body)
    for route in routes:
        for number in range(1, len(starts[route.slug]) + 1):
            name = f"sitemap-{route.slug}-{number}.xml"
            if name in named:
                try:
                    start, stop = part_range(starts[route.slug], number)
                    file = build_part(app, route, number, start, stop).file
                except Exception as error:
                    # Its message names the route and the range.
                    raise ExportError(str(error)) from error
                days[name] = file.lastmod
                done(name, file.body)
    if sitemap.index is None:
        done(_INDEX, sitemap.files[0].body)  # one file: it names pages
    else:
        located = ((f"{base}/{files[n]}", days.get(n)) for n in listed)
        done(_INDEX, sitemap_index(located))
