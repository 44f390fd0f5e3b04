"""Configuration: MARMEON_BROWSER_SCRIPT = False leaves the browser code out."""

from flask import Flask, render_template_string

from flask_marmeon import Marmeon, head

app = Flask(__name__)
app.config["APP_URL"] = "https://notes.example"
app.config["MARMEON_BROWSER_SCRIPT"] = False  # a site without client-side visits
Marmeon(app)


@app.get("/")
def index() -> str:
    head(title="Notes")
    return render_template_string("<head>{{ render_head() }}</head>")


html = app.test_client().get("/").text
assert "<title data-marmeon>Notes</title>" in html
assert "data-marmeon-data" not in html
assert 'type="module"' not in html
