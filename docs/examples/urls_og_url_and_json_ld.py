"""og:url set to the page's canonical address, and absolute JSON-LD addresses."""

from flask import Blueprint, Flask, render_template_string

from flask_marmeon import Marmeon, absolute_url, current_page, head, localized

app = Flask(__name__)
app.config["APP_URL"] = "https://notes.example"
app.config["APP_LOCALES"] = ["en", "de"]
app.config["APPLICATION_ROOT"] = "/blog"  # the mount path, from configuration
Marmeon(app)
notes = localized(Blueprint("notes", __name__))
PAGE = "<html><head>{{ render_head() }}</head><body></body></html>"


@notes.get("/notes/<int:note_id>")
def show(note_id: int) -> str:
    # The page object holds the canonical address the head writes: the page's
    # own address in its language, under the mount path, without the query.
    canonical = current_page().canonical_path
    head(
        title=f"Note {note_id}",
        open_graph={"title": f"Note {note_id}", "url": canonical},
        json_ld={
            "@context": "https://schema.org",
            "@type": "Article",
            "headline": f"Note {note_id}",
            # JSON-LD is written exactly as given: make its addresses absolute.
            "url": absolute_url(canonical),
            "image": absolute_url("/blog/static/cover.png"),
        },
    )
    return render_template_string(PAGE)


@notes.get("/about")
def about() -> str:
    head(title="About")  # a page that sets no og:url writes none
    return render_template_string(PAGE)


app.register_blueprint(notes)

text = app.test_client().get("/de/notes/1?ref=mail").text
assert '<link rel="canonical" href="https://notes.example/blog/de/notes/1"' in text
assert 'property="og:url" content="https://notes.example/blog/de/notes/1"' in text
assert '"url":"https://notes.example/blog/de/notes/1"' in text
assert '"image":"https://notes.example/blog/static/cover.png"' in text
assert "og:url" not in app.test_client().get("/en/about").text

# Outside a page too, with the app current; what the head would leave out
# (another host, another scheme, a relative URL without APP_URL) is refused.
with app.app_context():
    assert absolute_url("/feed.xml") == "https://notes.example/feed.xml"
    try:
        absolute_url("//other.example/x")
    except ValueError as error:
        assert "another origin" in str(error)
    else:
        raise AssertionError("absolute_url accepted another host")
