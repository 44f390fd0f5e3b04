"""The second table of ``benchmarks/scale.py``: 2,000,000 listings in two
languages, against ``django.contrib.sitemaps``' i18n sitemap, in the same
run and the same PostgreSQL as the ten million products.

``listing(id bigint primary key, updated_at timestamptz)`` (``--listings``
rows, made and vacuumed as ``product`` is) is served by a ``localized()``
route in two locales (``en``, ``de``): each part lists each of its rows once
per language, every URL with its hreflang links to both versions and
x-default. What is measured (issue 27's table):

- **Memory**: a fresh worker sharing a Redis (through Flask-Caching) asks
  the index, then every part, each once, as a crawler accepting gzip does;
  its growth is the peak resident set (VmHWM, reset before the first
  request) minus the resident set before it. Then again in a fresh worker
  with glibc's mmap threshold fixed (``MALLOC_MMAP_THRESHOLD_=131072``):
  by default glibc raises it once a large buffer is freed, and each
  part's build then leaves room in the heap that the parts kept break up.
- **Store**: then the bytes Redis holds for that one full set (the sum of
  ``MEMORY USAGE`` over its keys), against the parts' own gzip size (their
  XML by ``gzip.compress`` at level 6, summed). Each part is checked: its
  rows are consecutive keys, each in both languages with three links, and
  the parts together list every row once.
- **Pages while parts build**: gunicorn, 4 sync workers sharing a fresh
  Redis; after the index, 16 threads ask 16 unbuilt parts at once and ask
  again after each ``Retry-After`` until every one is built, while another
  thread asks an ordinary page (a listing) over and over: its p99.
- **Cold part against the floor**: in a fresh worker without a shared cache,
  five parts across the table, each asked nothing built yet, then written
  at once by the pure-Python floor (as in ``benchmarks/sitemap.py``: one
  f-string per URL, joined and encoded, no framework), from the same rows
  read by psycopg, and gzip-compressed at level 6 as a crawler that
  accepts gzip gets a part; the floor's file must be the part's, byte for
  byte. The median of the five ratios (each part's against its own floor,
  taken a moment apart).
- **Django**: the index and the last part of its i18n sitemap
  (``scale_django.py``), and its worker's growth.

Run by ``scale.py`` (workers ``listing-*``); ``create()`` is the app that
gunicorn serves (``MARMEON_SCALE_DB``, ``MARMEON_SCALE_REDIS``).
"""

from __future__ import annotations

import gzip
import os
import re
import statistics
from collections.abc import Callable
from typing import Any

from flask import Blueprint, Flask

from benchmarks.scale_django import django_app
from benchmarks.scale_measure import (  # noqa: E402
    ORIGIN,
    Clock,
    locals_of,
    memory,
    reset_peak,
    table_app,
)

LOCALES = ["en", "de"]
#: glibc's default threshold, fixed (MALLOC_MMAP_THRESHOLD_): see run().
MMAP_THRESHOLD = 128 * 1024
_EN = re.compile(rb"<loc>https://shop\.example/en/listings/(\d+)</loc>")
_HEAD = (
    '<?xml version="1.0" encoding="UTF-8"?>\n<urlset'
    ' xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"'
    ' xmlns:xhtml="http://www.w3.org/1999/xhtml">\n'
)


# -- the app -------------------------------------------------------------------


def listing_app(url: str, redis: str | None = None) -> Flask:
    """flask_marmeon's app: a ``localized()`` ``paged()`` route of listings."""
    from sqlalchemy import select

    from flask_marmeon import SitemapEntry, everyone, localized
    from flask_marmeon import sqlalchemy as marmeon_sqlalchemy

    # A test client's request waits for the build: it measures how long a
    # part takes, however long (gunicorn's sync workers answer 503 at once).
    app, Listing = table_app(
        "scale_listings", "listing", url, redis, APP_LOCALES=LOCALES
    )
    shop = localized(Blueprint("shop", __name__))

    def listing_entry(row: Any) -> SitemapEntry:
        # As docs/large-sites.rst shows: a row unpacked, not read by its
        # attributes (row.id), which SQLAlchemy finds after a failed lookup.
        key, updated_at = row
        return SitemapEntry({"listing_id": key}, last_modified=updated_at)

    @shop.get(
        "/listings/<int:listing_id>",
        authorize=everyone,
        sitemap=marmeon_sqlalchemy.paged(
            select(Listing.id, Listing.updated_at),
            key=Listing.id,
            entry=listing_entry,
        ),
    )
    def listing(listing_id: int) -> str:
        return f"listing {listing_id}"

    app.register_blueprint(shop)
    return app


