"""The head of a localized page names all its languages by itself."""

from flask import Blueprint, Flask

from flask_marmeon import Marmeon, head, localized, render_head

app = Flask(__name__)
app.config["APP_URL"] = "https://notes.example"
app.config["APP_LOCALES"] = ["en", "de-AT"]
Marmeon(app)

docs = localized(Blueprint("docs", __name__))


@docs.get("/about")
def about() -> str:
    head(title="About", open_graph={"type": "website"})
    return f"<!doctype html><html><head>{render_head()}</head></html>"


app.register_blueprint(docs)

html = app.test_client().get("/de-at/about?utm_source=news").text
# The canonical and the alternates have no query string.
assert '<link rel="canonical" href="https://notes.example/de-at/about"' in html
assert 'hreflang="en" href="https://notes.example/en/about"' in html
assert 'hreflang="de-AT" href="https://notes.example/de-at/about"' in html
assert 'hreflang="x-default" href="https://notes.example/about"' in html
# With open_graph set, og:locale in Open Graph's form, and the others.
assert '<meta property="og:locale" content="de_AT"' in html
# A tag without a region gets CLDR's likely one: en is en_US.
assert '<meta property="og:locale:alternate" content="en_US"' in html
