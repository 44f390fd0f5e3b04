"""Visits: htmx boosted links and Turbo Drive, across two languages and back."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from browser_tools import (
    BROWSER_HEAD,
    LiveServer,
    browser_head,
    server_head,
    wait_for_module,
)
from marmeon_site import make_site

pytestmark = pytest.mark.browser

PATHS = ["/en/about", "/en/contact", "/de/contact"]


@pytest.fixture(
    scope="module",
    params=[
        ("htmx", True),
        ("htmx-nocache", True),
        ("turbo", True),
        ("htmx", False),
        ("turbo", False),
    ],
    ids=lambda p: p[0] + ("" if p[1] else "-without-app-url"),
)
def site(
    request: pytest.FixtureRequest, serve: Callable[..., LiveServer]
) -> LiveServer:
    router, app_url = request.param
    return serve(
        lambda origin: make_site(app_url=origin if app_url else None, router=router)
    )


def expected_head(site: LiveServer, path: str) -> list[Any]:
    """The server's head for ``path``; without APP_URL, what a server whose
    APP_URL is the page's own origin writes, as the browser resolves it so."""
    if site.app.config.get("APP_URL"):
        return server_head(site.fetch(path)[0])
    with make_site(app_url=site.url).test_client() as client:
        return server_head(client.get(path).get_data(as_text=True))


def wait_for_head(page: Any, expected: list[Any]) -> None:
    """Wait until the managed head is ``expected``, then check it stays so."""
    want = json.dumps(expected, ensure_ascii=False, separators=(",", ":"))
    try:
        page.wait_for_function(
            f"(want) => JSON.stringify(({BROWSER_HEAD})()) == want",
            arg=want,
            timeout=10_000,
        )
    except Exception:  # noqa: S110 - the assertion below shows the difference
        pass
    assert browser_head(page) == expected
    page.wait_for_timeout(150)
    assert browser_head(page) == expected


def test_head_follows_visits_across_languages_and_back(
    page: Any, site: LiveServer
) -> None:
    visit_and_come_back(page, site)


def test_htmx_history_without_items_of_ours(
    page: Any, serve: Callable[..., LiveServer]
) -> None:
    # An htmx that does not announce its history items (older 2.x): back and
    # forward read the page's head from the server instead.
    site = serve(lambda origin: make_site(app_url=origin, router="htmx"))
    page.add_init_script("""addEventListener("htmx:historyItemCreated",
        (event) => event.stopPropagation(), true)""")
    visit_and_come_back(page, site)


def visit_and_come_back(page: Any, site: LiveServer) -> None:
    """Two pages, two languages, back and forward: the head follows."""
    expected = {path: expected_head(site, path) for path in PATHS}
    # The pages differ in every field the visits must carry over.
    assert len({json.dumps(head) for head in expected.values()}) == len(PATHS)
    page.goto(site.url + "/en/about")
    wait_for_module(page)
    page.evaluate("""() => {
        window.sameDocument = true
        document.querySelector('meta[name="app-own"]').mine = true
    }""")

    steps = [
        ("click", "#to-contact", "/en/contact"),
        ("click", "#lang-de", "/de/contact"),
        ("back", None, "/en/contact"),
        ("back", None, "/en/about"),
        ("forward", None, "/en/contact"),
        ("forward", None, "/de/contact"),
    ]
    for action, selector, path in steps:
        if action == "click":
            page.click(selector)
        elif action == "back":
            page.go_back()
        else:
            page.go_forward()
        page.wait_for_url(site.url + path)
        wait_for_head(page, expected[path])
        state = page.evaluate("""() => ({
            same: window.sameDocument,
            own: [...document.querySelectorAll('meta[name="app-own"]')]
                .map((el) => el.mine),
            data: document.querySelectorAll("[data-marmeon-data]").length,
            pwned: window.pwned,
            images: document.querySelectorAll("img").length,
        })""")
        # A client-side visit, not a page load; the app's own element is the
        # same node; one data script; the JSON-LD stayed text.
        assert state == {
            "same": True,
            "own": [True],
            "data": 1,
            "pwned": None,
            "images": 0,
        }


def test_apply_from_html_for_other_routers(page: Any, site: LiveServer) -> None:
    page.goto(site.url + "/en/about")
    wait_for_module(page)
    html, _ = site.fetch("/de/contact")
    expected = expected_head(site, "/de/contact")
    assert page.evaluate("(html) => marmeon.apply(html)", html) is True
    assert browser_head(page) == expected
    # Data in the body is not the page's head: an injected copy changes nothing.
    fake = {
        "v": 1,
        "dev": False,
        "appUrl": None,
        "head": [{"tag": "title", "attrs": {}, "text": "Injected"}],
    }
    injected = html.replace(
        "</body>",
        '<script type="application/json" data-marmeon-data>'
        f"{json.dumps(fake)}</script></body>",
    )
    page.evaluate("(html) => marmeon.apply(html)", injected)
    assert browser_head(page) == expected
    # A page without our data changes nothing.
    assert page.evaluate("() => marmeon.apply('<title>x</title>')") is False
    assert browser_head(page) == expected


@pytest.mark.parametrize("router", ["htmx", "turbo"])
def test_visit_to_a_page_without_our_head(
    page: Any, serve: Callable[..., LiveServer], router: str
) -> None:
    site = serve(lambda origin: make_site(app_url=origin, router=router))
    page.goto(site.url + "/en/about")
    wait_for_module(page)
    page.evaluate("() => { window.sameDocument = true }")
    page.click("#to-own")
    page.wait_for_url(site.url + "/own")
    page.wait_for_function("() => document.title == 'A head of its own'")
    page.wait_for_timeout(150)
    # The old page's elements are gone; nothing stale comes back.
    assert browser_head(page) == []
    assert page.evaluate("() => window.sameDocument") is True
    page.go_back()
    page.wait_for_url(site.url + "/en/about")
    wait_for_head(page, server_head(site.fetch("/en/about")[0]))
