"""Crawl the example app as a search engine does: over HTTP, from a real
gunicorn and from README's ``make run`` (``flask run --debug``), with
parsers of its own (Protego for robots.txt, the sitemap
schemas, html5lib for the pages, Pillow for the images)."""

from __future__ import annotations

import gzip
import http.client
import io
import os
import re
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date, datetime, timezone
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import html5lib
import pytest
from lxml import etree
from PIL import Image
from protego import Protego

from flask_marmeon.audit.site import Schemas
from tests.documents import sitemap_files
from tests.processes import free_port, gunicorn, listening_socket, wait_for_port

ROOT = Path(__file__).parents[2]
SM = "{http://www.sitemaps.org/schemas/sitemap/0.9}"
XHTML = "{http://www.w3.org/1999/xhtml}"
#: The W3C datetime forms a sitemap's lastmod may take.
W3C_DATE = re.compile(
    r"\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2}))?"
)


@dataclass(frozen=True)
class Server:
    origin: str
    port: int


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """The example app under gunicorn, APP_URL set to its own address."""
    sock = listening_socket()
    port = sock.getsockname()[1]
    origin = f"http://127.0.0.1:{port}"
    instance = tmp_path_factory.mktemp("instance")
    env = {**os.environ, "APP_URL": origin}
    env.pop("MARMEON_INDEXABLE", None)
    # The database made and seeded once, here: two workers starting on an
    # empty one each see no notes and both seed it (a loaded machine makes
    # that race likely), and the sitemap then lists every note twice.
    from example_app import create_app

    create_app(config={"APP_URL": origin}, instance_path=str(instance))
    app = f"example_app:create_app(instance_path={str(instance)!r})"
    with gunicorn(app, ROOT, env, workers=2, sock=sock):
        yield Server(origin, port)


