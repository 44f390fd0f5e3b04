"""The writer's speed trick (write.HtmlMemo) writes what the plain writer does."""

from __future__ import annotations

import random

from markupsafe import escape

from flask_marmeon.head.elements import ALL_SLOTS, HREFLANG, JSON_LD, TITLE, Element
from flask_marmeon.head.write import HtmlMemo, element_html, escape_text

from .conftest import parse_head


def texts(count: int) -> list[str]:
    rng = random.Random(1010)
    pool = list("ab &<>\"'=/é😀\n\t;#%") + ["&amp;", "</title>", "<script>"]
    return [
        "".join(rng.choice(pool) for _ in range(rng.randint(0, 12)))
        for _ in range(count)
    ]


def test_escape_text_is_markupsafes_escape() -> None:
    for text in texts(500) + ["", "plain", "1200", "https://notes.example/a?b=1&c=2"]:
        assert escape_text(text) == str(escape(text))
        assert type(escape_text(text)) is str


def test_the_memo_writes_what_the_plain_writer_writes() -> None:
    memo = HtmlMemo(size=50, longest=8)
    elements: list[Element] = []
    for i, text in enumerate(texts(400)):
        slot = ALL_SLOTS[i % len(ALL_SLOTS)]
        extra = text[:3] if slot is HREFLANG else None
        elements.append((slot, text, extra))
    for _ in range(2):  # the second time, from the memo
        for element in elements:
            for nonce in ("", ' nonce="n1"'):
                assert memo(element, nonce) == element_html(element, nonce)
    assert 0 < len(memo.known) <= 50
    assert all(len(value) <= 8 for _, value, _ in memo.known)
    # A JSON-LD block carries this request's nonce: never kept.
    block: Element = (JSON_LD, '{"@type":"Thing"}', None)
    assert memo(block, ' nonce="a"') != memo(block, ' nonce="b"')
    assert block not in memo.known


def test_an_element_parses_back() -> None:
    for text in texts(100):
        html = element_html((TITLE, text, None))
        el = parse_head(html[1:])
        assert (el[0].text or "") == text
