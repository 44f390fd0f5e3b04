"""The browser code: the head written once, and the module that keeps it current."""

import re

import html5lib
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
document = html5lib.parse(html, namespaceHTMLElements=False)

# The head's managed elements carry data-marmeon; with APP_URL their URLs
# are final, and the page carries no other copy of them.
managed = [el for el in document.find("head") if "data-marmeon" in el.attrib]
assert [el.tag for el in managed] == ["title", "link"]
assert managed[1].get("href") == "https://notes.example/notes/1"
assert "data-marmeon-data" not in html

# The module's URL carries a hash of its content: it is cached for a year.
(module,) = [el for el in document.iter("script") if el.get("type") == "module"]
src = module.get("src")
assert re.fullmatch(r"/marmeon\.[0-9a-f]{12}\.js", src)
response = client.get(src)
assert response.status_code == 200
assert response.mimetype == "text/javascript"
assert response.headers["Cache-Control"] == "public, max-age=31536000, immutable"
assert "Set-Cookie" not in response.headers

# An older version's URL is gone.
assert client.get("/marmeon.000000000000.js").status_code == 404
