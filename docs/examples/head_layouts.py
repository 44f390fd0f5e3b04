"""Layouts (before_request hooks) and pages: the page wins, key by key."""

from flask import Blueprint, Flask

from flask_marmeon import Marmeon, head, render_head

app = Flask(__name__)
app.config["APP_URL"] = "https://notes.example"
Marmeon(app)


def page() -> str:
    return f"<!doctype html><html><head>{render_head()}</head></html>"


@app.before_request
def site_layout() -> None:
    head(
        title_template="%s · Notes",
        description="A place for notes.",
        open_graph={"site_name": "Notes", "image": {"url": "/logo.png", "alt": "Logo"}},
        twitter={"card": "summary", "site": "@notes"},
        json_ld={"@type": "Organization", "name": "Notes"},
    )


notes = Blueprint("notes", __name__)


@notes.before_request
def notes_layout() -> None:
    head(robots={"follow": True})


@notes.get("/notes/<int:note_id>")
def show(note_id: int) -> str:
    head(
        title="Sourdough",
        robots={"index": False},
        open_graph={"title": "Sourdough, step by step", "image": "/covers/1.png"},
        json_ld={"@type": "Article", "headline": "Sourdough"},
    )
    return page()


@app.get("/about")
def about() -> str:
    head(title="About")
    return page()


@app.errorhandler(404)
def not_found(error: Exception) -> tuple[str, int]:
    head(title="Not found", robots={"index": False})
    return page(), 404


app.register_blueprint(notes)
client = app.test_client()

html = client.get("/notes/1").text
assert "<title data-marmeon>Sourdough · Notes</title>" in html
# A simple field: the last call that sets it.
assert '<meta name="description" content="A place for notes."' in html
# robots, open_graph and twitter merge key by key.
assert '<meta name="robots" content="noindex, follow"' in html
assert '<meta property="og:site_name" content="Notes"' in html
assert '<meta property="og:title" content="Sourdough, step by step"' in html
# An image is one value: the page's replaced the layout's, alt and all.
assert 'content="https://notes.example/covers/1.png"' in html
assert "og:image:alt" not in html
# twitter takes the page's title, not open_graph's.
assert '<meta name="twitter:title" content="Sourdough"' in html
# JSON-LD blocks add up, the layout's first.
assert html.index('"Organization"') < html.index('"Article"')

# The layout's twitter card gives every page its twitter tags.
html = client.get("/about").text
assert '<meta name="twitter:card" content="summary"' in html
assert '<meta name="twitter:title" content="About"' in html

# An error page has a head too.
response = client.get("/nowhere")
assert response.status_code == 404
assert "<title data-marmeon>Not found · Notes</title>" in response.text
