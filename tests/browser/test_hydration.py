"""Hydration: after the module runs, the head is the server's, element for element.

With APP_URL the module touches nothing; without it, it adds the elements the
server left out for a relative URL, resolved against the page's origin.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

import html5lib
import pytest
from browser_tools import LiveServer, browser_head, server_head, wait_for_module
from marmeon_site import make_site

pytestmark = pytest.mark.browser

CSP = "script-src 'nonce-{nonce}'; object-src 'none'; base-uri 'none'"


@pytest.fixture(scope="module")
def with_app_url(serve: Callable[..., LiveServer]) -> LiveServer:
    return serve(lambda origin: make_site(app_url=origin))


@pytest.fixture(scope="module")
def elsewhere(serve: Callable[..., LiveServer]) -> LiveServer:
    """APP_URL names another origin than the one the browser sees."""
    return serve(lambda origin: make_site(app_url="https://notes.example"))


@pytest.fixture(scope="module")
def without_app_url(serve: Callable[..., LiveServer]) -> LiveServer:
    return serve(lambda origin: make_site())


@pytest.fixture(scope="module")
def dev(serve: Callable[..., LiveServer]) -> LiveServer:
    return serve(lambda origin: make_site(debug=True))


@pytest.fixture(scope="module")
def under_csp(serve: Callable[..., LiveServer]) -> LiveServer:
    return serve(lambda origin: make_site(csp=CSP))


def _with(elements: list[Any], field: str, *names: str) -> list[Any]:
    return [el for el in elements if dict(el[1]).get(field) in names]


#: Records every change to the head once the document is parsed, before the
#: module (deferred, as every module script) runs.
WATCH_HEAD = """
    document.addEventListener("readystatechange", () => {
        if (document.readyState != "interactive") return
        window.headChanges = []
        new MutationObserver((records) => {
            for (const r of records) window.headChanges.push(r.type + " " +
                (r.target.localName || "#text") + " " + (r.attributeName || ""))
        }).observe(document.head, {subtree: true, childList: true,
            attributes: true, characterData: true})
    })
