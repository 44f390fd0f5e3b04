"""Localized routes: one blueprint, an address per locale, and the redirect."""

from flask import Blueprint, Flask, url_for

from flask_marmeon import Marmeon, current_page, localized

app = Flask(__name__)
app.config["APP_URL"] = "https://notes.example"
app.config["APP_LOCALES"] = ["en", "de-AT"]
Marmeon(app)  # before register_blueprint: it installs the locale converter

docs = localized(Blueprint("docs", __name__))


@docs.get("/about")
def about() -> str:
    # No locale argument: the page object says which locale this is.
    return f"{current_page().locale}: see {url_for('docs.contact')}"


@docs.get("/contact")
def contact() -> str:
    return url_for("docs.contact", locale="en")


app.register_blueprint(docs)

client = app.test_client()
# Each locale has its address, spelled in lower case.
assert client.get("/de-at/about").text == "de-AT: see /de-at/contact"
assert client.get("/en/about").text == "en: see /en/contact"
assert client.get("/de-at/contact").text == "/en/contact"
# Other spellings and other languages are not found.
assert client.get("/DE-AT/about").status_code == 404
assert client.get("/fr/about").status_code == 404

# The address without a locale sends the visitor to their language.
response = client.get("/about?ref=mail", headers={"Accept-Language": "de-AT, en;q=0.5"})
assert response.status_code == 302
assert response.headers["Location"] == "/de-at/about?ref=mail"
assert "Accept-Language" in response.vary
assert response.headers["Cache-Control"] == "private"
# Nothing fits: the first locale.
response = client.get("/about", headers={"Accept-Language": "ja"})
assert response.headers["Location"] == "/en/about"
