"""From Flask-Sitemap or flask-sitemapper: each route says what it lists,
and /sitemap.xml and robots.txt come with the extension."""

from collections.abc import Iterator
from datetime import date

from flask import Flask

from flask_marmeon import Marmeon, SitemapEntry, everyone

app = Flask(__name__)
# Flask-Sitemap's SERVER_NAME and flask-sitemapper's https=True: one APP_URL.
app.config["APP_URL"] = "https://notes.example"
Marmeon(app)

NOTES = {1: date(2025, 3, 1), 2: date(2025, 3, 8)}  # your database


# @sitemapper.include() / SITEMAP_INCLUDE_RULES_WITHOUT_PARAMS: sitemap=True.
@app.get("/", sitemap=True, authorize=everyone)
def index() -> str:
    return "All notes"


# @ext.register_generator yielding ("show", {"note_id": ...}), or
# @sitemapper.include(url_variables={"note_id": [...]}): a provider beside
# the route, which may read the database when the sitemap is built.
def note_pages() -> Iterator[SitemapEntry]:
    for note_id, updated in NOTES.items():
        yield SitemapEntry(params={"note_id": note_id}, last_modified=updated)


@app.get("/notes/<int:note_id>", sitemap=note_pages, authorize=everyone)
def show(note_id: int) -> str:
    return f"Note {note_id}"


# No sitemap view to write (sitemapper.generate()): /sitemap.xml is served,
# cached, gzipped and split into parts as it grows; robots.txt names it.
client = app.test_client()
sitemap = client.get("/sitemap.xml").text
assert "<loc>https://notes.example/</loc>" in sitemap
assert (
    "<loc>https://notes.example/notes/2</loc><lastmod>2025-03-08</lastmod>" in sitemap
)
assert "Sitemap: https://notes.example/sitemap.xml" in client.get("/robots.txt").text
