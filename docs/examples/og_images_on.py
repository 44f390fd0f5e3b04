"""Generated images: a picture in the link preview of every page."""

import io

from flask import Flask, render_template_string
from PIL import Image

from flask_marmeon import Marmeon, OgImage, head

app = Flask(__name__)
app.config["APP_URL"] = "https://notes.example"
app.config["SECRET_KEY"] = "change me"  # signs the images' addresses
app.config["MARMEON_OG_IMAGES"] = True
Marmeon(app)
PAGE = "<head>{{ render_head() }}</head><h1>Hello</h1>"


@app.get("/notes/1")
def note() -> str:
    head(
        title="Sourdough in three days",
        description="Flour, water and patience.",
        open_graph={"site_name": "Notes", "type": "article"},
    )
    return render_template_string(PAGE)


@app.get("/about")
def about() -> str:
    # Its own texts: a title and a line above it instead of the site name.
    head(
        title="About",
        open_graph={"image": OgImage(title="Who we are", subtitle="Notes")},
    )
    return render_template_string(PAGE)


client = app.test_client()
html = client.get("/notes/1").text
assert 'property="og:image" content="https://notes.example/marmeon-og/' in html
assert 'property="og:image:width" content="1200"' in html
assert 'property="og:image:type" content="image/png"' in html
assert 'property="og:image:alt" content="Sourdough in three days"' in html

start = html.index("https://notes.example/marmeon-og/")
address = html[start : html.index('"', start)]
image = client.get(address.removeprefix("https://notes.example"))
assert image.headers["Cache-Control"] == "public, max-age=31536000, immutable"
assert Image.open(io.BytesIO(image.data)).size == (1200, 630)
assert 'og:image:alt" content="Who we are"' in client.get("/about").text
