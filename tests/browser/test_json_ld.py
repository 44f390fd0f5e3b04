"""JSON-LD blocks in the browser: text, never HTML; removed under Trusted Types."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from browser_tools import (
    LiveServer,
    browser_head,
    server_head,
    visit_and_come_back,
    visit_from_about,
    wait_for_head,
    wait_for_module,
)
from marmeon_site import HOSTILE_TEXT, make_site

pytestmark = pytest.mark.browser

BLOCKS = """() => [...document.querySelectorAll('script[type="application/ld+json"]')]
    .map((el) => JSON.parse(el.textContent))"""


@pytest.fixture(scope="module")
def plain(serve: Callable[..., LiveServer]) -> LiveServer:
    return serve(lambda origin: make_site(app_url=origin))


@pytest.fixture(scope="module", params=[True, False], ids=["dev", "production"])
def trusted_types(
    request: pytest.FixtureRequest, serve: Callable[..., LiveServer]
) -> LiveServer:
    debug = request.param
    return serve(
        lambda origin: make_site(app_url=origin, debug=debug, trusted_types=True)
    )


def test_block_is_set_as_text(page: Any, plain: LiveServer) -> None:
    page.goto(plain.url + "/en/about")
    wait_for_module(page)
    html, _ = plain.fetch("/de/contact")
    page.evaluate("(html) => marmeon.apply(html)", html)
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
    page.evaluate("(html) => marmeon.apply(html)", html)
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


def _warnings(page: Any) -> list[str]:
    return [m.text for m in page.console if m.type == "warning"]


@pytest.mark.parametrize(
    ("debug", "app_url"),
    [(True, True), (False, True), (True, False)],
    ids=["dev", "production", "dev-without-app-url"],
)
def test_turbo_visits_arrive_under_trusted_types(
    page: Any, serve: Callable[..., LiveServer], debug: bool, app_url: bool
) -> None:
    # Turbo moves the new page's block, parsed, into the head (the block says
    # data-turbo-eval="false", as the data does): no script text is set, by
    # Turbo or by the module. Without APP_URL the module adds the URLs.
    site = serve(
        lambda origin: make_site(
            app_url=origin if app_url else None,
            debug=debug,
            router="turbo",
            trusted_types=True,
        )
    )
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    visit_and_come_back(page, site)
    assert [b["name"] for b in page.evaluate(BLOCKS)] == ["Contact"]
    assert errors == []
    assert _warnings(page) == []
    assert not [m.text for m in page.console if "Trusted Type" in m.text]


@pytest.mark.parametrize("debug", [True, False], ids=["dev", "production"])
def test_htmx_visits_remove_the_block_under_trusted_types(
    page: Any, serve: Callable[..., LiveServer], debug: bool
) -> None:
    # htmx hands over the page's HTML: the module would have to set a block's
    # text, which Trusted Types refuse. The block goes, the rest follows.
    site = serve(
        lambda origin: make_site(
            app_url=origin, debug=debug, router="htmx", trusted_types=True
        )
    )
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    visit_and_come_back(page, site, scripts=False)
    assert page.evaluate(BLOCKS) == []
    assert errors == []
    warnings = _warnings(page)
    if debug:
        # One for each visit (seven) that brought a block.
        assert len(warnings) == 7
        assert all("JSON-LD" in w and "Trusted Types" in w for w in warnings)
    else:
        assert warnings == []


@pytest.mark.parametrize("router", ["htmx", "turbo"])
def test_hostile_text_stays_text_on_visits(
    page: Any, serve: Callable[..., LiveServer], router: str
) -> None:
    # Title, description, Open Graph and JSON-LD hold markup that would run
    # if any of it were parsed as HTML: a visit writes them all as text.
    site = serve(lambda origin: make_site(app_url=origin, router=router))
    visit_from_about(page, site, "#to-hostile-text", "/hostile-text")
    expected = server_head(site.fetch("/hostile-text")[0])
    wait_for_head(page, expected)
    assert expected[0] == ("title", (), HOSTILE_TEXT + " · Notes")
    assert page.evaluate("() => document.title") == HOSTILE_TEXT + " · Notes"
    assert [b["name"] for b in page.evaluate(BLOCKS)] == [HOSTILE_TEXT]
    assert page.evaluate(
        "() => [window.sameDocument, window.pwned, document.images.length]"
    ) == [True, None, 0]
