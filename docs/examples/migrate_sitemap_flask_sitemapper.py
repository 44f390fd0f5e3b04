"""Before: a sitemap made with flask-sitemapper (pip install flask-sitemapper)."""

from datetime import date

from flask import Flask, Response
from flask_sitemapper import Sitemapper

app = Flask(__name__)
# flask-sitemapper writes https:// addresses of the request's host.
app.config["SERVER_NAME"] = "notes.example"
sitemapper = Sitemapper(app)

NOTES = {1: date(2025, 3, 1), 2: date(2025, 3, 8)}  # your database


@sitemapper.include()
@app.get("/")
def index() -> str:
    return "All notes"


@sitemapper.include(
    url_variables={"note_id": list(NOTES)},
    lastmod=[updated.isoformat() for updated in NOTES.values()],
)
@app.get("/notes/<int:note_id>")
def show(note_id: int) -> str:
    return f"Note {note_id}"


@app.get("/sitemap.xml")
def sitemap() -> Response:
    return sitemapper.generate()


xml = app.test_client().get("/sitemap.xml").text
assert "<loc>https://notes.example/notes/2</loc>" in xml
