"""The index page's example: a note page with its head and its sitemap entries."""

from collections.abc import Iterator

from flask import Flask, abort, render_template_string, url_for

from flask_marmeon import Marmeon, SitemapEntry, everyone, head

app = Flask(__name__)
app.config["APP_URL"] = "https://notes.example"
Marmeon(app)
NOTES = {1: ("Sourdough", "Flour, water and patience.")}  # your database


def note_pages() -> Iterator[SitemapEntry]:
    for note_id in NOTES:
        yield SitemapEntry(params={"note_id": note_id})


@app.get("/notes/<int:note_id>", sitemap=note_pages, authorize=everyone)
def show(note_id: int) -> str:
    if note_id not in NOTES:
        abort(404)
    title, summary = NOTES[note_id]
    head(
        title=title,
        description=summary,
        canonical=url_for("show", note_id=note_id),
        open_graph={"type": "article", "image": f"/covers/{note_id}.png"},
    )
    return render_template_string(
        "<head>{{ render_head() }}</head><h1>{{ t }}</h1>", t=title
    )


client = app.test_client()
html = client.get("/notes/1").text
assert 'property="og:image" content="https://notes.example/covers/1.png"' in html
assert "<loc>https://notes.example/notes/1</loc>" in client.get("/sitemap.xml").text
