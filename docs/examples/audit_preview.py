"""The development preview: a page as a search result and as link cards."""

from flask import Flask, render_template_string

from flask_marmeon import Marmeon, everyone, head

app = Flask(__name__)
app.config["APP_URL"] = "https://notes.example"
Marmeon(app)


@app.get("/", sitemap=True, authorize=everyone)
def index() -> str:
    head(
        title="Notes on sourdough, bicycles and plants",
        description="Short notes on baking, bicycles, plants, coffee and more.",
        canonical="/",
        open_graph={"url": "/"},
        twitter={"card": "summary"},
    )
    return render_template_string("<html><head>{{ render_head() }}</head></html>")


client = app.test_client()
# Only in development (flask run --debug): elsewhere it does not exist.
assert client.get("/_marmeon/preview?path=/").status_code == 404
app.debug = True
page = client.get("/_marmeon/preview?path=/").text
assert "Notes on sourdough, bicycles and plants" in page
assert "Findings for this page" in page
# Without path=, an index links every URL of the sitemap.
assert 'href="?path=/"' in client.get("/_marmeon/preview").text
# path= takes a path on the app, never another host.
assert client.get("/_marmeon/preview?path=//evil.example/").status_code == 400
