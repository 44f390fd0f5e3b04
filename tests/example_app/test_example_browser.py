"""In Chromium: htmx boosted visits through the example app keep the head current.

After each visit without a page load, the head in the browser holds the same
managed elements as the server writes for that address on a first load.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from typing import Any

import html5lib
import pytest
from flask import Flask
from werkzeug.serving import make_server

from example_app import HERE, create_app

pytestmark = pytest.mark.browser

CHROMIUM = "/usr/bin/chromium"
HTMX = HERE / "static/vendor/htmx.min.js"

# The managed elements (data-marmeon) as (tag, attributes, text).
HEAD_IN_BROWSER = """() => [...document.head.querySelectorAll('[data-marmeon]')].map(
  (e) => [e.localName,
          Object.fromEntries([...e.attributes].map((a) => [a.name, a.value])),
          ['title', 'script'].includes(e.localName) ? e.textContent : null])"""

Element = tuple[str, tuple[tuple[str, str], ...], "str | None"]


def normalize(tag: str, attrs: dict[str, str], text: str | None) -> Element:
    kept = {k: v for k, v in attrs.items() if k not in ("data-marmeon", "nonce")}
    return (tag, tuple(sorted(kept.items())), text)


def head_from_server(app: Flask, path: str) -> list[Element]:
    response = app.test_client().get(path)
    assert response.status_code == 200, path
    root = html5lib.parse(
        response.get_data(as_text=True),
        treebuilder="etree",
        namespaceHTMLElements=False,
    )
    head = root.find("head")
    assert head is not None
    return [
        normalize(
            e.tag,
            dict(e.attrib),
            (e.text or "") if e.tag in ("title", "script") else None,
        )
        for e in head
        if isinstance(e.tag, str) and "data-marmeon" in e.attrib
    ]


def head_in_browser(page: Any) -> list[Element]:
    return [normalize(*item) for item in page.evaluate(HEAD_IN_BROWSER)]


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Flask, str]]:
    """The example app on a real server, APP_URL being its own address."""
    if not os.path.exists(CHROMIUM):
        pytest.skip(f"{CHROMIUM} is not installed: run `make browser-deps`.")
    if not HTMX.is_file():
        pytest.fail(f"{HTMX} is missing: run `make run` or `make test` once.")
    holder: dict[str, Flask] = {}
    server = make_server(
        "127.0.0.1", 0, lambda env, start: holder["app"](env, start), threaded=True
    )
    origin = f"http://127.0.0.1:{server.port}"
    holder["app"] = create_app(
        {"APP_URL": origin}, instance_path=tmp_path_factory.mktemp("instance")
    )
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield holder["app"], origin
    server.shutdown()
    thread.join()


@pytest.fixture
def page(live: tuple[Flask, str], browser: Any) -> Iterator[Any]:
    context = browser.new_context()
    page = context.new_page()
    page.set_default_timeout(15_000)
    yield page
    context.close()


def test_boosted_visits_keep_the_head_equal_to_the_servers(
    live: tuple[Flask, str], page: Any
) -> None:
    app, origin = live
    loads: list[str] = []
    problems: list[str] = []
    page.on("load", lambda: loads.append(page.url))
    page.on("pageerror", lambda error: problems.append(str(error)))
    page.on(
        "console",
        lambda m: problems.append(m.text) if m.type in ("error", "warning") else None,
    )

    page.goto(f"{origin}/")
    assert page.evaluate("typeof window.htmx") == "object"
    assert head_in_browser(page) == head_from_server(app, "/")

    steps = [
        ("main a[href='/notes/3']", "/notes/3"),  # a note: article, image, JSON-LD
        ("header nav a[href='/en/about']", "/en/about"),  # hreflang, og:locale
        ("nav.languages a[hreflang='de']", "/de/about"),  # another language
        ("header nav a[href='/de/features']", "/de/features"),
        ("header nav a[href='/search']", "/search"),  # noindex, no hreflang
    ]
    for selector, path in steps:
        page.click(selector)
        page.wait_for_url(f"{origin}{path}")
        expected = head_from_server(app, path)
        page.wait_for_function(
            "(title) => document.title === title",
            arg=next(text for tag, _, text in expected if tag == "title"),
        )
        assert head_in_browser(page) == expected, path

    page.go_back()
    page.wait_for_url(f"{origin}/de/features")
    page.wait_for_function("() => document.title.startsWith('Funktionen')")
    assert head_in_browser(page) == head_from_server(app, "/de/features")
    # Every visit after the first was made by htmx, without a page load.
    assert loads == [f"{origin}/"]
    assert problems == []
