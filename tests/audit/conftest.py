"""Small sites for the audit: each test makes exactly one mistake in a clean one.

A site here is a plain Flask app that serves files written by hand (robots.txt,
a sitemap, pages, images), so that a test can break any one of them; the
audit reads only the app's answers, so it cannot tell them from the
extension's own.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest
from flask import Flask, Response, request
from flask.testing import FlaskCliRunner
from PIL import Image

from flask_marmeon import Marmeon
from flask_marmeon.audit import Report, audit

ORIGIN = "https://notes.example"
TITLE_A = "Sourdough for beginners · Notes"
TITLE_B = "Repairing a bicycle chain · Notes"
DESCRIPTION_A = (
    "Everything you need for your first weeks of sourdough, and nothing more."
)
DESCRIPTION_B = "How to find a worn chain link and replace it with a quick link."


def png(width: int, height: int) -> bytes:
    """A real PNG of that size, drawn by Pillow."""
    out = io.BytesIO()
    Image.new("RGB", (width, height), (200, 120, 40)).save(out, "PNG")
    return out.getvalue()


def head(
    url: str,
    *,
    title: str | None,
    description: str | None,
    canonical: str | None = "",
    image: str | None = "/cover.png",
    extra: str = "",
) -> str:
    """A clean head for ``url``: every tag the audit reads, right."""
    parts = []
    if title is not None:
        parts.append(f"<title>{title}</title>")
    if description is not None:
        parts.append(f'<meta name="description" content="{description}">')
    if canonical is not None:
        parts.append(f'<link rel="canonical" href="{canonical or url}">')
    parts.append(f'<meta property="og:title" content="{title}">')
    parts.append(f'<meta property="og:url" content="{url}">')
    parts.append('<meta property="og:locale" content="en_US">')
    if image is not None:
        parts.append(f'<meta property="og:image" content="{ORIGIN}{image}">')
        parts.append('<meta property="og:image:width" content="1200">')
        parts.append('<meta property="og:image:height" content="630">')
        parts.append('<meta name="twitter:card" content="summary_large_image">')
    else:
        parts.append('<meta name="twitter:card" content="summary">')
    parts.append(
        '<script type="application/ld+json">'
        '{"@context": "https://schema.org", "@type": "Article", "headline": "x"}'
        "</script>"
    )
    parts.append('<link rel="stylesheet" href="/static/site.css">')
    parts.append(extra)
    return "\n".join(parts)


def document(head_html: str, body: str = "<p>Text.</p>") -> str:
    return (
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        f"{head_html}</head><body>{body}</body></html>"
    )


def urlset(*urls: str, extra: str = "") -> str:
    entries = "".join(f"<url><loc>{u}</loc></url>" for u in urls)
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"'
        ' xmlns:xhtml="http://www.w3.org/1999/xhtml">'
        f"{entries}{extra}</urlset>"
    )


@dataclass
class Site:
    """The files of a small site: path -> (status, type, body, headers)."""

    files: dict[str, tuple[int, str, bytes | str, dict[str, str]]] = field(
        default_factory=dict
    )
    #: Requests the app answered, by path (to prove what was not fetched).
    hits: list[str] = field(default_factory=list)
    config: dict[str, Any] = field(default_factory=dict)
    #: Paths the home page links, when no file is put at "/" (the audit
    #: follows links: a listed page that nothing links to is an orphan). The
    #: home page has no canonical: it is no page the sitemap must list.
    nav: list[str] = field(default_factory=list)

    def put(
        self,
        path: str,
        body: bytes | str,
        *,
        status: int = 200,
        type: str = "text/html; charset=utf-8",
        headers: dict[str, str] | None = None,
    ) -> None:
        self.files[path] = (status, type, body, headers or {})

    def page(self, path: str, **head_args: Any) -> None:
        """Serve a page with a clean head (``head_args`` change it)."""
        url = ORIGIN + path
        head_args.setdefault("title", TITLE_A)
        head_args.setdefault("description", DESCRIPTION_A)
        self.put(path, document(head(url, **head_args)))

    def app(self) -> Flask:
        app = Flask("auditsite")
        app.config.update(TESTING=True, APP_URL=ORIGIN, **self.config)

        @app.route("/", defaults={"path": ""})
        @app.route("/<path:path>")
        def serve(path: str) -> Response:
            self.hits.append("/" + path)
            status, mimetype, body, headers = self.files.get(
                "/" + path, (404, "text/plain", "not here", {})
            )
            if path == "" and "/" not in self.files and self.nav:
                status, mimetype, body = 200, "text/html", self.home()
            response = Response(body, status=status, content_type=mimetype)
            response.headers.update(headers)
            if request.args:
                response.headers["X-Query"] = request.query_string.decode()
            return response

        return app

    def home(self) -> str:
        """The home page: a link to each path of ``nav``."""
        links = "".join(f'<a href="{path}">{path}</a>' for path in self.nav)
        return document("<title>Notes</title>", f"<nav>{links}</nav>")

    def audit(self, **options: Any) -> Report:
        return audit(self.app(), **options)


@pytest.fixture
def site() -> Site:
    """A clean site (see :func:`clean_site`); a test makes one mistake in it."""
    return clean_site()


def clean_site() -> Site:
    """robots.txt, a sitemap of two pages, a home page that links them, a
    cover, a stylesheet: all right."""
    site = Site(nav=["/a", "/b"])
    site.put(
        "/robots.txt",
        f"User-agent: *\nDisallow: /private/\n\nSitemap: {ORIGIN}/sitemap.xml\n",
        type="text/plain",
    )
    site.put(
        "/sitemap.xml",
        urlset(f"{ORIGIN}/a", f"{ORIGIN}/b"),
        type="application/xml",
    )
    site.page("/a")
    site.page("/b", title=TITLE_B, description=DESCRIPTION_B)
    site.put("/cover.png", png(1200, 630), type="image/png")
    site.put("/static/site.css", "body {}", type="text/css")
    return site


def codes(report: Report) -> list[tuple[str, str]]:
    """(code, url) of every finding, in the report's order."""
    return [(f.code, f.url) for f in report.findings]


@pytest.fixture
def found() -> Callable[[Site], list[tuple[str, str]]]:
    return lambda site: codes(site.audit())


def runner_for(site: Site) -> FlaskCliRunner:
    """A CLI runner of the site's app, with the flask marmeon group."""
    app = site.app()
    Marmeon(app)  # gives the app the flask marmeon group
    return app.test_cli_runner()
