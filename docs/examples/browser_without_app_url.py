"""Without APP_URL the server leaves relative URLs out; the browser adds them."""

import json

import html5lib
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
document = html5lib.parse(html, namespaceHTMLElements=False)
written = [el for el in document.find("head") if "data-marmeon" in el.attrib]

# The document leaves the relative canonical out, and keeps the full URL.
assert not [el for el in written if el.get("rel") == "canonical"]
assert {"property": "og:image", "content": "https://cdn.example/about.png"} in [
    {k: v for k, v in el.attrib.items() if k != "data-marmeon"} for el in written
]

# A small data script names what was left out, with its place (the second
# element): the module resolves "/about" against location.origin there.
(data,) = [el for el in document.iter("script") if "data-marmeon-data" in el.attrib]
assert json.loads(data.text) == {
    "v": 2,
    "missing": [
        {
            "at": 1,
            "tag": "link",
            "attrs": {"rel": "canonical", "href": "/about"},
            "url": "href",
            "group": 1,
        }
    ],
}
