"""Visits: htmx boosted links and Turbo Drive, across two languages and back."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from browser_tools import (
    LiveServer,
    browser_head,
    expected_head,
    server_head,
    visit_and_come_back,
    visit_from_about,
    wait_for_head,
    wait_for_module,
)
from marmeon_site import make_site

pytestmark = pytest.mark.browser


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


def test_apply_from_html_for_other_routers(page: Any, site: LiveServer) -> None:
    page.goto(site.url + "/en/about")
    wait_for_module(page)
    html, _ = site.fetch("/de/contact")
    expected = expected_head(site, "/de/contact")
    assert page.evaluate("(html) => marmeon.apply(html)", html) is True
    assert browser_head(page) == expected
    assert page.evaluate("() => document.documentElement.lang") == "de"
    # Elements and data in the body are not the page's head: an injected
    # element or list of left-out URLs changes nothing.
    fake = {
        "v": 2,
        "missing": [
            {
                "at": 0,
                "tag": "link",
                "attrs": {"rel": "canonical", "href": "/injected"},
                "url": "href",
                "group": 1,
            }
        ],
    }
    injected = html.replace(
        "</body>",
        '<title data-marmeon>Injected</title><script type="application/json"'
        f" data-marmeon-data>{json.dumps(fake)}</script></body>",
    )
    assert page.evaluate("(html) => marmeon.apply(html)", injected) is True
    assert browser_head(page) == expected
    # A page without a head of ours takes ours away (as a visit to it does);
    # the app's own elements stay.
    assert page.evaluate("() => marmeon.apply('<title>x</title>')") is False
    assert browser_head(page) == []
    assert (
        page.evaluate("""() => document.querySelectorAll('meta[name="app-own"]')
        .length""")
        == 1
    )


@pytest.mark.parametrize("router", ["htmx", "turbo"])
def test_visit_to_a_page_without_our_head(
    page: Any, serve: Callable[..., LiveServer], router: str
) -> None:
    site = serve(lambda origin: make_site(app_url=origin, router=router))
    visit_from_about(page, site, "#to-own", "/own")
    page.wait_for_function("() => document.title == 'A head of its own'")
    page.wait_for_timeout(150)
    # The old page's elements are gone; nothing stale comes back.
    assert browser_head(page) == []
    assert page.evaluate("() => window.sameDocument") is True
    page.go_back()
    page.wait_for_url(site.url + "/en/about")
    wait_for_head(page, server_head(site.fetch("/en/about")[0]))


def test_turbo_back_to_a_page_reached_through_a_redirect(
    page: Any, serve: Callable[..., LiveServer]
) -> None:
    # /about redirects to the visitor's language: Turbo renders /en/about
    # and then corrects the address; back to it comes from Turbo's cache.
    site = serve(lambda origin: make_site(app_url=origin, router="turbo"))
    page.goto(site.url + "/de/contact")
    wait_for_module(page)
    page.evaluate("() => { window.sameDocument = true; Turbo.visit('/about') }")
    page.wait_for_url(site.url + "/en/about")
    wait_for_head(page, expected_head(site, "/en/about"))
    page.click("#to-contact")
    page.wait_for_url(site.url + "/en/contact")
    wait_for_head(page, expected_head(site, "/en/contact"))
    page.go_back()
    page.wait_for_url(site.url + "/en/about")
    wait_for_head(page, expected_head(site, "/en/about"))
    assert page.evaluate(
        "() => [window.sameDocument, document.documentElement.lang]"
    ) == [True, "en"]
