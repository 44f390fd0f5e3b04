"""JSON-LD blocks in the browser: text, never HTML; removed under Trusted Types."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import html5lib
import pytest
from browser_tools import LiveServer, browser_head, server_head, wait_for_module
from marmeon_site import HOSTILE_TEXT, make_site

pytestmark = pytest.mark.browser

TRUSTED_TYPES = "script-src 'nonce-{nonce}'; require-trusted-types-for 'script'"
BLOCKS = """() => [...document.querySelectorAll('script[type="application/ld+json"]')]
    .map((el) => JSON.parse(el.textContent))"""


def page_data(html: str) -> Any:
    """The browser data that a document carries."""
    document = html5lib.parse(html, namespaceHTMLElements=False)
    script = document.find(".//script[@id='marmeon-head']")
    assert script is not None
    return json.loads(script.text)


@pytest.fixture(scope="module")
def plain(serve: Callable[..., LiveServer]) -> LiveServer:
    return serve(lambda origin: make_site(app_url=origin))


@pytest.fixture(scope="module", params=[True, False], ids=["dev", "production"])
def trusted_types(
    request: pytest.FixtureRequest, serve: Callable[..., LiveServer]
) -> LiveServer:
    debug = request.param
    return serve(
        lambda origin: make_site(app_url=origin, debug=debug, csp=TRUSTED_TYPES)
    )


def test_block_is_set_as_text(page: Any, plain: LiveServer) -> None:
    page.goto(plain.url + "/en/about")
    wait_for_module(page)
    html, _ = plain.fetch("/de/contact")
    page.evaluate("(data) => marmeon.apply(data)", page_data(html))
    blocks = page.evaluate(BLOCKS)
    # The text came through exactly: no entity decoded, no tag ended, nothing ran.
    assert [block["text"] for block in blocks] == [HOSTILE_TEXT]
    assert blocks[0]["name"] == "Kontakt"
    assert page.evaluate("() => [window.pwned, document.images.length]") == [None, 0]
    assert browser_head(page) == server_head(html)


def test_trusted_types_remove_the_block(page: Any, trusted_types: LiveServer) -> None:
    page.goto(trusted_types.url + "/en/about")
    wait_for_module(page)
    # Hydration writes no text: the first document's block stays.
    assert [b["name"] for b in page.evaluate(BLOCKS)] == ["About us"]
    html, _ = trusted_types.fetch("/de/contact")
    page.evaluate("(data) => marmeon.apply(data)", page_data(html))
    # The browser refuses to set a script's text: the block goes, the rest
    # of the head is the new page's.
    assert page.evaluate(BLOCKS) == []
    assert browser_head(page) == [el for el in server_head(html) if el[0] != "script"]
    warnings = [m.text for m in page.console if m.type == "warning"]
    if trusted_types.app.debug:
        assert len(warnings) == 1
        assert "JSON-LD" in warnings[0] and "Trusted Types" in warnings[0]
    else:
        assert warnings == []
    # The document as the server sent it still has its block.
    first, _ = trusted_types.fetch("/en/about")
    assert [el for el in server_head(first) if el[0] == "script"]
    assert '"@type":"WebPage","name":"About us"' in first
