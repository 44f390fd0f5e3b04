"""Stop the start on an H10 problem: end the app factory with the check."""

from flask import Flask

from flask_marmeon import Marmeon, StartupError, everyone, raise_on_problems


def create_app() -> Flask:
    app = Flask(__name__)
    app.config["APP_URL"] = "https://notes.example"
    Marmeon(app)

    @app.post("/contact", sitemap=True, authorize=everyone)  # a crawler only GETs
    def contact() -> str:
        return "Sent"

    # The routes are complete here: `flask run`, gunicorn and every `flask`
    # command stop while loading the app, before answering anything.
    raise_on_problems(app)
    return app


try:
    create_app()
except StartupError as error:
    assert error.code == "H10"
    assert "route '/contact' (endpoint 'contact') does not answer GET" in str(error)
else:
    raise AssertionError("expected StartupError")
