"""``flask marmeon export-sitemap DIR``: the sitemap as static files.

The same builds as the endpoints' (build.py), written into a directory for
a CDN or an object store: the site's files, every part of every paged route
(built one at a time, so one part is held at once), each beside its gzip
form ``NAME.gz``, and the index last. Each file is written under a
temporary name in the same directory and renamed into place, so it is
complete when it appears; a file the earlier export's index named that this
one does not write is removed after the new index (other files, the user's,
are left alone).
"""

from __future__ import annotations

import gzip
import os
import re
import secrets
from collections.abc import Callable
from pathlib import Path
from typing import Any

from flask import Flask

from ..routing.problems import raise_on_problems
from .build import Sitemap, build_boundaries, build_part, build_sitemap
from .paged import PagedRoute, paged_routes, part_range
from .report import failure

#: The names an export gives its files.
_OURS = re.compile(r"sitemap(-[a-z0-9-]+)?\.xml")
#: An index's addresses (the index is ours: no entity, no CDATA).
_LOC = re.compile(rb"<loc>([^<]*)</loc>")


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
    """``name`` and ``name.gz``, each complete when it appears."""
    for file_name, data in (
        (name, body),
        (f"{name}.gz", gzip.compress(body, 6, mtime=0)),
    ):
        temporary = directory / f".{file_name}.{secrets.token_hex(4)}.tmp"
        try:
            temporary.write_bytes(data)
            os.replace(temporary, directory / file_name)
        finally:
            temporary.unlink(missing_ok=True)


def export_sitemap(
    app: Flask,
    directory: str | os.PathLike[str],
    progress: Callable[[int, int], None] | None = None,
) -> list[str]:
    """Write the app's sitemap into ``directory`` (made when missing);
    return the names written, the index (``sitemap.xml``) last.

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
    before = _listed_before(target)
    written: list[str] = []
    try:
        _write_files(app, target, sitemap, routes, starts, written, progress)
    except Exception as error:
        known = isinstance(error, (ExportError, OSError))
        reason = str(error) if known else failure(error)
        # Each file is whole (written aside, then renamed), and the index
        # is written last: the directory still holds the last export's.
        raise ExportError(
            f"The export stopped after {len(written)} file(s): {reason}."
            f" {str(target)!r} still holds the previous export's index"
            " (sitemap.xml), if any, and every file in it is complete; run the"
            " export again once this is fixed."
        ) from error
    for name in before - set(written):
        for stale in (target / name, target / f"{name}.gz"):
            stale.unlink(missing_ok=True)
    return written


def _listed_before(target: Path) -> set[str]:
    """The files the index already in ``target`` names (an earlier export's):
    the only ones an export removes, so a file of the user's beside it
    (a hand-written ``sitemap-news.xml``) is never touched."""
    try:
        index = (target / "sitemap.xml").read_bytes()
    except OSError:
        return set()
    if b"<sitemapindex" not in index:
        return set()  # one file: it names pages, not files
    names = (loc.rsplit(b"/", 1)[-1] for loc in _LOC.findall(index))
    return {
        text
        for text in (name.decode("ascii", "replace") for name in names)
        if _OURS.fullmatch(text) and text != "sitemap.xml"
    }


def _write_files(
    app: Flask,
    target: Path,
    sitemap: Sitemap,
    routes: list[PagedRoute],
    starts: dict[str, tuple[Any, ...]],
    written: list[str],
    progress: Callable[[int, int], None] | None,
) -> None:
    """Write every file the index names, each part built in turn, then the
    index; ``written`` grows with each name."""
    listed = sitemap.names
    total = len(listed) + 1
    # Looked up once per part: a set, not the tuple (thousands of parts).
    named = set(listed)

    def done(name: str, body: bytes) -> None:
        _write(target, name, body)
        written.append(name)
        if progress is not None:
            progress(len(written), total)

    for name in listed:
        digits = name.removeprefix("sitemap-").removesuffix(".xml")
        if digits.isdigit():
            body = sitemap.part(int(digits))
            assert body is not None
            done(name, body)
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
                done(name, file.body)
    done("sitemap.xml", sitemap.main())
