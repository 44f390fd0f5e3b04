"""The head's HTML (head/html.py): any text parses back, without a parse error."""

from __future__ import annotations

import json
import logging
import random
from collections.abc import Callable

import pytest
from flask import Flask

from flask_marmeon.head.text import clean_text
from flask_marmeon.head.url_policy import decide

from .conftest import RenderFn, links, meta, parse_head, title

TEXTS = [
    'He said "hi" & left',
    "it's <b>bold</b> & <script>alert(1)</script>",
    "</title><script>alert(1)</script>",
    "</TITLE ><!-- x -->",
    "a\nb\n\nc",
    "tab\there",
    "ünïcödé — 日本語 — 😀 — \u200b\u00a0",
    "&amp; &lt; &#34; &unknown; &",
    "' \" ` = < > /",
    "   leading and trailing   ",
    "",
    "<![CDATA[ x ]]>",
    "\u2028\u2029",
]
# Characters HTML cannot carry: replaced (see text.clean_text).
UNCARRIABLE = [
    "nul\x00here",
    "controls \x01\x08\x0b\x0e\x1f\x7f\x80\x85\x9f",
    "cr\r\nlf and lone \r cr",
    "noncharacters \ufdd0\ufffe\uffff\U0001fffe\U0010ffff",
    "lone surrogate \ud800 \udfff",
]


def fuzz(count: int) -> list[str]:
    rng = random.Random(20260)
    pool = [chr(c) for c in range(0, 0x250)] + list("<>&\"'\u2028😀\ud800\ufffe")
    return [
        "".join(rng.choice(pool) for _ in range(rng.randint(0, 30)))
        for _ in range(count)
    ]


@pytest.mark.parametrize("text", TEXTS + UNCARRIABLE + fuzz(150))
def test_any_text_parses_back_exactly_with_no_parse_error(
    app: Flask, head_of: RenderFn, text: str
) -> None:
    expected = clean_text(text)
    el = head_of(
        app,
        {
            "title": text,
            "title_template": text + " %s",
            "description": text,
            "open_graph": {"site_name": text, "image": {"url": "/i", "alt": text}},
            "twitter": {"site": text, "image": "/x" + text},
            "json_ld": {"@type": "Thing", "name": expected},
        },
    )
    # A URL is decided on as written (bar lone surrogates), and whatever it
    # holds, the page still parses without an error.
    image = decide(
        "/x" + text.replace("\ud800", "\ufffd").replace("\udfff", "\ufffd"),
        "https://notes.example",
    )
    assert meta(el, "twitter:image") == ([image] if image else [])
    assert title(el) == expected + " " + expected
    assert meta(el, "description") == [expected]
    assert meta(el, "og:title") == [expected]
    assert meta(el, "og:site_name") == [expected]
    assert meta(el, "og:image:alt") == [expected]
    assert meta(el, "twitter:site") == [expected]
    [block] = [s for s in el.iter("script") if s.get("type") == "application/ld+json"]
    assert json.loads(block.text or "") == {"@type": "Thing", "name": expected}


def test_what_html_cannot_carry_becomes_a_replacement_character() -> None:
    assert clean_text("a\x00b") == "a\ufffdb"
    assert clean_text("a\r\nb\rc") == "a\nb\nc"
    assert (
        clean_text("a\x01\x7f\x9f\ufdd0\U0010ffff\ud800b") == "a" + "\ufffd" * 6 + "b"
    )
    assert clean_text("\t\n\x0c é 😀") == "\t\n\x0c é 😀"


def test_urls_are_escaped_in_attributes(app: Flask, head_of: RenderFn) -> None:
    el = head_of(app, {"canonical": "/x?a=1&b=<2>&c=\"3\"&d='4'"})
    assert [link["href"] for link in links(el, "canonical")] == [
        "https://notes.example/x?a=1&b=%3C2%3E&c=%223%22&d=%274%27"
    ]


def test_the_module_follows_the_managed_elements_and_no_copy(
    app: Flask, render_calls: Callable[..., str]
) -> None:
    # Version 2 of the output (issue 10): with APP_URL set the elements are
    # final, and no JSON copy of the head is written.
    html = render_calls(app, {"title": "T", "canonical": "/a"})
    el = parse_head(html)
    tags = [(e.tag, e.get("type")) for e in el]
    assert tags[-1] == ("script", "module")
    assert [e for e in el.iter("script") if e.get("type") == "application/json"] == []
    assert "marmeon-head" not in html and "data-marmeon-data" not in html
    module = list(el)[-1]
    assert "data-marmeon" not in module.attrib
    assert "data-marmeon-dev" not in module.attrib
    src = module.get("src") or ""
    assert src.startswith("/") and src.endswith(".js") and "marmeon." in src
    assert app.test_client().get(src).status_code == 200


