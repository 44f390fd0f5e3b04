"""The browser code: the head's data and the module that applies it."""

import json
import re

from flask import Flask, render_template_string

from flask_marmeon import Marmeon, head

app = Flask(__name__)
app.config["APP_URL"] = "https://notes.example"
Marmeon(app)


@app.get("/notes/<int:note_id>")
def show(note_id: int) -> str:
    head(title="Sourdough", canonical=f"/notes/{note_id}")
    return render_template_string(
        "<!doctype html><html><head>{{ render_head() }}</head><body></body></html>"
    )


client = app.test_client()
html = client.get("/notes/1").text

# The server's head, with absolute URLs...
canonical_tag = (
    '<link rel="canonical" href="https://notes.example/notes/1" data-marmeon>'
)
assert canonical_tag in html

# ...and the same head as data, URLs as the app gave them, for the module.
data = json.loads(re.search(r'id="marmeon-head"[^>]*>(.*?)</script>', html).group(1))
assert data["appUrl"] == "https://notes.example"
assert {"tag": "title", "attrs": {}, "text": "Sourdough"} in data["head"]
canonical = next(e for e in data["head"] if e.get("field") == "canonical")
assert canonical["attrs"]["href"] == "/notes/1"

# The module's URL carries a hash of its content: it is cached for a year.
src = re.search(r'<script type="module" src="([^"]+)"', html).group(1)
assert re.fullmatch(r"/_marmeon/marmeon\.[0-9a-f]{12}\.js", src)
module = client.get(src)
assert module.status_code == 200
assert module.mimetype == "text/javascript"
assert module.headers["Cache-Control"] == "public, max-age=31536000, immutable"
assert "Set-Cookie" not in module.headers

# An older version's URL is gone.
assert client.get("/_marmeon/marmeon.000000000000.js").status_code == 404
