"""Quickstart: set the extension up, with the app or in an app factory."""

from flask import Flask

from flask_marmeon import Marmeon

app = Flask(__name__)
app.config["APP_URL"] = "https://notes.example"
marmeon = Marmeon(app)

# Or create it once and set it up in the factory, for each app it builds.
marmeon = Marmeon()


def create_app() -> Flask:
    app = Flask(__name__)
    app.config["APP_URL"] = "https://notes.example"
    marmeon.init_app(app)
    return app


# One extension object serves several apps, each with its own settings.
first, second = create_app(), create_app()
assert first.extensions["marmeon"] is not second.extensions["marmeon"]
