"""MARMEON_ROBOTS_RULES: robots.txt groups per crawler, keeping the Sitemap: line."""

from flask import Flask

from flask_marmeon import Marmeon, everyone

app = Flask(__name__)
app.config["APP_URL"] = "https://notes.example"
app.config["APPLICATION_ROOT"] = "/blog"  # the paths get the mount path
app.config["MARMEON_ROBOTS_RULES"] = [
    {"user_agent": ["GPTBot", "CCBot"], "disallow": ["/"]},  # no AI crawlers
    {"user_agent": "*", "disallow": ["/admin/"], "allow": ["/admin/help"]},
]
Marmeon(app)


@app.get("/", sitemap=True, authorize=everyone)
def index() -> str:
    return "Notes"


assert app.test_client().get("/robots.txt").text == (
    "User-agent: GPTBot\n"
    "User-agent: CCBot\n"
    "Disallow: /blog/\n"
    "\n"
    "User-agent: *\n"
    "Disallow: /blog/_marmeon/\n"  # the extension's own, kept in the * group
    "Disallow: /blog/admin/\n"
    "Allow: /blog/admin/help\n"
    "\n"
    "Sitemap: https://notes.example/blog/sitemap.xml\n"
)
