"""A localized route in the sitemap: one <url> per locale, each naming all."""

import xml.etree.ElementTree as ET

from flask import Blueprint, Flask

from flask_marmeon import Marmeon, SitemapEntry, everyone, localized

app = Flask(__name__)
app.config["APP_URL"] = "https://notes.example"
app.config["APP_LOCALES"] = ["en", "de-AT"]
Marmeon(app)

docs = localized(Blueprint("docs", __name__))


def feature_pages() -> list[SitemapEntry]:
    # Entries name the page, not the language.
    return [SitemapEntry(params={"feature": slug}) for slug in ("search", "tags")]


@docs.get("/features/<feature>", sitemap=feature_pages, authorize=everyone)
def feature(feature: str) -> str:
    return feature


app.register_blueprint(docs)

root = ET.fromstring(app.test_client().get("/sitemap.xml").data)
SM = "{http://www.sitemaps.org/schemas/sitemap/0.9}"
XHTML = "{http://www.w3.org/1999/xhtml}"
urls = {
    url.findtext(f"{SM}loc"): {
        link.get("hreflang"): link.get("href") for link in url.iter(f"{XHTML}link")
    }
    for url in root.iter(f"{SM}url")
}
# Two languages and two features: four <url> elements with three links each.
assert len(urls) == 4
assert urls["https://notes.example/de-at/features/tags"] == {
    "en": "https://notes.example/en/features/tags",
    "de-AT": "https://notes.example/de-at/features/tags",
    "x-default": "https://notes.example/features/tags",
}
