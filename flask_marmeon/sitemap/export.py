"""``flask marmeon export-sitemap DIR``: the sitemap as static files.

The same builds as the endpoints' (build.py), written into a directory for
a CDN or an object store: the site's files, every part of every paged route
(built one at a time, so one part is held at once), each beside its gzip
form ``NAME.gz``, and the index last. Each file is written under a
temporary name in the same directory and renamed into place, so it is
complete when it appears; a file of an earlier export that this one does
not write is removed after the index, so the directory is this export.
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
from .build import build_boundaries, build_part, build_sitemap
from .paged import PagedRoute, paged_routes

#: The files an export writes (and an earlier export wrote).
_OURS = re.compile(r"sitemap(-[a-z0-9-]+)?\.xml(\.gz)?")


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
    :class:`~flask_marmeon.StartupError` when the app has H10 problems.
    """
    raise_on_problems(app)
    target = Path(directory)
    target.mkdir(parents=True, exist_ok=True)
    starts: dict[str, tuple[Any, ...]] = {}
    routes: list[PagedRoute] = []
    for route in paged_routes(app):
        starts[route.slug] = build_boundaries(app, route)
        routes.append(route)

    def where(route: PagedRoute) -> tuple[Any, ...]:
        # A route on another host is left out of the index (and asked here
        # for nothing).
        return starts[route.slug]

    sitemap = build_sitemap(app, where)
    listed = sitemap.names
    total = len(listed) + 1
    written: list[str] = []

    def done(name: str, body: bytes) -> None:
        _write(target, name, body)
        written.append(name)
        if progress is not None:
            progress(len(written), total)

    for name in listed:
        digits = name.removeprefix("sitemap-").removesuffix(".xml")
        if digits.isdigit():
            file = sitemap.part(int(digits))
            assert file is not None
            done(name, file)
    for route in routes:
        for number in range(1, len(starts[route.slug]) + 1):
            name = f"sitemap-{route.slug}-{number}.xml"
            if name in listed:
                done(name, build_part(app, route, number, starts[route.slug]).body)
    done("sitemap.xml", sitemap.main())
    for path in target.iterdir():
        if _OURS.fullmatch(path.name) and path.name.removesuffix(".gz") not in written:
            path.unlink()
    return written