def create() -> Flask:
    """The app gunicorn serves: the database and Redis from the environment."""
    return listing_app(
        os.environ["MARMEON_SCALE_DB"], os.environ["MARMEON_SCALE_REDIS"]
    )


def client_get(app: Flask) -> Callable[[str], bytes]:
    """GET through the test client as a crawler accepting gzip; the body."""
    client = app.test_client()
    client.get("/robots.txt")  # the start-up checks, once, as in production

    def get(path: str) -> bytes:
        response = client.get(path, headers={"Accept-Encoding": "gzip"})
        if response.status_code != 200:
            raise SystemExit(f"flask_marmeon: {path} answered {response.status}")
        return response.data

    return get


# -- checks --------------------------------------------------------------------


def part_rows(name: str, xml: bytes) -> tuple[int, int]:
    """The first and last key of a part; fail unless its keys are consecutive,
    each in both languages with three links."""
    keys = [int(key) for key in _EN.findall(xml)]
    if not keys or keys != list(range(keys[0], keys[-1] + 1)):
        raise SystemExit(f"{name}: its keys are not consecutive")
    urls = xml.count(b"<url>")
    if urls != len(LOCALES) * len(keys) or xml.count(b"<xhtml:link") != 3 * urls:
        raise SystemExit(f"{name}: {urls} URLs for {len(keys)} rows")
    return keys[0], keys[-1]


def check_cover(name: str, ranges: list[tuple[int, int]], rows: int) -> None:
    """Fail unless the parts' ranges list keys 1..rows, each once."""
    ends = [0, *(key for pair in ranges for key in pair), rows + 1]
    if any(ends[i + 1] != ends[i] + 1 for i in range(0, len(ends), 2)):
        raise SystemExit(f"{name}: the parts do not list every row once: {ranges}")


# -- the floor -----------------------------------------------------------------


def floor(connection: Any, first: int, last: int) -> tuple[bytes, float]:
    """The part of keys ``first..last`` as the least pure Python writes it:
    its rows read by psycopg, one f-string per URL, joined, encoded and
    gzip-compressed (level 6); the XML, and the share of the time gzip took."""
    import time

    rows = connection.execute(
        "SELECT id, updated_at FROM listing WHERE id >= %s AND id <= %s ORDER BY id",
        (first, last),
    ).fetchall()
    urls = []
    for key, when in rows:
        day = when.date().isoformat()
        links = (
            f'<xhtml:link rel="alternate" hreflang="en" href="{ORIGIN}/en/listings/'
            f'{key}"/><xhtml:link rel="alternate" hreflang="de" href="{ORIGIN}/de/'
            f'listings/{key}"/><xhtml:link rel="alternate" hreflang="x-default"'
            f' href="{ORIGIN}/listings/{key}"/></url>\n'
        )
        urls.append(
            f"<url><loc>{ORIGIN}/en/listings/{key}</loc><lastmod>{day}</lastmod>"
            + links
        )
        urls.append(
            f"<url><loc>{ORIGIN}/de/listings/{key}</loc><lastmod>{day}</lastmod>"
            + links
        )
    xml = (_HEAD + "".join(urls) + "</urlset>\n").encode()
    started = time.perf_counter()
    gzip.compress(xml, 6, mtime=0)
    return xml, time.perf_counter() - started


# -- workers (each in a fresh process: scale.py --worker listing-...) ----------


def parts_worker(server: dict[str, Any], rows: int) -> dict[str, Any]:
    """Every part asked once with a shared cache: memory, then the gzip size
    of each part and the checks (after the memory is read)."""
    app = listing_app(server["url"], server["redis"])
    clock = Clock(client_get(app), server["pid"])
    baseline = reset_peak()
    paths = locals_of(clock("index_cold", "/sitemap.xml"))
    walls, cpus, served = [], [], 0
    for path in paths:
        wall, cpu, body = clock.measure(lambda path=path: clock.get(path))
        walls.append(wall)
        cpus.append(cpu)
        served += len(body)
    figures = clock.figures
    figures.update(parts=len(paths), memory=memory()["VmHWM"] - baseline)
    figures.update(part_cold=statistics.median(walls), part_cold_max=max(walls))
    figures.update(part_cold_cpu=statistics.median(cpus), served=served)
    ranges, packed, xml_bytes = [], 0, 0
    for number, path in enumerate(paths, start=1):
        xml = gzip.decompress(clock.get(path))
        ranges.append(part_rows(f"flask_marmeon's part {number}", xml))
        packed += len(gzip.compress(xml, 6, mtime=0))
        xml_bytes += len(xml)
    check_cover("flask_marmeon", ranges, rows)
    figures.update(gzipped=packed, xml=xml_bytes, rows_per_part=ranges[0][1])
    return figures


