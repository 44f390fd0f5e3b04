"""Quickstart: mark routes for /sitemap.xml; robots.txt names it."""

from collections.abc import Iterator
from datetime import date

from flask import Flask

from flask_marmeon import Marmeon, SitemapEntry, everyone

app = Flask(__name__)
app.config["APP_URL"] = "https://notes.example"
Marmeon(app)

NOTES = {1: date(2025, 3, 1), 2: date(2025, 3, 8)}  # your database


def note_pages() -> Iterator[SitemapEntry]:
    # A route with parameters says which pages it has.
    for note_id, updated in NOTES.items():
        yield SitemapEntry(params={"note_id": note_id}, last_modified=updated)


@app.get("/", sitemap=True, authorize=everyone)
def index() -> str:
    return "All notes"


@app.get("/notes/<int:note_id>", sitemap=note_pages, authorize=everyone)
def show(note_id: int) -> str:
    return f"Note {note_id}"


client = app.test_client()
sitemap = client.get("/sitemap.xml").text
assert "<loc>https://notes.example/</loc>" in sitemap
note = "<loc>https://notes.example/notes/2</loc><lastmod>2025-03-08</lastmod>"
assert note in sitemap
robots = client.get("/robots.txt").text
assert robots == (
    "User-agent: *\nDisallow: /_marmeon/\n\nSitemap: https://notes.example/sitemap.xml\n"
)
