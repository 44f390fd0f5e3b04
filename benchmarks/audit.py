"""What ``flask marmeon audit`` costs on 2,000 pages, against the app's own time.

The app: 2,000 notes marked for the sitemap, each page rendered from a
template with a full head (canonical, Open Graph with an image of its own,
a card, JSON-LD), each cover a real PNG. The audit fetches robots.txt, the
sitemap, every page and every cover through the app, parses and checks them.

The app's own time is the same requests through the same in-process calls,
with nothing read: what any crawl of the app costs at least. The audit's
cost is the difference, per page. Rounds take turns (the app alone, then
the audit), and the best of each is kept, so a busy moment of the machine
does not count; times are the process's CPU time (time.process_time), so
other processes on a shared machine count as little as they can. One
process, one thread: one core.

    python benchmarks/audit.py [--pages N] [--rounds N]

Targets: 2,000 pages in under 10 s; at most 1 ms per page over the app.
"""

from __future__ import annotations

import argparse
import io
import sys
import time
from collections.abc import Iterator

from flask import Flask, Response, render_template, url_for
from jinja2 import DictLoader
from PIL import Image

from flask_marmeon import Marmeon, SitemapEntry, everyone, head
from flask_marmeon.audit import audit
from flask_marmeon.audit.fetch import Fetcher
from flask_marmeon.audit.site import Schemas, read_site

ORIGIN = "https://notes.example"
PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
{{ render_head() }}
<link rel="stylesheet" href="/static/site.css"></head>
<body><header><a href="/">Notes</a></header><main><article>
<h1>{{ title }}</h1><img src="{{ cover }}" width="1200" height="630" alt="">
{% for paragraph in paragraphs %}<p>{{ paragraph }}</p>{% endfor %}
</article></main></body></html>"""


def cover_png() -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (1200, 630), (200, 120, 40)).save(out, "PNG")
    return out.getvalue()


def build(pages: int) -> Flask:
    app = Flask("bench")
    app.config.update(APP_URL=ORIGIN, MARMEON_BROWSER_SCRIPT=False)
    app.jinja_loader = DictLoader({"note.html": PAGE})  # type: ignore[assignment]
    Marmeon(app)
    png = cover_png()

    def note_pages() -> Iterator[SitemapEntry]:
        for note_id in range(1, pages + 1):
            yield SitemapEntry(params={"note_id": note_id})

    @app.get("/notes/<int:note_id>", sitemap=note_pages, authorize=everyone)
    def show(note_id: int) -> str:
        path = url_for("show", note_id=note_id)
        cover = url_for("cover", note_id=note_id)
        title = f"Note {note_id}: what I learned this week"
        summary = f"The note number {note_id}, on sourdough, bicycles and plants."
        head(
            title=title,
            title_template="%s · Notes",
            description=summary,
            canonical=path,
            open_graph={
                "type": "article",
                "url": path,
                "site_name": "Notes",
                "image": {"url": cover, "width": 1200, "height": 630, "alt": "x"},
            },
            twitter={"card": "summary_large_image"},
            json_ld={
                "@context": "https://schema.org",
                "@type": "Article",
                "headline": title,
            },
        )
        paragraphs = [f"Paragraph {i} of note {note_id}. " * 8 for i in range(6)]
        return render_template(
            "note.html", title=title, cover=cover, paragraphs=paragraphs
        )

    @app.get("/notes/<int:note_id>/cover.png")
    def cover(note_id: int) -> Response:
        return Response(png, mimetype="image/png")

    return app


def app_alone(app: Flask) -> tuple[float, int]:
    """The same requests as the audit, through the same calls, nothing read."""
    started = time.process_time()
    fetcher = Fetcher(app, ORIGIN, "")
    site = read_site(fetcher, SCHEMAS)  # robots.txt and the sitemap, parsed
    for url in site.listed:
        fetcher.get(url)
        fetcher.get(url + "/cover.png")
    return time.process_time() - started, len(site.listed)


def audited(app: Flask) -> tuple[float, int, int]:
    started, wall = time.process_time(), time.perf_counter()
    report = audit(app)
    WALL.append(time.perf_counter() - wall)
    return time.process_time() - started, report.pages, len(report.findings)


#: Wall-clock seconds of each audit, printed beside the CPU time.
WALL: list[float] = []


SCHEMAS = Schemas.load()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    app = build(args.pages)
    audited(app)  # warm: the sitemap is built once, templates compiled
    alone, audits = [], []
    for _ in range(args.rounds):
        seconds, pages = app_alone(app)
        alone.append(seconds)
        seconds, listed, findings = audited(app)
        audits.append(seconds)
        assert listed == pages == args.pages, (listed, pages)
        assert findings == 0, f"{findings} finding(s) on a clean app"
    best_alone, best_audit = min(alone), min(audits)
    per_page = (best_audit - best_alone) / args.pages * 1000
    print(f"pages                 {args.pages}")
    print(f"the app alone         {best_alone:6.2f} s  (same requests, nothing read)")
    print(f"the audit             {best_audit:6.2f} s  (target: under 10 s for 2,000)")
    print(f"  wall clock          {min(WALL[1:]):6.2f} s  (with the machine's load)")
    print(f"the audit's own cost  {per_page:6.3f} ms per page  (target: at most 1 ms)")
    ok = best_audit < 10 * args.pages / 2000 and per_page <= 1.0
    print("targets met" if ok else "TARGETS MISSED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
