"""Quickstart: Marmeon(app), a layout, and a first head()."""

from flask import Flask, render_template_string

from flask_marmeon import Marmeon, head

app = Flask(__name__)
app.config["APP_URL"] = "https://notes.example"  # else the APP_URL variable
Marmeon(app)

PAGE = """<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  {{ render_head() }}
</head>
<body><h1>{{ heading }}</h1></body>
</html>"""


@app.before_request
def layout() -> None:
    # A layout: what every page says. The page wins where both set a field.
    head(title_template="%s · Notes", open_graph={"site_name": "Notes"})


@app.get("/notes/<int:note_id>")
def show(note_id: int) -> str:
    head(
        title="Sourdough",
        description="Flour, water and patience.",
        canonical=f"/notes/{note_id}",
        open_graph={"type": "article", "image": f"/notes/{note_id}/cover.png"},
        twitter={"card": "summary_large_image"},
    )
    return render_template_string(PAGE, heading="Sourdough")


html = app.test_client().get("/notes/1").text
assert "Sourdough · Notes</title>" in html
assert 'content="Flour, water and patience."' in html
# Relative URLs are made absolute against APP_URL, never the request's Host.
assert 'href="https://notes.example/notes/1"' in html
assert 'content="https://notes.example/notes/1/cover.png"' in html
# og:title and twitter:title default to the title, without the template.
assert 'property="og:title" content="Sourdough"' in html
assert 'name="twitter:title" content="Sourdough"' in html
assert 'property="og:site_name" content="Notes"' in html
