"""The development preview shows the generated images in its cards."""

from __future__ import annotations

import base64
from collections.abc import Callable

from flask import Flask, render_template_string
from lxml import html

from flask_marmeon import everyone, head

from .conftest import png


def test_the_cards_show_the_generated_image(og_app: Callable[..., Flask]) -> None:
    app = og_app()
    app.debug = True

    @app.get("/notes/1", sitemap=True, authorize=everyone)
    def note() -> str:
        head(
            title="Sourdough in three days",
            description="Flour, water and patience.",
            open_graph={"site_name": "Notes", "type": "article"},
            twitter={"card": "summary_large_image"},
        )
        return render_template_string("<head>{{ render_head() }}</head><h1>x</h1>")

    response = app.test_client().get("/_marmeon/preview?path=/notes/1")
    assert response.status_code == 200
    page = html.document_fromstring(response.data)
    cards = page.xpath("//div[@data-platform]")
    assert len(cards) == 6
    sources = {card.find(".//img").get("src") for card in cards}
    [source] = sources  # the same picture in every card
    prefix = "data:image/png;base64,"
    assert source.startswith(prefix)
    assert png(base64.b64decode(source[len(prefix) :])).size == (1200, 630)
    # The large cards are used: the picture is wide enough.
    used = [c.get("data-size") for c in cards if c.get("data-used") == "yes"]
    assert used == ["large", "large", "large"]