@pytest.fixture(scope="module")
def flask_run(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """The example app as README's first command runs it (``make run``:
    ``flask run --debug``, Werkzeug's server), on a free port."""
    port = free_port()
    origin = f"http://127.0.0.1:{port}"
    instance = tmp_path_factory.mktemp("instance")
    env = {**os.environ, "APP_URL": origin}
    env.pop("MARMEON_INDEXABLE", None)
    app = f"example_app:create_app(instance_path={str(instance)!r})"
    command = [sys.executable, "-m", "flask", "--app", app, "run", "--debug"]
    process = subprocess.Popen(
        [*command, "--no-reload", "--port", str(port)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        wait_for_port(port, process, "flask run", timeout=60)
        yield Server(origin, port)
    finally:
        process.terminate()
        process.wait(timeout=30)


@pytest.fixture(params=["gunicorn", "flask run --debug"])
def crawled(request: pytest.FixtureRequest) -> Server:
    """The example app under each way it is run: gunicorn with two workers
    (as deployed), and ``make run``'s development server."""
    server: Server = request.getfixturevalue(
        "server" if request.param == "gunicorn" else "flask_run"
    )
    return server


@dataclass(frozen=True)
class Answer:
    status: int
    headers: dict[str, str]
    body: bytes


def fetch(server: Server, url: str, headers: dict[str, str] | None = None) -> Answer:
    """GET ``url`` (on the server's origin) over HTTP; redirects not followed."""
    assert url.startswith(server.origin + "/"), url
    parts = urlsplit(url)
    target = parts.path + (f"?{parts.query}" if parts.query else "")
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    try:
        connection.request("GET", target, headers=headers or {})
        response = connection.getresponse()
        return Answer(
            response.status,
            {k.lower(): v for k, v in response.getheaders()},
            response.read(),
        )
    finally:
        connection.close()


def fetch_sitemap(
    server: Server, url: str, headers: dict[str, str] | None = None
) -> Answer:
    """GET a sitemap file as a search engine does: a 503 (a part that is
    being built, which a sync worker answers at once rather than holding
    itself) is asked again after its Retry-After, a bounded number of times."""
    for _ in range(12):
        answer = fetch(server, url, headers)
        if answer.status != 503:
            return answer
        assert answer.headers.get("cache-control") == "no-store", url
        retry = answer.headers.get("retry-after", "")
        assert retry.isdigit(), (url, retry)
        time.sleep(min(int(retry), 10))
    return answer


@dataclass(frozen=True)
class Page:
    canonical: list[str]
    hreflang: dict[str, str]
    images: list[str]
    og_url: list[str]
    scripts: list[str]
    #: Every robots meta's content (robots, googlebot...).
    robots: list[str]


def read_page(url: str, body: bytes) -> Page:
    """A page parsed by html5lib, which must report no parse error."""
    parser = html5lib.HTMLParser(
        tree=html5lib.getTreeBuilder("etree", ET), namespaceHTMLElements=False
    )
    root = parser.parse(body.decode())
    assert parser.errors == [], (url, parser.errors)
    head = root.find("head")
    assert head is not None
    links = list(head.iter("link"))
    metas = {
        (m.get("property") or m.get("name") or ""): m.get("content", "")
        for m in head.iter("meta")
    }
    return Page(
        canonical=[e.get("href", "") for e in links if e.get("rel") == "canonical"],
        hreflang={
            e.get("hreflang", ""): e.get("href", "")
            for e in links
            if e.get("rel") == "alternate" and e.get("hreflang")
        },
        images=[metas[k] for k in ("og:image", "twitter:image") if k in metas],
        og_url=[metas["og:url"]] if "og:url" in metas else [],
        scripts=[urljoin(url, e.get("src", "")) for e in root.iter("script")],
        robots=[
            m.get("content", "").lower()
            for m in head.iter("meta")
            if (m.get("name") or "").lower() in ("robots", "googlebot", "bingbot")
        ],
    )


def test_a_crawler_finds_every_page_consistent(crawled: Server) -> None:
    server = crawled
    origin = server.origin
    robots = fetch(server, f"{origin}/robots.txt")
    assert robots.status == 200
    rules = Protego.parse(robots.body.decode())
    (sitemap_url,) = rules.sitemaps
    assert sitemap_url == f"{origin}/sitemap.xml"
    schemas = Schemas.load()
    today = datetime.now(timezone.utc).date()

    read: list[str] = []

    def get(url: str) -> bytes:
        # The index and every part it names, plain and gzipped, each valid,
        # within the format's limits, its lastmods W3C dates of the past.
        read.append(url)
        answer = fetch_sitemap(server, url)
        assert answer.status == 200, url
        assert "set-cookie" not in answer.headers, url
        zipped = fetch_sitemap(server, url, {"Accept-Encoding": "gzip"})
        assert zipped.status == 200, url
        assert zipped.headers.get("content-encoding") == "gzip", url
        assert gzip.decompress(zipped.body) == answer.body, url
        assert len(answer.body) <= 50 * 1024 * 1024, url
        root = etree.fromstring(answer.body)
        is_index = root.tag == f"{SM}sitemapindex"
        (schemas.index if is_index else schemas.urlset).assertValid(root)
        assert len(root) <= 50_000, url
        for lastmod in root.iter(f"{SM}lastmod"):
            assert W3C_DATE.fullmatch(lastmod.text or ""), (url, lastmod.text)
            assert date.fromisoformat((lastmod.text or "")[:10]) <= today, url
        return answer.body

    roots = sitemap_files(get, origin)
    # An index, whose parts include the notes' (built on demand by paged()).
    assert read[0] == sitemap_url and len(read) > 2
    assert any("/sitemap-notes-show-" in url for url in read)
    listed: dict[str, dict[str, str]] = {}
    for url in (url for root in roots for url in root.iter(f"{SM}url")):
        loc = url.findtext(f"{SM}loc") or ""
        listed[loc] = {
            link.get("hreflang", ""): link.get("href", "")
            for link in url.iter(f"{XHTML}link")
        }
    assert len(listed) == 54
    pages: dict[str, Page] = {}
    for loc, alternates in listed.items():
        assert rules.can_fetch(loc, "Googlebot"), loc
        answer = fetch(server, loc)
        assert answer.status == 200, loc
        page = pages[loc] = read_page(loc, answer.body)
        # Indexable: a page the sitemap lists never says noindex.
        assert "noindex" not in answer.headers.get("x-robots-tag", ""), loc
        assert not [r for r in page.robots if "noindex" in r], loc
        assert page.canonical == [loc]
        assert page.og_url in ([], [loc]), loc
        assert page.hreflang == alternates, loc
        # A picture in every link preview (a generated one where the page
        # has none of its own).
        assert page.images, loc
    images: set[str] = set()
    scripts: set[str] = set()
    for loc, page in pages.items():
        images.update(page.images)
        scripts.update(page.scripts)
        for language, href in page.hreflang.items():
            if language == "x-default":
                # The address without a locale sends each visitor to a
                # listed version of the page.
                answer = fetch(server, href, {"Accept-Language": "de"})
                assert answer.status == 302, href
                assert urljoin(href, answer.headers["location"]) in listed
            else:
                assert loc in pages[href].hreflang.values(), (loc, href)
    assert images
    for image in images:
        answer = fetch(server, image)
        assert answer.status == 200, image
        assert answer.headers["content-type"].startswith("image/")
        with Image.open(io.BytesIO(answer.body)) as picture:
            assert picture.size == (1200, 630)
    (module,) = [s for s in scripts if "/marmeon." in s]
    assert rules.can_fetch(module, "Googlebot")
    answer = fetch(server, module)
    assert answer.status == 200
    assert answer.headers["content-type"].startswith("text/javascript")
    assert "set-cookie" not in answer.headers


@pytest.mark.parametrize("forged", ["/evil", "//evil.example"])
def test_gunicorns_script_name_header_changes_no_address_of_the_head(
    server: Server, forged: str
) -> None:
    # gunicorn takes a SCRIPT_NAME header from 127.0.0.1 (its default
    # forwarded_allow_ips), and the request's path must start with it.
    for path in ("/", "/notes/3", "/en/about", "/de/features"):
        plain = read_page(path, fetch(server, server.origin + path).body)
        answer = fetch(server, server.origin + forged + path, {"SCRIPT_NAME": forged})
        assert answer.status == 200, path
        page = read_page(path, answer.body)
        assert (page.canonical, page.og_url, page.hreflang, page.images) == (
            plain.canonical,
            plain.og_url,
            plain.hreflang,
            plain.images,
        )
