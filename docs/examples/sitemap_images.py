"""A page's images in the sitemap, as Google's image extension."""

from flask import Flask

from flask_marmeon import Marmeon, SitemapEntry, everyone

app = Flask(__name__)
app.config["APP_URL"] = "https://notes.example"
Marmeon(app)


def note_pages() -> list[SitemapEntry]:
    return [
        SitemapEntry(
            params={"note_id": 1},
            images=["/covers/1.png", "https://cdn.example/1-large.jpg"],
        ),
        SitemapEntry(params={"note_id": 2}),  # no image: nothing more
    ]


@app.get("/notes/<int:note_id>", sitemap=note_pages, authorize=everyone)
def note(note_id: int) -> str:
    return f"Note {note_id}"


sitemap = app.test_client().get("/sitemap.xml").text
# The namespace is declared because the file holds an image.
assert 'xmlns:image="http://www.google.com/schemas/sitemap-image/1.1"' in sitemap
assert (
    "<url><loc>https://notes.example/notes/1</loc>"
    "<image:image><image:loc>https://notes.example/covers/1.png</image:loc></image:image>"
    "<image:image><image:loc>https://cdn.example/1-large.jpg</image:loc></image:image>"
    "</url>"
) in sitemap
assert "<url><loc>https://notes.example/notes/2</loc></url>" in sitemap
