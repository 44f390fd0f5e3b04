"""The default canonical on every route, and error pages without addresses."""

from flask import Flask, abort

from flask_marmeon import Marmeon, head, render_head

app = Flask(__name__)
app.config["APP_URL"] = "https://notes.example"
app.config["MARMEON_DEFAULT_CANONICAL"] = True
Marmeon(app)


def page() -> str:
    return f"<!doctype html><html><head>{render_head()}</head></html>"


@app.get("/notes/<int:note_id>")
def note(note_id: int) -> str:
    if note_id == 0:
        head(canonical="/notes/0")  # named before it finds nothing
        abort(404)
    head(title=f"Note {note_id}")
    return page()


@app.get("/files/<path:name>")
def file(name: str) -> str:
    head(title=name)
    return page()


@app.errorhandler(404)
def not_found(error: Exception) -> tuple[str, int]:
    head(title="Not found")
    return page(), 404


client = app.test_client()
# No canonical set: the route's own address, without the query string.
html = client.get("/notes/007?utm_source=x").text
assert '<link rel="canonical" href="https://notes.example/notes/7"' in html

# An error page names no address of its own.
html = client.get("/notes/0").text
assert "<title" in html and 'rel="canonical"' not in html

# A path value with a dot segment would name another page: no canonical.
html = client.get("/files/x%2F..%2F..%2Fadmin").text
assert 'rel="canonical"' not in html
html = client.get("/files/docs/a.txt").text
assert '<link rel="canonical" href="https://notes.example/files/docs/a.txt"' in html
