"""The hostile-URL corpus: the browser decides every input as the server does."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from browser_tools import LiveServer, wait_for_module
from marmeon_site import make_site

from flask_marmeon.head.url_policy import decide

pytestmark = pytest.mark.browser

TESTS = Path(__file__).parent.parent
#: The head's hostile-URL corpus, and the sample of how Chromium resolves
#: such values: the same files the server's policy is tested on.
CORPORA = [
    TESTS / "head" / "data" / "url-corpus.json",
    TESTS / "head" / "data" / "url-resolution-sample.json",
]


@pytest.fixture(scope="module")
def site(serve: Callable[..., LiveServer]) -> LiveServer:
    return serve(lambda origin: make_site())


@pytest.mark.parametrize("corpus", CORPORA, ids=lambda path: path.name)
def test_browser_decides_like_the_server(
    page: Any, site: LiveServer, corpus: Path
) -> None:
    data = json.loads(corpus.read_text(encoding="utf-8"))
    app_url = data["app_url"]
    inputs = [case["input"] for case in data["cases"]]
    assert len(inputs) > 40
    page.goto(site.url + "/en/about")
    wait_for_module(page)
    browser = page.evaluate(
        "([inputs, base]) => inputs.map((value) => marmeon.resolveUrl(value, base))",
        [inputs, app_url],
    )
    differ = [
        (case["input"], case["expected"], server, in_browser)
        for case, in_browser in zip(data["cases"], browser, strict=True)
        if not (
            case["expected"] == (server := decide(case["input"], app_url)) == in_browser
        )
    ]
    assert differ == []
