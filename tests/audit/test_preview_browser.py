"""In Chromium: the preview draws the example's pages, cards cropped as they are.

The screenshots are saved under ``test-artifacts/`` (git ignores it) for a
person to look at.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from werkzeug.serving import make_server

from example_app import create_app

pytestmark = pytest.mark.browser

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"

CARDS = """() => [...document.querySelectorAll('.card')].map((card) => {
  const img = card.querySelector('img');
  const box = img.getBoundingClientRect();
  return {platform: card.dataset.platform, size: card.dataset.size,
          used: card.dataset.used, ratio: box.width / box.height,
          fit: getComputedStyle(img).objectFit, loaded: img.naturalWidth,
          title: card.querySelector('.ctitle').textContent};
})"""


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The example app in development on a real server; APP_URL is its address."""
    holder: dict[str, Flask] = {}
    server = make_server(
        "127.0.0.1", 0, lambda env, start: holder["app"](env, start), threaded=True
    )
    origin = f"http://127.0.0.1:{server.port}"
    app = create_app(
        {"APP_URL": origin}, instance_path=tmp_path_factory.mktemp("instance")
    )
    app.debug = True
    holder["app"] = app
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield origin
    server.shutdown()
    thread.join()


@pytest.fixture
def page(live: str, browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.set_default_timeout(15_000)
    yield page
    context.close()


def test_a_note_is_drawn_as_a_search_result_and_six_cards(live: str, page: Any) -> None:
    page.goto(f"{live}/_marmeon/preview?path=/notes/1")
    title = page.text_content(".serp .title")
    assert title == "A beginner's guide to sourdough · Marmeon Notes"
    assert (
        page.text_content(".serp .crumb")
        == "127.0.0.1:" + live.rsplit(":", 1)[1] + " › notes › 1"
    )
    cards = page.evaluate(CARDS)
    assert [(c["platform"], c["size"]) for c in cards] == [
        (platform, size)
        for platform in ("Facebook / LinkedIn", "X", "Slack")
        for size in ("large", "small")
    ]
    for card in cards:
        assert card["loaded"] == 1200, card  # the real cover, 1200x630
        assert card["fit"] == "cover"
        wanted = 1.91 if card["size"] == "large" else 1.0
        assert card["ratio"] == pytest.approx(wanted, abs=0.02), card
        assert card["title"] == "A beginner's guide to sourdough"
    # A note asks for the large X card; Facebook takes a 1200-wide image large.
    used = {(c["platform"], c["size"]) for c in cards if c["used"] == "yes"}
    assert used == {
        ("Facebook / LinkedIn", "large"),
        ("X", "large"),
        ("Slack", "large"),
    }
    # The findings are beside the views, not under them.
    views = page.locator(".views").bounding_box()
    aside = page.locator("aside.findings").bounding_box()
    assert aside["x"] >= views["x"] + views["width"]
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "preview-notes-1.png"), full_page=True)


def test_a_page_with_mistakes_shows_its_findings(live: str, page: Any) -> None:
    # The search page has no canonical and a short description; it is
    # noindex too, which is right for a page the sitemap does not list.
    page.goto(f"{live}/_marmeon/preview?path=/search?q=bread")
    codes = page.eval_on_selector_all(
        "aside .finding", "(items) => items.map((i) => i.dataset.code)"
    )
    assert "canonical-missing" in codes and "description-too-short" in codes
    assert "page-noindex" not in codes
    assert "not listed in the sitemap" in page.text_content(".status")
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "preview-search.png"), full_page=True)


def test_the_index_links_every_listed_page(live: str, page: Any) -> None:
    page.goto(f"{live}/_marmeon/preview")
    links = page.locator("ul.listed a")
    assert links.count() == 54
    page.get_by_text(f"{live}/de/about", exact=True).click()
    page.wait_for_url("**/_marmeon/preview?path=/de/about")
    assert page.text_content(".serp .title") == "Über uns · Marmeon Notes"
