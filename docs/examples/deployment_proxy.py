"""Deployment: behind a proxy, addresses come from APP_URL, never the request."""

from flask import Flask, render_template_string, url_for
from werkzeug.middleware.proxy_fix import ProxyFix

from flask_marmeon import Marmeon, everyone, head

app = Flask(__name__)
app.config["APP_URL"] = "https://notes.example"
Marmeon(app)
# ProxyFix is for the app's own needs (url_for(_external=True), the client's
# address). flask_marmeon does not need it, and is not fooled by it.
app.wsgi_app = ProxyFix(app.wsgi_app, x_for=1, x_proto=1, x_host=1)  # type: ignore[method-assign]


@app.get("/notes/1", sitemap=True, authorize=everyone)
def show() -> str:
    head(title="Sourdough", canonical=url_for("show"), open_graph={"url": "/notes/1"})
    return render_template_string("<head>{{ render_head() }}</head>")


client = app.test_client()
# A request that claims another host, as anybody can send, or a proxy forward.
forged = {"Host": "evil.example", "X-Forwarded-Host": "evil.example"}
html = client.get("/notes/1", headers=forged).text
assert 'href="https://notes.example/notes/1"' in html
assert 'content="https://notes.example/notes/1"' in html
assert "evil.example" not in html
sitemap = client.get("/sitemap.xml", headers=forged).text
assert "<loc>https://notes.example/notes/1</loc>" in sitemap
assert "evil.example" not in sitemap
robots = client.get("/robots.txt", headers=forged)
assert "Sitemap: https://notes.example/sitemap.xml" in robots.text
# Safe for a shared cache: public, and never a cookie.
assert robots.headers["Cache-Control"] == "public, max-age=300"
assert "Set-Cookie" not in robots.headers
