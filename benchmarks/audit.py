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

    python benchmarks/audit.py [--pages N] [--rounds N] [--linked-pages N]

Targets: 2,000 pages in under 10 s; at most 1 ms per page over the app.

Then the crawl (issue 31): a site of 5,000 notes that link each other (the
home page, the note before and after, the first seven), audited as it is
(the audit follows every link), against the same site audited as before
issue 31 (the sitemap's pages, no page's links read). Each address must be
fetched once; time per page within 1.3x; memory (tracemalloc's peak during
one audit) flat: the link graph, not the pages.
"""

from __future__ import annotations

import argparse
import io
import sys
import time
import tracemalloc
from collections import Counter
from collections.abc import Iterator
from dataclasses import fields, replace

from flask import Flask, Response, render_template, request, url_for
from jinja2 import DictLoader
from PIL import Image

from flask_marmeon import Marmeon, SitemapEntry, everyone, head
from flask_marmeon.audit import audit
from flask_marmeon.audit.crawl import Crawl
from flask_marmeon.audit.document import Document
from flask_marmeon.audit.fetch import Fetched, Fetcher
from flask_marmeon.audit.run import Auditor
from flask_marmeon.audit.site import Schemas, Site, read_site

ORIGIN = "https://notes.example"
PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
{{ render_head() }}
<link rel="stylesheet" href="/static/site.css"></head>
<body><header><a href="/">Notes</a></header><main><article>
<h1>{{ title }}</h1><img src="{{ cover }}" width="1200" height="630" alt="">
{% for paragraph in paragraphs %}<p>{{ paragraph }}</p>{% endfor %}
</article><nav>{% for href in links %}<a href="{{ href }}">{{ href }}</a>
{% endfor %}</nav></main></body></html>"""


def cover_png() -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (1200, 630), (200, 120, 40)).save(out, "PNG")
    return out.getvalue()


def build(pages: int, linked: bool = False) -> Flask:
    """The notes site; ``linked``: each page links the home page, the notes
    before and after it and the first seven, and the home page the first."""
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
        links = []
        if linked:
            around = [note_id - 1, note_id + 1, *range(1, 8)]
            links = ["/"] + [f"/notes/{n}" for n in around if 1 <= n <= pages]
        return render_template(
            "note.html", title=title, cover=cover, paragraphs=paragraphs, links=links
        )

    @app.get("/", sitemap=True, authorize=everyone)
    def home() -> str:
        head(
            title="Notes: what I learned this week",
            description="Notes on sourdough, bicycles and plants, one a week.",
            canonical="/",
        )
        links = ["/notes/1"] if linked else []
        return render_template(
            "note.html", title="Notes", cover="", paragraphs=[], links=links
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
        if "/notes/" in url:
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
    parser.add_argument("--linked-pages", type=int, default=5000)
    args = parser.parse_args()
    app = build(args.pages, linked=True)
    audited(app)  # warm: the sitemap is built once, templates compiled
    alone, audits = [], []
    for _ in range(args.rounds):
        seconds, pages = app_alone(app)
        alone.append(seconds)
        seconds, listed, findings = audited(app)
        audits.append(seconds)
        assert listed == pages == args.pages + 1, (listed, pages)
        assert findings == 0, f"{findings} finding(s) on a clean app"
    best_alone, best_audit = min(alone), min(audits)
    per_page = (best_audit - best_alone) / args.pages * 1000
    print(f"pages                 {args.pages}")
    print(f"the app alone         {best_alone:6.2f} s  (same requests, nothing read)")
    print(f"the audit             {best_audit:6.2f} s  (target: under 10 s for 2,000)")
    print(f"  wall clock          {min(WALL[1:]):6.2f} s  (with the machine's load)")
    print(f"the audit's own cost  {per_page:6.3f} ms per page  (target: at most 1 ms)")
    ok = best_audit < 10 * args.pages / 2000 and per_page <= 1.0
    ok = crawl(args.linked_pages, args.rounds) and ok
    print("targets met" if ok else "TARGETS MISSED")
    return 0 if ok else 1


class LinksDropped(Crawl):
    """A crawl that reads no page's links: what the audit did before it
    followed them (the sitemap's pages, and the home page)."""

    def record(self, url: str, answer: Fetched, doc: Document | None) -> None:
        super().record(url, answer, None if doc is None else replace(doc, links=()))


class SitemapOnly(Auditor):
    """The audit of the sitemap's pages alone, as before issue 31."""

    def crawl(self, site: Site) -> Crawl:
        made = super().crawl(site)
        return LinksDropped(**{f.name: getattr(made, f.name) for f in fields(made)})


def crawl(pages: int, rounds: int) -> bool:
    """The linked site audited as the audit does (following every link)
    against the same site audited as before (its sitemap's pages)."""
    app = build(pages, linked=True)
    fetched: Counter[str] = Counter()
    app.before_request(lambda: fetched.update([request.full_path]) and None)
    audit(app)  # warm: the sitemap built once, templates compiled
    fetched.clear()
    report = audit(app)
    assert report.findings == (), report.findings[:3]
    assert max(fetched.values()) == 1, fetched.most_common(3)
    ways = {"sitemap": lambda: SitemapOnly(app).run(), "links": lambda: audit(app)}
    times: dict[str, list[float]] = {"sitemap": [], "links": []}
    for _ in range(rounds):
        for name, run in ways.items():
            started = time.process_time()
            run()
            times[name].append(time.process_time() - started)
    peaks = {}
    for name, run in ways.items():
        tracemalloc.start()
        run()
        peaks[name] = tracemalloc.get_traced_memory()[1] / 2**20
        tracemalloc.stop()
    per_page = {name: min(t) / (pages + 1) * 1000 for name, t in times.items()}
    ratio = per_page["links"] / per_page["sitemap"]
    print(f"linked pages          {pages + 1}  (each of {len(fetched)} addresses once)")
    print(f"the sitemap's pages   {per_page['sitemap']:6.3f} ms per page  (as before)")
    print(
        f"following the links   {per_page['links']:6.3f} ms per page  (x{ratio:.2f},"
        " target: at most x1.30)"
    )
    print(
        f"memory, peak          {peaks['sitemap']:6.1f} MiB as before,"
        f" {peaks['links']:.1f} MiB following the links"
        f" ({peaks['links'] * 1024 / (pages + 1):.1f} KiB a page: the link graph)"
    )
    return ratio <= 1.3


if __name__ == "__main__":
    sys.exit(main())
