"""Lazy strings (Flask-Babel's lazy_gettext) are text wherever text is."""

from flask import Flask
from flask_babel import Babel, lazy_gettext

from flask_marmeon import Marmeon, head, render_head

app = Flask(__name__)
Marmeon(app)
Babel(app)

# Made once at import, turned into text when head() is called in a request.
SITE_NAME = lazy_gettext("Notes")


@app.get("/")
def index() -> str:
    head(title=lazy_gettext("Home"), open_graph={"site_name": SITE_NAME})
    return str(render_head())


html = app.test_client().get("/").text
assert "<title data-marmeon>Home</title>" in html
assert '<meta property="og:site_name" content="Notes"' in html
