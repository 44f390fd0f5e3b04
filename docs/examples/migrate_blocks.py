"""From templates with blocks: the same page before and after the move."""

from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urljoin

from flask import Flask, render_template

from flask_marmeon import Marmeon, head

TEMPLATES = Path(__file__).parent / "templates"
NOTES = {
    1: {"id": 1, "title": "Sourdough", "summary": "Patience.", "draft": False},
    2: {"id": 2, "title": "Rye", "summary": "Not yet.", "draft": True},
}

# Before: base.html writes <title> and the meta tags, pages fill its blocks.
before = Flask(__name__, template_folder=TEMPLATES / "migrate_before")


@before.get("/notes/<int:note_id>")
def show_before(note_id: int) -> str:
    return render_template("note.html", note=NOTES[note_id])


# After: base.html writes {{ render_head() }}, pages call head().
after = Flask(__name__, template_folder=TEMPLATES / "migrate_after")
after.config["APP_URL"] = "https://notes.example"
Marmeon(after)


@after.before_request
def layout() -> None:
    # What base.html said around and in its blocks, and its icon: the
    # " · Notes" after the title, the default description. A layout runs
    # before the page's calls, so the page's win.
    head(
        title_template="%s · Notes",
        description="Short notes on baking and more.",
        icons="/static/favicon.ico",
    )


@after.get("/notes/<int:note_id>")
def show_after(note_id: int) -> str:
    return render_template("note.html", note=NOTES[note_id])


class Head(HTMLParser):
    """The tags of a page's head that both pages write, by name."""

    def __init__(self, html: str) -> None:
        super().__init__()
        self.found: dict[str, str] = {}
        self.in_title = False
        self.feed(html)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        self.in_title = tag == "title"
        if tag == "meta" and (a.get("name") or a.get("property")):
            self.found[a.get("name") or a.get("property") or ""] = a["content"] or ""
        if tag == "link":
            # The old page's relative href and the new page's absolute one
            # (from APP_URL) name the same address.
            href = urljoin("https://notes.example/", a["href"] or "")
            self.found[f"link {a['rel']}"] = href

    def handle_data(self, data: str) -> None:
        if self.in_title:
            self.found["title"] = data
            self.in_title = False


for note_id in NOTES:
    old = Head(before.test_client().get(f"/notes/{note_id}").text).found
    new = Head(after.test_client().get(f"/notes/{note_id}").text).found
    # Every tag of the old page is in the new one, with the same content.
    assert old.items() <= new.items(), (old, new)
assert new["title"] == "Rye · Notes"
assert new["robots"] == "noindex"
assert new["link canonical"] == "https://notes.example/notes/2"
assert new["link icon"] == "https://notes.example/static/favicon.ico"
# And what the extension adds, such as og:description.
assert new["og:description"] == "Not yet."
