"""The writer: markupsafe's escape, with its fast way for plain values."""

from __future__ import annotations

import random

from markupsafe import escape

from flask_marmeon.head.elements import TITLE
from flask_marmeon.head.html import escape_text, write_head
from flask_marmeon.head.resolve import ResolvedHead

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


def test_a_title_parses_back() -> None:
    for text in texts(100):
        html = write_head(
            ResolvedHead([(TITLE, text, None)], [], []),
            app_url=None,
            nonce_attr="",
            module_src=None,
            dev=False,
        )
        el = parse_head(html)
        assert (el[0].text or "") == text
