"""From Flask's URL-processor lang_code pattern to localized(): the same
addresses before and after, with hreflang, the redirect and the sitemap."""

from flask import Blueprint, Flask, g, url_for

from flask_marmeon import Marmeon, everyone, head, localized, render_head

# -- Before: Flask's URL processors carry the language in g.lang_code --------

before = Flask("before")
old = Blueprint("pages", __name__, url_prefix="/<lang_code>")


@old.url_defaults
def add_language_code(endpoint: str, values: dict[str, str]) -> None:
    values.setdefault("lang_code", g.lang_code)


@old.url_value_preprocessor
def pull_lang_code(endpoint: str | None, values: dict[str, str] | None) -> None:
    g.lang_code = values.pop("lang_code") if values else "en"


@old.get("/about")
def about() -> str:
    return f"<a href='{url_for('pages.about', lang_code='de')}'>Deutsch</a>"


before.register_blueprint(old)
assert "href='/de/about'" in before.test_client().get("/en/about").text

# -- After: localized() adds the locale; url_for takes locale= ---------------

after = Flask("after")
after.config.update(APP_URL="https://notes.example", APP_LOCALES=["en", "de"])
Marmeon(after)
# No url_prefix="/<lang_code>" and no URL processors: localized() adds the
# locale to every route of the blueprint (a leftover prefix is an H10
# problem, i18n.E002, whose hint says to remove it).
pages = localized(Blueprint("pages", __name__))


@pages.get("/about", sitemap=True, authorize=everyone)
def about_page() -> str:
    head(title="About")
    # g.lang_code was the page's language: current_page().locale is.
    link = url_for("pages.about_page", locale="de")
    return f"<head>{render_head()}</head><a href='{link}'>Deutsch</a>"


after.register_blueprint(pages)
client = after.test_client()
html = client.get("/en/about").text
# The same addresses as before.
assert "href='/de/about'" in html
for path in ("/en/about", "/de/about"):
    assert before.test_client().get(path).status_code == 200
    assert client.get(path).status_code == 200
# What the URL processors never wrote: hreflang for every language...
hreflang = '<link rel="alternate" hreflang="de" href="https://notes.example/de/about"'
assert hreflang in html
# ...the redirect from the address without a language...
assert client.get("/about", headers={"Accept-Language": "de"}).location == "/de/about"
# ...and both languages in the sitemap.
sitemap = client.get("/sitemap.xml").text
assert "<loc>https://notes.example/de/about</loc>" in sitemap
