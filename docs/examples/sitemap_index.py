"""MARMEON_SITEMAP_INDEX: /sitemap.xml becomes an index, nothing is left out."""

from collections.abc import Iterator
from datetime import date

from flask import Flask
from lxml import etree

from flask_marmeon import Marmeon, SitemapEntry, everyone

app = Flask(__name__)
app.config["APP_URL"] = "https://notes.example"
app.config["MARMEON_SITEMAP_INDEX"] = True
app.config["MARMEON_SITEMAP_MAX_URLS"] = 2  # 50,000 by default; small to show
Marmeon(app)


def note_pages() -> Iterator[SitemapEntry]:
    for note_id in range(1, 6):
        yield SitemapEntry({"note_id": note_id}, last_modified=date(2025, 1, note_id))


@app.get("/notes/<int:note_id>", sitemap=note_pages, authorize=everyone)
def show(note_id: int) -> str:
    return f"Note {note_id}"


client = app.test_client()
ns = {"sm": "http://www.sitemaps.org/schemas/sitemap/0.9"}
index = etree.fromstring(client.get("/sitemap.xml").data)
assert [s.findtext("sm:loc", namespaces=ns) for s in index] == [
    "https://notes.example/sitemap-1.xml",
    "https://notes.example/sitemap-2.xml",
    "https://notes.example/sitemap-3.xml",
]
# Each file's latest lastmod.
assert [s.findtext("sm:lastmod", namespaces=ns) for s in index] == [
    "2025-01-02",
    "2025-01-04",
    "2025-01-05",
]
second = etree.fromstring(client.get("/sitemap-2.xml").data)
assert [u.findtext("sm:loc", namespaces=ns) for u in second] == [
    "https://notes.example/notes/3",
    "https://notes.example/notes/4",
]
assert client.get("/robots.txt").text.endswith(
    "Sitemap: https://notes.example/sitemap.xml\n"
)