def test_the_module_is_marked_in_development(
    make_app: Callable[..., Flask], head_of: RenderFn
) -> None:
    app = make_app(APP_URL="https://notes.example")
    app.debug = True
    el = head_of(app, {"title": "T"})
    [module] = [s for s in el.iter("script") if s.get("type") == "module"]
    assert module.get("data-marmeon-dev") == ""


def test_without_the_browser_script_no_scripts(
    make_app: Callable[..., Flask], head_of: RenderFn
) -> None:
    app = make_app(APP_URL="https://notes.example", MARMEON_BROWSER_SCRIPT=False)
    el = head_of(app, {"title": "T"})
    assert list(el.iter("script")) == []
    assert title(el) == "T"


def test_the_module_path_is_the_configured_root_never_the_requests(
    make_app: Callable[..., Flask], head_of: RenderFn
) -> None:
    # SCRIPT_NAME is the client's to set (X-Forwarded-Prefix, a proxy):
    # the module's src starts with APPLICATION_ROOT, whatever it says.
    plain = make_app(APP_URL="https://notes.example")
    el = head_of(plain, {"title": "T"}, base_url="http://localhost/evil/")
    [module] = [s for s in el.iter("script") if s.get("type") == "module"]
    assert not (module.get("src") or "").startswith("/evil")
    mounted = make_app(APP_URL="https://notes.example", APPLICATION_ROOT="/blog")
    el = head_of(mounted, {"title": "T"}, base_url="http://localhost/evil/")
    [module] = [s for s in el.iter("script") if s.get("type") == "module"]
    src = module.get("src") or ""
    assert src.startswith("/blog/") and "/evil" not in src


class _PosingAs(str):
    """A str subclass that claims to be another text: equal to it, same hash."""

    def __new__(cls, value: str, posing_as: str) -> _PosingAs:
        text = super().__new__(cls, value)
        text.posing_as = posing_as  # type: ignore[attr-defined]
        return text

    def __eq__(self, other: object) -> bool:
        return True

    def __hash__(self) -> int:
        return hash(self.posing_as)  # type: ignore[attr-defined]

    def __str__(self) -> str:
        return self


def test_what_is_written_is_never_another_values(
    app: Flask, render_calls: Callable[..., str]
) -> None:
    # The writer keeps each element it wrote, keyed on its value: a value
    # that claims to equal another must not get the other's HTML.
    twice = [render_calls(app, {"title": "A", "canonical": "/a"}) for _ in range(2)]
    assert twice[0] == twice[1]
    call = {"title": _PosingAs("B", "A"), "canonical": _PosingAs("/b", "/a")}
    el = parse_head(render_calls(app, call))
    assert title(el) == "B"
    assert [link["href"] for link in links(el, "canonical")] == [
        "https://notes.example/b"
    ]


def test_a_left_out_url_warns_on_each_page_in_development(
    make_app: Callable[..., Flask],
    render_calls: Callable[..., str],
    caplog: pytest.LogCaptureFixture,
) -> None:
    app = make_app(APP_URL="https://notes.example")
    app.debug = True
    call = {"open_graph": {"image": {"url": "javascript:x", "alt": "A"}}}
    with caplog.at_level(logging.WARNING, logger="flask_marmeon"):
        pages = [parse_head(render_calls(app, call)) for _ in range(2)]
    assert len(caplog.records) == 2
    for el in pages:
        assert meta(el, "og:image") == [] and meta(el, "og:image:alt") == []


def test_a_raw_url_holding_del_is_written_as_the_parser_serializes_it(
    app: Flask, render_calls: Callable[..., str]
) -> None:
    call = {"title": 'A "t" & <b>', "canonical": "/a\x7fb", "twitter": {"image": "/c"}}
    html = render_calls(app, call)
    el = parse_head(html)
    assert "\x7f" not in html
    assert title(el) == 'A "t" & <b>'
    assert [link["href"] for link in links(el, "canonical")] == [
        "https://notes.example/a%7Fb"
    ]
    assert meta(el, "twitter:image") == ["https://notes.example/c"]


def test_a_head_written_again_carries_this_requests_nonce(
    make_app: Callable[..., Flask], render_calls: Callable[..., str]
) -> None:
    nonces = iter(["n1", "n2"])
    app = make_app(
        APP_URL="https://notes.example", MARMEON_CSP_NONCE=lambda: next(nonces)
    )
    call = {"title": "T", "json_ld": {"@type": "Thing", "name": "A"}}
    for nonce in ("n1", "n2"):
        el = parse_head(render_calls(app, call))
        scripts = list(el.iter("script"))
        assert [s.get("type") for s in scripts] == ["application/ld+json", "module"]
        assert [s.get("nonce") for s in scripts] == [nonce] * 2
