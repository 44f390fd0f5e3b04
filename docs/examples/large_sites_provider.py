"""A paged provider of your own: any store that lists its keys in order."""

from bisect import bisect_left
from collections.abc import Iterator
from datetime import date
from typing import Any

from flask import Flask
from lxml import etree

from flask_marmeon import Marmeon, PagedProvider, SitemapEntry, everyone


class Articles:
    """Articles in a key-value store (here a dict: slug -> last change),
    with the slugs kept sorted, as a search index or a KV store keeps them."""

    def __init__(self, updated: dict[str, date]) -> None:
        self.updated = updated
        self.slugs = sorted(updated)

    def boundaries(self, size: int) -> list[str]:
        # The key each part begins with: the first, then every size-th.
        return self.slugs[::size]

    def entries(self, start: str, stop: str | None, limit: int) -> Iterator[Any]:
        # The keys from start up to stop (not included), at most limit.
        at = bisect_left(self.slugs, start)
        end = len(self.slugs) if stop is None else bisect_left(self.slugs, stop)
        for slug in self.slugs[at : min(end, at + limit)]:
            yield SitemapEntry({"slug": slug}, last_modified=self.updated[slug])

    def split(self, start: str | None, stop: str | None, size: int) -> list[str]:
        # Where parts of size begin within one range (start None: from the
        # first key): when a range outgrows its part, it alone is split.
        at = 0 if start is None else bisect_left(self.slugs, start)
        end = len(self.slugs) if stop is None else bisect_left(self.slugs, stop)
        return self.slugs[at:end:size]


store = {slug: date(2025, 2, n) for n, slug in enumerate("abcde", start=1)}
assert isinstance(Articles(store), PagedProvider)
assert Articles(store).split("a", "e", 2) == ["a", "c"]

app = Flask(__name__)
app.config["APP_URL"] = "https://blog.example"
app.config["MARMEON_SITEMAP_MAX_URLS"] = 2
Marmeon(app)


@app.get("/articles/<slug>", authorize=everyone, sitemap=Articles(store))
def article(slug: str) -> str:
    return f"Article {slug}"


client = app.test_client()
ns = {"sm": "http://www.sitemaps.org/schemas/sitemap/0.9"}
index = etree.fromstring(client.get("/sitemap.xml").data)
assert len(index) == 3  # a-b, c-d, e
last = etree.fromstring(client.get("/sitemap-article-3.xml").data)
assert [u.findtext("sm:loc", namespaces=ns) for u in last] == [
    "https://blog.example/articles/e"
]
