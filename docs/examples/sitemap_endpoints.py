"""/robots.txt and /sitemap.xml: no session, no cookie, cached for the TTL."""

from flask import Flask, Response, session

from flask_marmeon import Marmeon, everyone

app = Flask(__name__)
app.config["APP_URL"] = "https://notes.example"
app.config["MARMEON_SITEMAP_TTL"] = 600
app.secret_key = "dev"
Marmeon(app)


@app.get("/", sitemap=True, authorize=everyone)
def index() -> str:
    session["seen"] = True
    return "Notes"


@app.after_request
def tracker(response: Response) -> Response:
    response.set_cookie("tracker", "1")  # a global hook that sets a cookie
    return response


client = app.test_client()
assert client.get("/").headers.getlist("Set-Cookie")  # pages have cookies

robots = client.get("/robots.txt")
assert robots.text == (
    "User-agent: *\n"
    "Disallow: /_marmeon/\n"
    "\n"
    "Sitemap: https://notes.example/sitemap.xml\n"
)
sitemap = client.get("/sitemap.xml")
for response in (robots, sitemap):
    assert "Set-Cookie" not in response.headers
    assert response.headers["Cache-Control"] == "public, max-age=600"
assert client.head("/sitemap.xml").status_code == 200
