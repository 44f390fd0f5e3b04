"""audit(timeout=...): a view that never answers does not hold the audit up."""

import threading

from flask import Flask, render_template_string, url_for

from flask_marmeon import Marmeon, SitemapEntry, everyone, head
from flask_marmeon.audit import audit

PAGE = "<!doctype html><html><head>{{ render_head() }}</head><body></body></html>"
never = threading.Event()  # a database that never answers, say

app = Flask(__name__)
app.config["APP_URL"] = "https://notes.example"
Marmeon(app)


def notes() -> list[SitemapEntry]:
    return [SitemapEntry(params={"note_id": 1}), SitemapEntry(params={"note_id": 2})]


@app.get("/notes/<int:note_id>", sitemap=notes, authorize=everyone)
def show(note_id: int) -> str:
    if note_id == 2:
        never.wait()
    head(
        title=f"Note {note_id}: a sourdough starter",
        description="How to keep a sourdough starter alive on one feed a day.",
        canonical=url_for("show", note_id=note_id),
    )
    return render_template_string(PAGE)


# Each answer may take at most 0.5 s here (30 s by default; None: no limit).
report = audit(app, timeout=0.5)
(finding,) = report.errors
assert finding.code == "page-status"
assert finding.url == "https://notes.example/notes/2"
assert "Answers 504 (no answer within 0.5 s)" in finding.message
never.set()  # the view, still waiting on the audit's thread, ends