def floor_worker(server: dict[str, Any], rows: int) -> dict[str, Any]:
    """Five cold parts, each right before the floor writes the same rows."""
    import psycopg

    app = listing_app(server["url"])
    clock = Clock(client_get(app), server["pid"])
    paths = locals_of(clock("index_cold", "/sitemap.xml"))
    count = len(paths)
    numbers = sorted({1, count // 4 + 1, count // 2 + 1, 3 * count // 4 + 1, count})
    dsn = f"host=127.0.0.1 port={server['port']} user={server['user']} dbname=postgres"
    turns = []
    with psycopg.connect(dsn, options="-c TimeZone=UTC") as connection:
        floor(connection, 1, 10)  # the connection and the query warm
        for number in numbers:
            path = paths[number - 1]
            ours, ours_cpu, body = clock.measure(lambda path=path: clock.get(path))
            xml = gzip.decompress(body)
            first, last = part_rows(f"part {number}", xml)
            theirs, theirs_cpu, (made, zipped) = clock.measure(
                lambda first=first, last=last: floor(connection, first, last)
            )
            if made != xml:
                raise SystemExit(f"the floor's part {number} is not flask_marmeon's")
            turns.append((number, ours, ours_cpu, theirs, theirs_cpu, zipped))
    return {"turns": turns}


def django_worker(server: dict[str, Any], rows: int) -> dict[str, Any]:
    """Django's index and last part, nothing kept between requests."""
    clock = Clock(django_app(server, "listing", "listings", LOCALES), server["pid"])
    baseline = reset_peak()
    paths = locals_of(clock("index_cold", "/sitemap.xml"))
    body = clock("last_cold", paths[-1])
    first, last = part_rows("Django's last part", body)
    if last != rows:
        raise SystemExit(f"Django's last part ends at {last}, not {rows}")
    clock.figures.update(memory=memory()["VmHWM"] - baseline, parts=len(paths))
    return clock.figures


WORKERS = {
    "listing-parts": parts_worker,
    "listing-floor": floor_worker,
    "listing-django": django_worker,
}


# -- the run (in scale.py's process) -------------------------------------------


def store_bytes(url: str) -> tuple[int, int]:
    """What Redis holds: the sum of ``MEMORY USAGE`` over its keys, and how
    many keys."""
    import redis

    client = redis.Redis.from_url(url)
    keys = list(client.scan_iter(count=1000))
    return sum(client.memory_usage(key, samples=0) or 0 for key in keys), len(keys)


def run(
    server: Any, rows: int, worker: Callable[..., dict[str, Any]]
) -> dict[str, Any]:
    """Every figure of the listings' table; ``worker(kind, server, rows,
    **options)`` runs one in a fresh process (scale.py's)."""
    from pathlib import Path

    from benchmarks.scale_starvation import pages_while_parts_build
    from tests.sitemap.servers import RedisServer

    redis = RedisServer(Path(server.directory))
    try:
        figures = worker("listing-parts", server, rows, redis=redis.url)
        figures["store"], figures["keys"] = store_bytes(redis.url)
    finally:
        redis.stop()
    # The same with glibc's mmap threshold fixed (docs/large-sites.rst,
    # Deploying): each build's large buffers are given back when freed
    # instead of kept in its heap between the parts kept.
    redis = RedisServer(Path(server.directory))
    try:
        env = {"MALLOC_MMAP_THRESHOLD_": str(MMAP_THRESHOLD)}
        again = worker("listing-parts", server, rows, redis=redis.url, env=env)
        figures["memory_mmap"] = again["memory"]
    finally:
        redis.stop()
    figures["floor"] = worker("listing-floor", server, rows)["turns"]
    figures["starved"] = pages_while_parts_build(server.url, Path(server.directory))
    figures["django"] = worker("listing-django", server, rows)
    return figures
