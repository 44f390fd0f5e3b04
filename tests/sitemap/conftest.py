"""Helpers for the sitemap tests: parse, validate against the 0.9 schemas, crawl."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from flask import Flask
from lxml import etree

from flask_marmeon import SitemapEntry
from tests.documents import locs as locs  # for the tests of this folder
from tests.documents import strict_schema

from .servers import Gunicorn

SM = "{http://www.sitemaps.org/schemas/sitemap/0.9}"
XHTML = "{http://www.w3.org/1999/xhtml}"


@pytest.fixture(scope="session")
def urlset_schema() -> etree.XMLSchema:
    return strict_schema("sitemap.xsd")


@pytest.fixture(scope="session")
def index_schema() -> etree.XMLSchema:
    return strict_schema("siteindex.xsd")


@pytest.fixture
def read_sitemap(
    urlset_schema: etree.XMLSchema,
) -> Callable[..., etree._Element]:
    """GET a sitemap file, check it is a valid 0.9 <urlset>, return its root."""

    def read(app: Flask, path: str = "/sitemap.xml") -> etree._Element:
        response = app.test_client().get(path)
        assert response.status_code == 200, response.data
        assert response.mimetype == "application/xml"
        root = etree.fromstring(response.data)
        urlset_schema.assertValid(root)
        return root

    return read


def lastmods(root: etree._Element) -> dict[str, str | None]:
    """loc -> lastmod text (None when there is none)."""
    return {
        url.findtext(f"{SM}loc") or "": url.findtext(f"{SM}lastmod")
        for url in root.iter(f"{SM}url")
    }


def crawl(app: Flask, addresses: list[str], origin: str) -> dict[str, int]:
    """GET every address through the test client; address -> status."""
    client = app.test_client()
    statuses: dict[str, int] = {}
    for address in addresses:
        assert address.startswith(origin + "/"), address
        parts = urlsplit(address)
        assert not parts.query and not parts.fragment, address
        statuses[address] = client.get(parts.path).status_code
    return statuses


def show(**values: Any) -> str:
    """A view that shows the values it was given."""
    return "page " + repr(sorted(values.items()))


def provide(*params: dict[str, Any]) -> Callable[[], Iterator[SitemapEntry]]:
    """A sitemap provider of one entry per ``params``."""

    def entries() -> Iterator[SitemapEntry]:
        for values in params:
            yield SitemapEntry(params=values)

    return entries


#: Starts gunicorn serving tests/sitemap/gunicorn_app.py; keyword arguments
#: become its MARMEON_TEST_* variables.
Start = Callable[..., Gunicorn]


@pytest.fixture
def start(tmp_path: Path) -> Iterator[Start]:
    """Start gunicorn with the test app; ``mode`` and ``builds`` in tmp_path."""
    servers: list[Gunicorn] = []

    def run(workers: int = 4, worker_class: str = "gthread", **env: object) -> Gunicorn:
        values = {f"MARMEON_TEST_{k.upper()}": str(v) for k, v in env.items()}
        server = Gunicorn(
            tmp_path,
            {"MARMEON_TEST_DIR": str(tmp_path), **values},
            workers,
            worker_class=worker_class,
        )
        servers.append(server)
        return server

    yield run
    for server in servers:
        server.stop()


@pytest.fixture
def start_sync(start: Start, redis_server: Any) -> Start:
    """Start gunicorn as issue 27's team ran it: four sync workers (one
    request at a time each) sharing one real Redis, the paged route on;
    keyword arguments as for ``start``."""

    def run(**env: object) -> Gunicorn:
        return start(
            workers=4, worker_class="sync", redis=redis_server.url, paged=1, **env
        )

    return run


def unhashed(name: str) -> str:
    """An exported file's name without the digest of its bytes
    (``sitemap-1.<digest>.xml`` -> ``sitemap-1.xml``)."""
    return re.sub(r"\.[0-9a-f]{12}(\.xml(\.gz)?)$", r"\1", name)
