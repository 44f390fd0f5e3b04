"""IndexNow: what the next run would send, from the sitemap's own dates."""

import tempfile
from datetime import datetime, timedelta, timezone

from flask import Flask

from flask_marmeon import Marmeon, SitemapEntry, everyone, submit_changed

now = datetime.now(timezone.utc)
notes = {1: now - timedelta(days=30), 2: now - timedelta(days=30)}

app = Flask(__name__, instance_path=tempfile.mkdtemp())
app.config["APP_URL"] = "https://notes.example"
app.config["MARMEON_INDEXNOW_KEY"] = "5f1c0e7d9a2b4c6e"
Marmeon(app)


def note_pages():
    for note_id, changed in notes.items():
        yield SitemapEntry({"note_id": note_id}, last_modified=changed)


@app.get("/notes/<int:note_id>", sitemap=note_pages, authorize=everyone)
def note(note_id):
    return f"note {note_id}"


# The first run sends nothing: it sets the watermark (here in the instance
# folder; in the shared sitemap_cache when the app has one).
assert submit_changed(app, dry_run=True).first_run
first = submit_changed(app)
assert first.first_run and first.urls == ()

# Note 2 changes: the next run would send its address, and only it.
notes[2] = datetime.now(timezone.utc)
planned = submit_changed(app, dry_run=True)
assert planned.urls == ("https://notes.example/notes/2",)

# --since (or since=) looks further back than the watermark.
back = submit_changed(app, since=now - timedelta(days=31), dry_run=True)
assert back.urls == (
    "https://notes.example/notes/1",
    "https://notes.example/notes/2",
)
