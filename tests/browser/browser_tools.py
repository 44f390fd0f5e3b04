"""Helpers for the browser tests: the live server and the head as each side sees it."""

from __future__ import annotations

import threading
import urllib.request
from collections import Counter
from collections.abc import Callable
from typing import Any

import html5lib
from flask import Flask
from werkzeug.serving import make_server

#: One managed head element as both sides report it: tag, attributes
#: (without data-marmeon and nonce, in document order), text.
Element = tuple[str, tuple[tuple[str, str], ...], str]

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
    origin as APP_URL. ``hits`` counts the requests by path.
    """

    def __init__(self, factory: Callable[[str], Flask]) -> None:
        self.hits: Counter[str] = Counter()
        self.server = make_server("127.0.0.1", 0, self.wsgi, threaded=True)
        self.url = f"http://127.0.0.1:{self.server.server_port}"
        self.app = factory(self.url)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def wsgi(self, environ: dict[str, Any], start_response: Any) -> Any:
        self.hits[environ["PATH_INFO"]] += 1
        return self.app(environ, start_response)

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
