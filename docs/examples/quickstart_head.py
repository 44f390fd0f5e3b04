"""Quickstart: Marmeon(app), a layout, and the page's head set in its template."""

from pathlib import Path

from flask import Flask, render_template

from flask_marmeon import Marmeon, head

# templates/quickstart/base.html and note.html, beside this file.
TEMPLATES = Path(__file__).parent / "templates" / "quickstart"
app = Flask(__name__, template_folder=TEMPLATES)
app.config["APP_URL"] = "https://notes.example"  # else the APP_URL variable
Marmeon(app)

NOTE = {
    "id": 1,
    "title": "Sourdough",
    "summary": "Flour, water and patience.",
    "cover": "/notes/1/cover.png",
}


@app.before_request
def layout() -> None:
    # A layout: what every page says. The page wins where both set a field.
    head(title_template="%s · Notes", open_graph={"site_name": "Notes"})


@app.get("/notes/<int:note_id>")
def show(note_id: int) -> str:
    # The view may call head() too; the template's calls come after it.
    head(canonical=f"/notes/{note_id}", twitter={"card": "summary_large_image"})
    return render_template("note.html", note=NOTE)


html = app.test_client().get("/notes/1").text
assert "Sourdough · Notes</title>" in html
assert 'content="Flour, water and patience."' in html
# The call in the block after <head> is in the head.
assert 'property="og:type" content="article"' in html
# Relative URLs are made absolute against APP_URL, never the request's Host.
assert 'href="https://notes.example/notes/1"' in html
assert 'content="https://notes.example/notes/1/cover.png"' in html
# og:title and twitter:title default to the title, without the template.
assert 'property="og:title" content="Sourdough"' in html
assert 'name="twitter:title" content="Sourdough"' in html
assert 'property="og:site_name" content="Notes"' in html
