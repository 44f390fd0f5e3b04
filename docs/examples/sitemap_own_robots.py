"""A route of your own on /robots.txt wins."""

from flask import Flask, Response

from flask_marmeon import Marmeon, everyone

app = Flask(__name__)
app.config["APP_URL"] = "https://notes.example"
Marmeon(app)


@app.get("/", sitemap=True, authorize=everyone)
def index() -> str:
    return "Notes"


@app.get("/robots.txt")
def robots() -> Response:
    text = (
        "User-agent: *\nDisallow: /_marmeon/\n\nUser-agent: GPTBot\nDisallow: /\n\n"
        "Sitemap: https://notes.example/sitemap.xml\n"
    )
    return Response(text, mimetype="text/plain")


client = app.test_client()
assert "GPTBot" in client.get("/robots.txt").text
assert client.get("/sitemap.xml").status_code == 200  # still the extension's
