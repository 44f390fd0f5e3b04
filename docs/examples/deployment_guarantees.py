"""Deployment: what a hostile request cannot make the extension answer."""

from flask import Blueprint, Flask, session

from flask_marmeon import Marmeon, everyone, localized

app = Flask(__name__)
app.config.update(
    SECRET_KEY="change me",
    APP_URL="https://notes.example",
    APP_LOCALES=["en", "de"],
    APPLICATION_ROOT="/blog",
)
Marmeon(app)


@app.before_request
def count_visits() -> None:
    session["visits"] = session.get("visits", 0) + 1  # a cookie on every answer


@app.get(
    "/notes/<int:note_id>",
    sitemap=lambda: [{"params": {"note_id": 1}}],
    authorize=everyone,
)
def note(note_id: int) -> str:
    return f"note {note_id}"


docs = localized(Blueprint("docs", __name__))


@docs.get("/guide/", sitemap=True, authorize=everyone)
def guide() -> str:
    return "guide"


app.register_blueprint(docs)
client = app.test_client()
evil = {"base_url": "http://evil.example", "environ_overrides": {"SCRIPT_NAME": "/x"}}

# Cookies: robots.txt and the sitemap are public and never set one, however
# the path is spelled ("robots.txt" is what gunicorn hands over for
# /blogrobots.txt under SCRIPT_NAME=/blog).
for path in ("/robots.txt", "robots.txt", "//sitemap.xml"):
    answer = client.get("/", environ_overrides={"PATH_INFO": path})
    assert answer.headers["Cache-Control"].startswith("public")
    assert "Set-Cookie" not in answer.headers

# Redirects: the routing's own redirects give a path under APPLICATION_ROOT.
assert client.get("/notes//1", **evil).headers["Location"] == "/blog/notes/1"
assert client.get("/de/guide", **evil).headers["Location"] == "/blog/de/guide/"

# Vary: the address without a locale depends on Accept-Language.
answer = client.get("/guide/", headers={"Accept-Language": "de"})
assert answer.headers["Location"] == "/blog/de/guide/"
assert "Accept-Language" in answer.headers["Vary"]
assert "Accept-Language" in client.post("/guide/").headers["Vary"]  # a 404 too
