"""Entries the route would not answer are left out, with one warning a route."""

import logging

from flask import Flask

from flask_marmeon import Marmeon, SitemapEntry, everyone

logging.basicConfig(level=logging.WARNING)

app = Flask(__name__)
app.config["APP_URL"] = "https://notes.example"
Marmeon(app)


def tag_pages() -> list[SitemapEntry]:
    return [
        SitemapEntry(params={"tag": "python"}),
        SitemapEntry(params={"tag": "a/b"}),  # a slash <tag> does not take
        SitemapEntry(params={"tag": ".."}),  # a dot segment
        SitemapEntry(params={"tag": "new"}),  # /tags/new is another route's
        SitemapEntry(params={"tg": "typo"}),  # a missing parameter
    ]


@app.get("/tags/<tag>", sitemap=tag_pages, authorize=everyone)
def tag(tag: str) -> str:
    return f"Notes tagged {tag}"


@app.get("/tags/new")
def new_tag() -> str:
    return "A form"


sitemap = app.test_client().get("/sitemap.xml").text
assert "<loc>https://notes.example/tags/python</loc>" in sitemap
assert sitemap.count("<loc>") == 1
# The log says, once for the route:
# Sitemap: the route '/tags/<tag>' (endpoint 'tag'): 4 entries left out, ...
