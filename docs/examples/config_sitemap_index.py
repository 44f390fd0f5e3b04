"""Configuration: MARMEON_SITEMAP_INDEX splits a large sitemap into files."""

from collections.abc import Iterator

from flask import Flask
from lxml import etree

from flask_marmeon import Marmeon, SitemapEntry, everyone

app = Flask(__name__)
app.config["APP_URL"] = "https://notes.example"
app.config["MARMEON_SITEMAP_INDEX"] = True
app.config["MARMEON_SITEMAP_MAX_URLS"] = 2  # 50 000 unless you say otherwise
Marmeon(app)


def note_pages() -> Iterator[SitemapEntry]:
    for note_id in range(1, 6):
        yield SitemapEntry(params={"note_id": note_id})


@app.get("/notes/<int:note_id>", sitemap=note_pages, authorize=everyone)
def show(note_id: int) -> str:
    return f"Note {note_id}"


client = app.test_client()
NS = {"sm": "http://www.sitemaps.org/schemas/sitemap/0.9"}
# /sitemap.xml is now an index of files that hold two URLs each.
index = etree.fromstring(client.get("/sitemap.xml").data)
assert index.tag == "{http://www.sitemaps.org/schemas/sitemap/0.9}sitemapindex"
files = index.xpath("sm:sitemap/sm:loc/text()", namespaces=NS)
assert files == [f"https://notes.example/sitemap-{n}.xml" for n in (1, 2, 3)]
urls = []
for file in files:
    part = etree.fromstring(client.get(file.removeprefix("https://notes.example")).data)
    urls += part.xpath("sm:url/sm:loc/text()", namespaces=NS)
assert urls == [f"https://notes.example/notes/{n}" for n in range(1, 6)]
