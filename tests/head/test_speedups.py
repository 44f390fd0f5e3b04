"""The private API the head uses (speedups.py): behind a probe, beside its
plain twin; both ways give the same text."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import markupsafe
import pytest
from flask import Flask

from flask_marmeon.head import html, speedups

from .conftest import parse_head


def texts(count: int) -> list[str]:
    rng = random.Random(2929)
    pool = list("ab &<>\"'=/é😀\n\t;#%\x7f\u2028") + ["&amp;", "</script>", "\\"]
    return [
        "".join(rng.choice(pool) for _ in range(rng.randint(0, 16)))
        for _ in range(count)
    ]


def blocks() -> list[Any]:
    rng = random.Random(2930)
    out: list[Any] = []
    for text in texts(200):
        out.append(
            {
                "@type": "Article",
                "headline": text,
                "n": rng.randint(-(2**53 - 1), 2**53 - 1),
                "x": rng.random(),
                "flags": [True, False, None],
                "author": {"@type": "Person", "name": text[::-1]},
                "tuple": (1, text),
            }
        )
    return out


def test_the_probe_finds_markupsafes_c_function_on_this_version() -> None:
    # MarkupSafe 3 has it; on 2.1 escape() is the C function itself and
    # the plain way is as fast.
    if hasattr(markupsafe, "_escape_inner"):
        assert speedups.escape_text is markupsafe._escape_inner
    else:  # pragma: no cover - MarkupSafe 2.1
        assert speedups.escape_text is speedups.plain_escape


def test_escape_both_ways_alike() -> None:
    fast = speedups.probed_escape()
    for text in [*texts(500), "", "plain", "https://notes.example/a?b=1&c=2"]:
        plain = speedups.plain_escape(text)
        assert plain == str(markupsafe.escape(text))
        assert type(plain) is str
        if fast is not None:
            assert fast(text) == plain
            assert type(fast(text)) is str


@pytest.mark.parametrize(
    "inner",
    [
        lambda text: text,  # escapes nothing
        lambda text: markupsafe.Markup(markupsafe.escape(text)),  # not a str
        lambda text, quote: text,  # another signature
        "not callable",
    ],
)
def test_a_c_function_that_answers_otherwise_is_not_used(
    monkeypatch: pytest.MonkeyPatch, inner: object
) -> None:
    monkeypatch.setattr(markupsafe, "_escape_inner", inner, raising=False)
    assert speedups.probed_escape() is None


def test_a_markupsafe_without_the_c_function_gets_the_plain_way(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delattr(markupsafe, "_escape_inner", raising=False)
    assert speedups.probed_escape() is None


def test_whole_heads_are_the_same_both_ways(
    make_app: Callable[..., Flask],
    render_calls: Callable[..., str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    app = make_app(APP_URL="https://notes.example")
    pages = [
        {
            "title": text or "t",
            "description": text[::-1] or "d",
            "canonical": "/notes/1?a=1&b=<2>",
            "open_graph": {
                "title": text or "t",
                "image": {"url": "/i.png", "alt": text},
            },
            "json_ld": block,
        }
        for text, block in zip(texts(60), blocks(), strict=False)
    ]
    fast = [render_calls(app, page) for page in pages]
    monkeypatch.setattr(html, "_escape_str", speedups.plain_escape)
    plain = [render_calls(app, page) for page in pages]
    assert plain == fast
    for text in plain:
        parse_head(text)