"""


def test_with_app_url_the_head_is_left_as_the_server_wrote_it(
    page: Any, with_app_url: LiveServer, without_app_url: LiveServer
) -> None:
    html, _ = with_app_url.fetch("/de/contact")
    expected = server_head(html)
    assert len(expected) > 20
    # The document carries nothing but its head: no copy, no data.
    assert "data-marmeon-data" not in html
    page.add_init_script(WATCH_HEAD)
    page.goto(with_app_url.url + "/de/contact")
    wait_for_module(page)
    assert browser_head(page) == expected
    assert page.evaluate("() => window.headChanges") == []
    # Written from the document alone, the head is the same.
    page.evaluate(
        """(html) => {
        for (const el of document.querySelectorAll("[data-marmeon]")) el.remove()
        marmeon.apply(html)
    }""",
        html,
    )
    assert browser_head(page) == expected
    # The watch sees what a module changes: without APP_URL it adds elements.
    page.goto(without_app_url.url + "/de/contact")
    wait_for_module(page)
    assert "childList head " in page.evaluate("() => window.headChanges")


def test_urls_resolve_against_app_url_not_the_pages_origin(
    page: Any, elsewhere: LiveServer, without_app_url: LiveServer
) -> None:
    html, _ = elsewhere.fetch("/en/about")
    expected = server_head(html)
    assert (
        "link",
        (("rel", "canonical"), ("href", "https://notes.example/en/about")),
        "",
    ) in expected
    page.goto(elsewhere.url + "/en/about")
    wait_for_module(page)
    assert browser_head(page) == expected
    # A page that carries relative URLs (written without APP_URL) resolves
    # them against the first document's APP_URL, not against 127.0.0.1.
    relative, _ = without_app_url.fetch("/en/about")
    assert "data-marmeon-data" in relative
    page.evaluate("(html) => marmeon.apply(html)", relative)
    assert browser_head(page) == expected


def test_hydration_keeps_the_servers_elements(
    page: Any, without_app_url: LiveServer
) -> None:
    # Tag each element as it is parsed; a head written anew would lose the tags.
    page.add_init_script("""
        new MutationObserver((records) => {
            for (const r of records) for (const n of r.addedNodes)
                if (n.nodeType == 1 && n.hasAttribute("data-marmeon")
                    && !window.marmeon)
                    n.fromServer = true
        }).observe(document, {childList: true, subtree: true})
    """)
    html, _ = without_app_url.fetch("/en/about")
    sent = len(server_head(html))
    page.goto(without_app_url.url + "/en/about")
    wait_for_module(page)
    # The server's elements are the same nodes; the module added the others.
    kept = page.evaluate("""() => [...document.querySelectorAll("[data-marmeon]")]
        .filter((el) => el.fromServer).length""")
    assert kept == sent
    assert len(browser_head(page)) > sent


def test_without_app_url_the_browser_adds_the_urls(
    page: Any,
    without_app_url: LiveServer,
) -> None:
    html, _ = without_app_url.fetch("/de/about")
    sent = server_head(html)
    # The server left out every relative URL: the hreflang block, the
    # default canonical, og:url, and the images with their size and alt.
    assert not [el for el in sent if el[0] == "link"]
    assert not _with(sent, "property", "og:url", "og:image", "og:image:alt")
    assert not _with(sent, "name", "twitter:image", "twitter:image:alt")
    page.goto(without_app_url.url + "/de/about")
    wait_for_module(page)
    # What a server whose APP_URL is the page's own origin writes.
    origin = without_app_url.url
    with make_site(app_url=origin).test_client() as client:
        expected = server_head(client.get("/de/about").get_data(as_text=True))
    got = browser_head(page)
    assert got == expected
    assert ("link", (("rel", "canonical"), ("href", origin + "/de/about")), "") in got
    assert (
        "link",
        (("rel", "alternate"), ("hreflang", "x-default"), ("href", origin + "/about")),
        "",
    ) in got


def test_without_app_url_the_browser_adds_video_audio_and_images(
    page: Any, without_app_url: LiveServer
) -> None:
    html, _ = without_app_url.fetch("/media")
    sent = server_head(html)
    assert not _with(sent, "property", "og:image", "og:video", "og:audio")
    page.goto(without_app_url.url + "/media")
    wait_for_module(page)
    origin = without_app_url.url
    with make_site(app_url=origin).test_client() as client:
        expected = server_head(client.get("/media").get_data(as_text=True))
    got = browser_head(page)
    assert got == expected
    # Each URL with its own group; the audio whose secure_url names another
    # host is left out whole, by the server already.
    properties = [dict(a).get("property") for t, a, _ in got if t == "meta"]
    assert [
        p for p in properties if p and p.startswith(("og:i", "og:v", "og:a", "book"))
    ] == [
        "og:image",
        "og:image",
        "og:image:width",
        "og:image:alt",
        "og:video",
        "og:video:secure_url",
        "og:video:type",
        "og:video:width",
        "og:video:height",
        "og:audio",
        "og:audio:secure_url",
        "book:author",
        "book:author",
        "book:isbn",
        "book:tag",
    ]
    assert (
        "meta",
        (("property", "og:video:secure_url"), ("content", origin + "/s/v.mp4")),
        "",
    ) in got
    assert "evil.example" not in json.dumps(got)


def test_urls_left_out_in_the_browser_too(page: Any, dev: LiveServer) -> None:
    page.goto(dev.url + "/hostile")
    wait_for_module(page)
    got = {
        dict(attrs).get("property") or dict(attrs).get("name") or dict(attrs)["rel"]
        for tag, attrs, _ in browser_head(page)
        if tag != "title"
    }
    # og:url is relative and safe: the browser adds it. The rest name another
    # host or scheme and stay out, each image with its size and alt.
    assert "og:url" in got
    assert not got & {
        "canonical",
        "og:image",
        "og:image:width",
        "og:image:alt",
        "twitter:image",
        "twitter:image:alt",
    }
    written = json.dumps(browser_head(page))
    assert "evil.example" not in written
    assert "javascript:" not in written


def _page_with_missing(html: str, missing: list[dict[str, Any]]) -> str:
    """``html`` with its data replaced by a list of left-out elements."""
    data = json.dumps({"v": 2, "missing": missing}).replace("<", "\\u003c")
    script = f'<script type="application/json" data-marmeon-data>{data}</script>'
    html = re.sub(r"<script[^>]*data-marmeon-data[^>]*>.*?</script>", "", html)
    return html.replace("</head>", script + "</head>")


HOSTILE_MISSING = [
    {
        "at": 1,
        "tag": "link",
        "attrs": {"rel": "canonical", "href": "//evil.example/x"},
        "url": "href",
        "group": 1,
    },
    {
        "at": 2,
        "tag": "meta",
        "attrs": {"property": "og:image", "content": "javascript:alert(1)"},
        "url": "content",
        "group": 2,
    },
    {
        "at": 3,
        "tag": "meta",
        "attrs": {"property": "og:image:alt", "content": "gone with it"},
        "group": 2,
    },
    {
        "at": 4,
        "tag": "meta",
        "attrs": {"property": "og:url", "content": "/kept"},
        "url": "content",
        "group": 3,
    },
]


def test_warnings_only_in_development(
    page: Any, dev: LiveServer, without_app_url: LiveServer
) -> None:
    # Whatever a page carries, the browser's policy decides as the server's
    # does (an image goes with its alt), and development names each URL it
    # leaves out.
    html, _ = without_app_url.fetch("/own")
    crafted = _page_with_missing(html, HOSTILE_MISSING)
    for site in (dev, without_app_url):
        page.console.clear()
        page.goto(site.url + "/en/about")
        wait_for_module(page)
        assert page.evaluate("(html) => marmeon.apply(html)", crafted) is True
        assert browser_head(page) == [
            ("meta", (("property", "og:url"), ("content", site.url + "/kept")), "")
        ]
        warnings = [m.text for m in page.console if m.type == "warning"]
        if site is dev:
            assert len(warnings) == 2
            assert any("canonical" in w and "//evil.example/x" in w for w in warnings)
            assert any("og:image" in w and "javascript:alert(1)" in w for w in warnings)
        else:
            assert warnings == []


def test_module_and_data_carry_the_csp_nonce(page: Any, under_csp: LiveServer) -> None:
    html, headers = under_csp.fetch("/en/about")
    nonce = headers["Content-Security-Policy"].split("'nonce-")[1].split("'")[0]
    document = html5lib.parse(html, namespaceHTMLElements=False)
    scripts = {el.get("type"): el.get("nonce") for el in document.iter("script")}
    assert scripts == {
        "module": nonce,
        "application/json": nonce,
        "application/ld+json": nonce,
    }
    page.goto(under_csp.url + "/en/about")
    wait_for_module(page)
    # The module ran under the policy: without APP_URL it added the canonical.
    assert page.evaluate(
        """() => document.querySelector('link[rel=canonical]').href"""
    ) == (under_csp.url + "/en/about")
    assert not [m.text for m in page.console if "Content Security Policy" in m.text]


def test_no_request_beyond_the_module(
    page: Any, serve: Callable[..., LiveServer]
) -> None:
    # The pages without icons: the browser fetches an icon itself.
    with_app_url = serve(lambda origin: make_site(app_url=origin, icons=False))
    requested: list[str] = []
    page.on("request", lambda request: requested.append(request.url))
    before = dict(with_app_url.hits)
    page.goto(with_app_url.url + "/en/about")
    wait_for_module(page)
    page.wait_for_load_state("networkidle")
    module = page.evaluate("document.querySelector('script[type=module]').src")
    assert re.fullmatch(
        re.escape(with_app_url.url) + r"/marmeon\.[0-9a-f]{12}\.js", module
    )
    assert requested == [with_app_url.url + "/en/about", module]
    # A second page loads the module from the cache, not from the server.
    page.goto(with_app_url.url + "/en/contact")
    wait_for_module(page)
    page.wait_for_load_state("networkidle")
    path = module[len(with_app_url.url) :]
    assert with_app_url.hits[path] - before.get(path, 0) == 1


def test_module_under_a_mount_path(page: Any, serve: Callable[..., LiveServer]) -> None:
    # Mounted under /blog (APPLICATION_ROOT), the page loads the module from
    # /blog/marmeon.<hash>.js, and without APP_URL the module adds the
    # canonical with the mount path in it.
    site = serve(lambda origin: make_site(APPLICATION_ROOT="/blog"), mount="/blog")
    requested: list[str] = []
    page.on("request", lambda request: requested.append(request.url))
    page.goto(site.url + "/blog/de/about")
    wait_for_module(page)
    assert re.fullmatch(
        re.escape(site.url) + r"/blog/marmeon\.[0-9a-f]{12}\.js", requested[1]
    )
    assert page.evaluate(
        "() => document.querySelector('link[rel=canonical]').href"
    ) == (site.url + "/blog/de/about")
