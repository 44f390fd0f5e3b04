"""Configuration: MARMEON_CSP_NONCE gives the extension's scripts a nonce."""

import secrets

from flask import Flask, Response, g, render_template_string

from flask_marmeon import Marmeon, head

app = Flask(__name__)
app.config["APP_URL"] = "https://notes.example"
# Called without arguments during the request; None means no nonce.
app.config["MARMEON_CSP_NONCE"] = lambda: g.get("csp_nonce")
Marmeon(app)


@app.before_request
def make_nonce() -> None:
    g.csp_nonce = secrets.token_urlsafe(16)


@app.after_request
def send_policy(response: Response) -> Response:
    response.headers["Content-Security-Policy"] = (
        f"script-src 'self' 'nonce-{g.csp_nonce}'"
    )
    return response


@app.get("/")
def index() -> str:
    head(title="Notes", json_ld={"@context": "https://schema.org", "@type": "WebSite"})
    return render_template_string("<head>{{ render_head() }}</head>")


response = app.test_client().get("/")
nonce = response.headers["Content-Security-Policy"].split("'nonce-")[1].rstrip("'")
# The JSON-LD block and the browser module carry it.
assert response.text.count(f'nonce="{nonce}"') == 2
