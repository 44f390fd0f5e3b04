"""Pages that exist in some languages only."""

from flask import Blueprint, Flask

from flask_marmeon import Marmeon, SitemapEntry, everyone, localized

app = Flask(__name__)
app.config["APP_URL"] = "https://notes.example"
app.config["APP_LOCALES"] = ["en", "de"]
Marmeon(app)
notes = localized(Blueprint("notes", __name__))


def note_pages() -> list[SitemapEntry]:
    return [
        SitemapEntry(params={"note_id": 1}),  # every language
        SitemapEntry(params={"note_id": 2}, locales=["en"]),  # English only
    ]


@notes.get("/notes/<int:note_id>", sitemap=note_pages, authorize=everyone)
def note(note_id: int) -> str:
    return f"Note {note_id}"


app.register_blueprint(notes)

sitemap = app.test_client().get("/sitemap.xml").text
assert "<loc>https://notes.example/en/notes/1</loc>" in sitemap
assert "<loc>https://notes.example/de/notes/1</loc>" in sitemap
# Note 2 has one <url>, naming itself and the address without a language.
assert "<loc>https://notes.example/en/notes/2</loc>" in sitemap
assert "/de/notes/2" not in sitemap
assert (
    '<xhtml:link rel="alternate" hreflang="en" href="https://notes.example/en/notes/2"/>'
    '<xhtml:link rel="alternate" hreflang="x-default"'
    ' href="https://notes.example/notes/2"/></url>'
) in sitemap
