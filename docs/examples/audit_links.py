"""The audit follows the links of the pages it reads."""

from flask import Flask, render_template_string, url_for

from flask_marmeon import Marmeon, SitemapEntry, everyone, head
from flask_marmeon.audit import audit

PAGE = """<!doctype html><html><head>{{ render_head() }}</head><body>
<a href="/">Home</a> <a href="/notes/1">Starter</a> <a href="/notes/2">Bread</a>
<a href="/archive" rel="nofollow">Archive</a>
<a href="https://elsewhere.example/">not followed: another host</a>
</body></html>"""


def create_app() -> Flask:
    app = Flask(__name__)
    app.config["APP_URL"] = "https://notes.example"
    Marmeon(app)

    def notes() -> list[SitemapEntry]:
        return [SitemapEntry(params={"note_id": 1})]  # note 2 is gone

    @app.get("/", sitemap=True, authorize=everyone)
    def home() -> str:
        head(
            title="Notes on bread and starters",
            description="Short notes on keeping a starter and baking bread at home.",
            canonical=url_for("home"),
        )
        return render_template_string(PAGE)

    @app.get("/notes/<int:note_id>", sitemap=notes, authorize=everyone)
    def show(note_id: int) -> str:
        if note_id != 1:
            return "Not found", 404
        head(
            title="Note 1: a sourdough starter",
            description="How to keep a sourdough starter alive on one feed a day.",
            canonical=url_for("show", note_id=note_id),
        )
        return render_template_string(PAGE)

    return app


report = audit(create_app())
broken = [(f.url, f.message) for f in report.findings if f.code == "link-broken"]
# Each page that links /notes/2 has the finding, naming the link and the fix.
assert [url for url, _ in broken] == [
    "https://notes.example/",
    "https://notes.example/notes/1",
]
assert "https://notes.example/notes/2, which answers 404" in broken[0][1]
