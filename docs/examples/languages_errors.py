"""An error page of a localized URL: the visitor's language, no addresses."""

from flask import Blueprint, Flask, abort

from flask_marmeon import Marmeon, current_page, head, localized, render_head

app = Flask(__name__)
app.config["APP_URL"] = "https://notes.example"
app.config["APP_LOCALES"] = ["en", "de"]
Marmeon(app)

notes = localized(Blueprint("notes", __name__))


@notes.get("/notes/<int:note_id>")
def show(note_id: int) -> str:
    abort(404)  # no such note


app.register_blueprint(notes)

MESSAGES = {"en": "Not found", "de": "Nicht gefunden", None: "Not found"}


@app.errorhandler(404)
def not_found(error: Exception) -> tuple[str, int]:
    page = current_page()  # page.locale is the URL's locale
    head(title=MESSAGES[page.locale])
    return f"<html><head>{render_head()}</head></html>", 404


client = app.test_client()
for path in ("/de/notes/9", "/de/no-such-page"):
    response = client.get(path)
    assert response.status_code == 404
    assert "<title data-marmeon>Nicht gefunden</title>" in response.text
    # Neither a canonical nor hreflang: the error is not the page.
    assert 'rel="canonical"' not in response.text
    assert "hreflang" not in response.text
