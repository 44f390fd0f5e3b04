"""Configuration: only the origin of APP_URL is used."""

from flask import Flask, render_template_string

from flask_marmeon import Marmeon, head

app = Flask(__name__)
app.config["APP_URL"] = "https://notes.example/blog/"  # the path is not used
Marmeon(app)


@app.get("/notes/1")
def show() -> str:
    head(title="Sourdough", canonical="/notes/1")
    return render_template_string("<head>{{ render_head() }}</head>")


html = app.test_client().get("/notes/1").text
assert '<link rel="canonical" href="https://notes.example/notes/1"' in html
assert '<meta name="marmeon:app-url" content="https://notes.example">' in html
