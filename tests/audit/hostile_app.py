"""A hostile site for the audit (issue 21, point 4), built by
``create_app(kind, count)``; tests/audit/test_bounded.py audits it in a
subprocess and measures the process's memory.

- ``stream``: ``count`` listed pages that stream empty chunks forever;
- ``big``: ``count`` listed pages of about 100 KB each, all different;
- ``many``: a sitemap of ``count`` URLs (each a small page);
- ``sitemaps``: robots.txt with ``count`` ``Sitemap:`` lines;
- ``deep``: one page whose JSON-LD is nested ``count`` deep;
- ``hreflang``: ``count`` listed pages, each naming 1,000 hreflang pages of
  its own (issue 28, L10);
- ``linked``: one listed page, and ``count`` pages of about 100 KB each
  that link the next ten (issue 31: the crawl keeps the link graph, not
  the pages);
- ``images``: ``count`` listed pages, each showing ten images of 5 MB, each
  a new answer (issue 28, L11).
"""

from __future__ import annotations

from collections.abc import Iterator

from flask import Flask, Response

ORIGIN = "https://hostile.example"


def page(title: str, body: str = "", json_ld: str = "", head: str = "") -> str:
    script = f'<script type="application/ld+json">{json_ld}</script>' if json_ld else ""
    return (
        f"<!doctype html><html><head><title>{title}</title>{script}{head}</head>"
        f"<body>{body}</body></html>"
    )


#: A PNG's first bytes (signature and IHDR: 1200x630), then 5 MB of padding:
#: Pillow reads the size from the header.
PNG_HEAD = (
    b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x04\xb0\x00\x00\x02v"
    b"\x08\x02\x00\x00\x00\x00\x00\x00\x00"
)
MEGABYTE = b"\x00" * (1024 * 1024)


def urlset(urls: Iterator[str]) -> Iterator[str]:
    yield '<?xml version="1.0" encoding="UTF-8"?>\n'
    yield '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
    for url in urls:
        yield f"<url><loc>{url}</loc></url>\n"
    yield "</urlset>\n"


def create_app(kind: str, count: int) -> Flask:
    app = Flask("hostile_app")
    app.config["APP_URL"] = ORIGIN
    app.config["TESTING"] = False
    sitemaps = 1

    @app.get("/robots.txt")
    def robots() -> Response:
        lines = ["User-agent: *", "Allow: /"]
        lines += [f"Sitemap: {ORIGIN}/sitemap-{n}.xml" for n in range(sitemaps)]
        return Response("\n".join(lines) + "\n", mimetype="text/plain")

    def addresses() -> Iterator[str]:
        for n in range(1 if kind in ("deep", "sitemaps", "linked") else count):
            yield f"{ORIGIN}/p/{n}"

    @app.get("/sitemap-<int:n>.xml")
    def sitemap(n: int) -> Response:
        urls = addresses() if n == 0 else iter([f"{ORIGIN}/p/0"])
        return Response("".join(urlset(urls)), mimetype="application/xml")

    @app.get("/p/<int:n>")
    def show(n: int) -> Response:
        if kind == "stream":

            def forever() -> Iterator[bytes]:
                while True:
                    yield b""

            return Response(forever(), mimetype="text/html")
        if kind == "big":
            # About 100 KB, different on every page.
            words = " ".join(f"w{n}x{i}" for i in range(12_000))
            return Response(page(f"Page {n}", f"<p>{words}</p>"), mimetype="text/html")
        if kind == "deep":
            nested = "[" * count + "]" * count
            return Response(page("Deep", json_ld=nested), mimetype="text/html")
        if kind == "linked":
            words = " ".join(f"w{n}x{i}" for i in range(12_000))
            links = "".join(
                f'<a href="/p/{m}">{m}</a>' for m in range(n + 1, min(n + 11, count))
            )
            return Response(page(f"Page {n}", f"<p>{words}</p>{links}"))
        if kind == "hreflang":
            links = "".join(
                f'<link rel="alternate" hreflang="x{i}" href="{ORIGIN}/l/{n}/{i}">'
                for i in range(1000)
            )
            return Response(page(f"Page {n}", head=links), mimetype="text/html")
        if kind == "images":
            images = "".join(
                f'<meta property="og:image" content="{ORIGIN}/img/{n}/{i}.png">'
                for i in range(10)
            )
            return Response(page(f"Page {n}", head=images), mimetype="text/html")
        return Response(page(f"Page {n}"), mimetype="text/html")

    @app.get("/l/<int:n>/<int:i>")
    def language(n: int, i: int) -> Response:
        return Response(page(f"Language {i} of {n}"), mimetype="text/html")

    @app.get("/img/<int:n>/<int:i>.png")
    def image(n: int, i: int) -> Response:
        def chunks() -> Iterator[bytes]:
            yield PNG_HEAD
            for _ in range(5):
                yield MEGABYTE

        # Chunks: the audit joins them into a new 5 MB answer each time.
        return Response(chunks(), mimetype="image/png")

    if kind == "sitemaps":
        sitemaps = count
    return app
