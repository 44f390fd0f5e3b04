"""Flask-Babel takes the locale of a localized route."""

from flask import Blueprint, Flask
from flask_babel import Babel, get_locale

from flask_marmeon import Marmeon, localized

app = Flask(__name__)
app.config["APP_LOCALES"] = ["en", "de-AT"]
marmeon = Marmeon(app)
Babel(app, locale_selector=marmeon.locale_selector)

seen = {}


@app.before_request
def layout() -> None:
    # Already the route's locale in before_request hooks.
    seen["hook"] = str(get_locale())


docs = localized(Blueprint("docs", __name__))


@docs.get("/about")
def about() -> str:
    return str(get_locale())


app.register_blueprint(docs)

client = app.test_client()
assert client.get("/de-at/about").text == "de_AT"
assert seen["hook"] == "de_AT"
assert client.get("/en/about").text == "en"
