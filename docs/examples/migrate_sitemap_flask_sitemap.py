"""Before: a sitemap made with Flask-Sitemap (pip install flask-sitemap)."""

from collections.abc import Iterator
from datetime import date

from flask import Flask
from flask_sitemap import Sitemap

app = Flask(__name__)
app.config["SERVER_NAME"] = "notes.example"
app.config["SITEMAP_URL_SCHEME"] = "https"
app.config["SITEMAP_INCLUDE_RULES_WITHOUT_PARAMS"] = True
# Else the sitemap lists its own address, /sitemap.xml.
app.config["SITEMAP_IGNORE_ENDPOINTS"] = ["flask_sitemap.sitemap"]
ext = Sitemap(app=app)

NOTES = {1: date(2025, 3, 1), 2: date(2025, 3, 8)}  # your database


@app.get("/")
def index() -> str:
    return "All notes"


@app.get("/notes/<int:note_id>")
def show(note_id: int) -> str:
    return f"Note {note_id}"


@ext.register_generator
def show_pages() -> Iterator[tuple[str, dict[str, int], str]]:
    for note_id, updated in NOTES.items():
        yield "show", {"note_id": note_id}, updated.isoformat()


sitemap = app.test_client().get("/sitemap.xml").text
assert "<loc>https://notes.example/notes/2</loc>" in sitemap
