"""Chromium through Playwright, and a real server on 127.0.0.1 per test module."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from browser_tools import LiveServer
from flask import Flask
from marmeon_site import NODE_MODULES


@pytest.fixture(scope="session")
def browser(browser: Any) -> Any:
    """The session's Chromium (tests/conftest.py), once htmx and Turbo are there."""
    if not (NODE_MODULES / "htmx.org").is_dir():
        pytest.fail(
            "tests/browser/node_modules is missing: run `make browser-deps`"
            " (npm ci in tests/browser)."
        )
    return browser


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    """A page in a new context (empty cache, empty storage), console kept."""
    context = browser.new_context()
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.console = []  # type: ignore[attr-defined]
    page.on("console", lambda message: page.console.append(message))
    yield page
    context.close()


@pytest.fixture(scope="module")
def serve() -> Iterator[Callable[[Callable[[str], Flask]], LiveServer]]:
    """Start servers for this test module: ``serve(lambda origin: app)``, or
    ``serve(factory, mount="/blog")`` below a path."""
    servers: list[LiveServer] = []

    def start(factory: Callable[[str], Flask], mount: str = "") -> LiveServer:
        server = LiveServer(factory, mount)
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.close()
