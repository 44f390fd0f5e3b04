"""Mark routes for /sitemap.xml: a page, a class view's sitemap(), a function."""

from collections.abc import Iterator
from datetime import date, datetime, timezone

from flask import Blueprint, Flask
from flask.views import MethodView
from lxml import etree

from flask_marmeon import Marmeon, SitemapEntry, authorize, everyone

app = Flask(__name__)
app.config["APP_URL"] = "https://notes.example"
Marmeon(app)


class Catalog:
    """Stands for a service the view gets in its constructor."""

    def all(self) -> list[tuple[str, date]]:
        return [("search", date(2025, 1, 5)), ("tags & labels", date(2025, 2, 1))]


# A whole blueprint says authorize(everyone): every route of it is public.
about = authorize(everyone)(Blueprint("about", __name__))


@about.get("/about", sitemap=True)
def index() -> str:
    return "About"


class ShowFeature(MethodView):
    def __init__(self, catalog: Catalog) -> None:
        self.catalog = catalog

    def get(self, feature: str) -> str:
        return f"Feature {feature}"

    def sitemap(self) -> Iterator[SitemapEntry]:
        # Built with the view's own arguments, in an app context of its own.
        for slug, updated in self.catalog.all():
            yield SitemapEntry(params={"feature": slug}, last_modified=updated)


about.add_url_rule(
    "/about/features/<feature>",
    view_func=ShowFeature.as_view("features_show", Catalog()),
    sitemap=True,
)
app.register_blueprint(about)


async def note_pages() -> list[dict[str, object]]:
    # A function view names its entries with a callable: a list, a
    # generator, an async generator or a coroutine; dicts work as well.
    updated = datetime(2025, 3, 1, 23, 30, tzinfo=timezone.utc)
    return [{"params": {"note_id": 1}, "last_modified": updated}]


@app.get("/notes/<int:note_id>", sitemap=note_pages, authorize=everyone)
def show(note_id: int) -> str:
    return f"Note {note_id}"


client = app.test_client()
root = etree.fromstring(client.get("/sitemap.xml").data)
ns = {"sm": "http://www.sitemaps.org/schemas/sitemap/0.9"}
urls = {
    url.findtext("sm:loc", namespaces=ns): url.findtext("sm:lastmod", namespaces=ns)
    for url in root.findall("sm:url", ns)
}
assert urls == {
    "https://notes.example/about": None,
    "https://notes.example/about/features/search": "2025-01-05",
    # Every value is percent-encoded, and the file escapes "&" itself.
    "https://notes.example/about/features/tags%20&%20labels": "2025-02-01",
    "https://notes.example/notes/1": "2025-03-01",
}
# Every address answers.
for loc in urls:
    assert client.get(loc.removeprefix("https://notes.example")).status_code == 200
