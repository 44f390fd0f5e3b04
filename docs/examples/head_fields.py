"""Every field of head(), and the tags it writes."""

import datetime

from flask import Flask

from flask_marmeon import Marmeon, head, render_head

app = Flask(__name__)
app.config["APP_URL"] = "https://notes.example"
Marmeon(app)


@app.get("/notes/<int:note_id>")
def show(note_id: int) -> str:
    head(
        title="Sourdough",
        title_template="%s · Notes",
        description="Flour, water and patience.",
        canonical=f"/notes/{note_id}",
        robots={"index": False, "follow": True},
        open_graph={
            "type": "article",
            "site_name": "Notes",
            "image": {
                "url": f"/covers/{note_id}.png",
                "width": 1200,
                "height": 630,
                "alt": "A loaf on a board",
            },
            "article": {
                "published_time": datetime.date(2024, 5, 1),
                "authors": ["https://notes.example/people/ada"],
                "tags": ["baking", "bread"],
            },
        },
        twitter={"card": "summary_large_image", "site": "@notes"},
        json_ld={"@context": "https://schema.org", "@type": "Article"},
    )
    return f"<!doctype html><html><head>{render_head()}</head></html>"


html = app.test_client().get("/notes/1").text
assert "<title data-marmeon>Sourdough · Notes</title>" in html
assert '<meta name="description" content="Flour, water and patience."' in html
assert '<link rel="canonical" href="https://notes.example/notes/1"' in html
assert '<meta name="robots" content="noindex, follow"' in html
# og:* as property=, with title and description from the page's own.
assert '<meta property="og:title" content="Sourdough"' in html
assert '<meta property="og:description" content="Flour, water and patience."' in html
assert '<meta property="og:image" content="https://notes.example/covers/1.png"' in html
assert '<meta property="og:image:width" content="1200"' in html
assert '<meta property="og:image:alt" content="A loaf on a board"' in html
# article:* for an article: dates in ISO 8601, one tag per author and tag.
assert '<meta property="article:published_time" content="2024-05-01"' in html
assert html.count('property="article:tag"') == 2
# twitter:* as name=; its title is the page's, never open_graph's.
assert '<meta name="twitter:card" content="summary_large_image"' in html
assert '<meta name="twitter:title" content="Sourdough"' in html
# JSON-LD is a managed element too; Turbo moves it rather than re-running it.
assert '<script type="application/ld+json" data-marmeon' in html
assert 'data-turbo-eval="false">{"@context"' in html
# No og:url unless you set one: canonical is a separate field.
assert "og:url" not in html
