"""Helpers for the browser tests: the live server and the head as each side sees it."""

from __future__ import annotations

import json
import threading
import urllib.request
from collections import Counter
from collections.abc import Callable
from typing import Any

import html5lib
from flask import Flask
from werkzeug.exceptions import NotFound
from werkzeug.middleware.dispatcher import DispatcherMiddleware
from werkzeug.serving import make_server

#: One managed head element as both sides report it: tag, attributes
#: (without data-marmeon and nonce, in document order), text.
Element = tuple[str, tuple[tuple[str, str], ...], str]

#: The pages a visit goes through: two languages, two pages.
PATHS = ["/en/about", "/en/contact", "/de/contact"]

#: Lists the managed head elements in the page, as server_head() does.
BROWSER_HEAD = """() => [...document.head.querySelectorAll("[data-marmeon]")]
.map((el) => [
  el.localName,
  [...el.attributes].filter((a) => a.name != "data-marmeon" && a.name != "nonce")
    .map((a) => [a.name, a.value]),
  el.localName == "title" || el.localName == "script" ? el.textContent : "",
])"""


class LiveServer:
    """A werkzeug server on 127.0.0.1, on a port of its own, in a thread.

    The app is built once the port is known, so that it may take its own
    origin as APP_URL. ``hits`` counts the requests by path. With ``mount``
    the app is served below that path (werkzeug's DispatcherMiddleware, as a
    deployment under a prefix does) and the root answers 404.
    """

    def __init__(self, factory: Callable[[str], Flask], mount: str = "") -> None:
        self.hits: Counter[str] = Counter()
        self.server = make_server("127.0.0.1", 0, self.wsgi, threaded=True)
        self.url = f"http://127.0.0.1:{self.server.server_port}"
        self.app = factory(self.url)
        self.served: Any = self.app
        if mount:
            self.served = DispatcherMiddleware(NotFound(), {mount: self.app})
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def wsgi(self, environ: dict[str, Any], start_response: Any) -> Any:
        self.hits[environ["PATH_INFO"]] += 1
        return self.served(environ, start_response)

    def fetch(self, path: str) -> tuple[str, dict[str, str]]:
        """The document exactly as the server sends it, and its headers."""
        with urllib.request.urlopen(self.url + path) as response:
            return response.read().decode(), dict(response.headers)

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.thread.join()


def server_head(html: str) -> list[Element]:
    """The managed head elements of a document as the server wrote it."""
    document = html5lib.parse(html, namespaceHTMLElements=False)
    found: list[Element] = []
    for el in document.find("head"):
        if "data-marmeon" not in el.attrib:
            continue
        attrs = tuple(
            (name, value)
            for name, value in el.attrib.items()
            if name not in ("data-marmeon", "nonce")
        )
        text = el.text or "" if el.tag in ("title", "script") else ""
        found.append((el.tag, attrs, text))
    return found


def browser_head(page: Any) -> list[Element]:
    """The managed head elements in the page now."""
    return [
        (tag, tuple((name, value) for name, value in attrs), text)
        for tag, attrs, text in page.evaluate(BROWSER_HEAD)
    ]


def wait_for_module(page: Any) -> None:
    """Wait until the module has run (it sets window.marmeon last)."""
    page.wait_for_function("() => window.marmeon")


def visit_from_about(page: Any, site: LiveServer, link: str, path: str) -> None:
    """From /en/about, once the module runs, a visit through the link
    ``link`` to ``path`` (``window.sameDocument`` tells whether the page
    was reloaded)."""
    page.goto(site.url + "/en/about")
    wait_for_module(page)
    page.evaluate("() => { window.sameDocument = true }")
    page.click(link)
    page.wait_for_url(site.url + path)


def expected_head(site: LiveServer, path: str) -> list[Any]:
    """The server's head for ``path``; without APP_URL, what a server whose
    APP_URL is the page's own origin writes, as the browser resolves it so."""
    if site.app.config.get("APP_URL"):
        return server_head(site.fetch(path)[0])
    from marmeon_site import make_site

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


def visit_and_come_back(page: Any, site: LiveServer, scripts: bool = True) -> None:
    """Two pages, two languages, back and forward: the head follows.

    ``scripts=False``: the JSON-LD blocks go after the first page (Trusted
    Types refuse to write them).
    """
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
        # A page seen before: Turbo shows its cached copy, then the fresh one.
        ("click", "#lang-en", "/en/contact"),
    ]
    for action, selector, path in steps:
        if action == "click":
            page.click(selector)
        elif action == "back":
            page.go_back()
        else:
            page.go_forward()
        page.wait_for_url(site.url + path)
        wait_for_head(
            page, [el for el in expected[path] if scripts or el[0] != "script"]
        )
        state = page.evaluate("""() => ({
            same: window.sameDocument,
            own: [...document.querySelectorAll('meta[name="app-own"]')]
                .map((el) => el.mine),
            data: document.querySelectorAll("[data-marmeon-data]").length,
            lang: document.documentElement.lang,
            pwned: window.pwned,
            images: document.querySelectorAll("img").length,
        })""")
        # A client-side visit, not a page load; the app's own element is the
        # same node; no page's data left behind; <html lang> is the page's;
        # the JSON-LD stayed text.
        assert state == {
            "same": True,
            "own": [True],
            "data": 0,
            "lang": path[1:3],
            "pwned": None,
            "images": 0,
        }
