"""Without APP_URL the server leaves relative URLs out; the browser adds them."""

import json
import re

from flask import Flask, render_template_string

from flask_marmeon import Marmeon, head

app = Flask(__name__)  # no APP_URL: the server knows no origin it may trust
Marmeon(app)


@app.get("/about")
def about() -> str:
    head(
        title="About",
        canonical="/about",
        open_graph={"image": "https://cdn.example/about.png"},
    )
    return render_template_string("<head>{{ render_head() }}</head>")


html = app.test_client().get("/about").text
document, data_text = html.split('id="marmeon-head"')

# The document leaves the relative canonical out, and keeps the full URL.
assert 'rel="canonical"' not in document
assert 'content="https://cdn.example/about.png"' in document

# The data keeps it: the module resolves "/about" against location.origin.
data = json.loads(re.search(r">(.*?)</script>", data_text).group(1))
assert data["appUrl"] is None
assert {
    "tag": "link",
    "attrs": {"rel": "canonical", "href": "/about"},
    "url": "href",
    "field": "canonical",
    "group": 1,
} in data["head"]
