"""og:locale: Open Graph's language_TERRITORY, completed from CLDR."""

from flask import Blueprint, Flask

from flask_marmeon import Marmeon, head, localized, render_head

app = Flask(__name__)
app.config["APP_URL"] = "https://notes.example"
app.config["APP_LOCALES"] = ["en", "de", "de-AT"]
Marmeon(app)

docs = localized(Blueprint("docs", __name__))


@docs.get("/about")
def about() -> str:
    head(title="About", open_graph={"type": "website"})
    return f"<head>{render_head()}</head>"


app.register_blueprint(docs)

html = app.test_client().get("/de/about").text
# "de" has no region: CLDR's likely one completes it; de-AT has its own.
assert '<meta property="og:locale" content="de_DE"' in html
assert '<meta property="og:locale:alternate" content="en_US"' in html
assert '<meta property="og:locale:alternate" content="de_AT"' in html
# hreflang keeps the tags as configured.
assert 'hreflang="de" href="https://notes.example/de/about"' in html
assert 'hreflang="de-AT" href="https://notes.example/de-at/about"' in html
