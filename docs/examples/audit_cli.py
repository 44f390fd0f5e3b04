"""flask marmeon audit: crawl the app in-process and list what is wrong."""

import json

from flask import Flask, render_template_string

from flask_marmeon import Marmeon, everyone, head

app = Flask(__name__)
app.config["APP_URL"] = "https://notes.example"
Marmeon(app)

PAGE = """<!doctype html><html><head>{{ render_head() }}</head>
<body><a href="/">Notes</a> <a href="/about">About</a></body></html>"""


@app.get("/", sitemap=True, authorize=everyone)
def index() -> str:
    head(
        title="Notes on sourdough, bicycles and plants",
        description="Short notes on baking, bicycles, plants, coffee and more.",
        canonical="/",
    )
    return render_template_string(PAGE)


@app.get("/about", sitemap=True, authorize=everyone)
def about() -> str:
    # Two mistakes: the page is listed but says noindex, and it has no
    # canonical (a warning: a search engine then picks one itself).
    head(
        title="About these notes",
        description="Who writes these notes, and why they are short and practical.",
        robots={"index": False},
    )
    return render_template_string(PAGE)


# The same as running "flask --app app marmeon audit --json" in a shell.
result = app.test_cli_runner().invoke(args=["marmeon", "audit", "--json"])
assert result.exit_code == 1  # an error was found
report = json.loads(result.output)
assert report["pages"] == 2
about_url = "https://notes.example/about"
found = [(f["code"], f["severity"], f["url"]) for f in report["findings"]]
assert [item for item in found if item[2] == about_url] == [
    ("page-noindex", "error", "https://notes.example/about"),
    ("canonical-missing", "warning", "https://notes.example/about"),
]
