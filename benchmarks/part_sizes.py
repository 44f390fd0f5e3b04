"""How each language multiplies a part's size, in memory and in the store.

A paged route of 100,000 rows, one part at a time, with one language and
with two (each page then has two URLs, each with its hreflang links, so a
part of 50,000 URLs holds 25,000 rows): the part's XML, its gzip form (what
a process and the shared cache keep) and how many parts the rows take.

    python benchmarks/part_sizes.py
"""

from __future__ import annotations

import gzip
import os
import sys
import time
from collections.abc import Iterator
from datetime import date
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from flask import Blueprint, Flask  # noqa: E402

from flask_marmeon import Marmeon, SitemapEntry, everyone, localized  # noqa: E402

ROWS = 100_000


class Rows:
    """Keys 1..ROWS, each page last modified on some day of 2025."""

    def boundaries(self, size: int) -> list[int]:
        return list(range(1, ROWS + 1, size))

    def entries(self, start: int, stop: int | None, limit: int) -> Iterator[object]:
        end = min(stop or ROWS + 1, start + limit)
        for key in range(start, end):
            yield SitemapEntry(
                {"listing_id": key},
                last_modified=date(2025, 1 + key % 12, 1 + key % 28),
            )


def measure(locales: list[str]) -> None:
    app = Flask("classifieds")
    app.config.update(APP_URL="https://classifieds.example", APP_LOCALES=locales)
    Marmeon(app)
    if len(locales) > 1:
        shop = localized(Blueprint("shop", __name__))
        shop.add_url_rule(
            "/listings/<int:listing_id>",
            "listing",
            str,
            authorize=everyone,
            sitemap=Rows(),
        )
        app.register_blueprint(shop)
    else:
        app.add_url_rule(
            "/listings/<int:listing_id>",
            "listing",
            str,
            authorize=everyone,
            sitemap=Rows(),
        )
    client = app.test_client()
    index = client.get("/sitemap.xml").data
    parts = index.count(b"<sitemap>")
    first = index.split(b"<loc>")[1].split(b"</loc>")[0].decode()
    path = first.removeprefix("https://classifieds.example")
    started = time.perf_counter()
    body = client.get(path, headers={"Accept-Encoding": "identity"}).data
    took = time.perf_counter() - started
    packed = len(gzip.compress(body, 6, mtime=0))
    urls = body.count(b"<url>")
    print(
        f"{len(locales)} language(s): {parts} parts for {ROWS:,} rows;"
        f" a part: {urls:,} URLs, {len(body) / 1e6:.1f} MB of XML,"
        f" {packed / 1e6:.2f} MB gzipped (kept); built in {took:.2f} s"
    )


if __name__ == "__main__":
    print(f"load average: {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    measure(["en"])
    measure(["en", "de"])
