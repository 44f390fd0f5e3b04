"""The head's speed trick (memo.HeadMemo) gives what the plain code writes."""

from __future__ import annotations

import datetime
import itertools
from collections.abc import Callable, Mapping
from typing import Any

from flask import Flask

from flask_marmeon import head, render_head
from flask_marmeon._context import peek_request_state, request_state
from flask_marmeon._state import get_state
from flask_marmeon.head.html import nonce_attribute, write_head
from flask_marmeon.head.json_ld_blocks import texts as json_ld_texts
from flask_marmeon.head.memo import HeadMemo
from flask_marmeon.head.merge import MergedHead, merge
from flask_marmeon.head.resolve import resolve
from flask_marmeon.head.state import head_state
from flask_marmeon.page import Page

PAGE = Page(
    locale="de",
    canonical_path="/de/a",
    hreflang_paths=(("en", "/en/a"), ("de", "/de/a"), ("x-default", "/a")),
)
CALLS: list[Mapping[str, Any]] = [
    {"title": "T"},
    {"title": 'A "t" & <b>', "title_template": "%s · N"},
    {"canonical": "/notes/1", "robots": {"index": False, "max_snippet": -1}},
    {"canonical": "javascript:x", "open_graph": {"image": {"url": "/i", "alt": "A"}}},
    {
        "open_graph": {
            "type": "article",
            "article": {"published_time": datetime.date(2024, 1, 1), "tags": ["t"]},
        }
    },
    {"twitter": {"card": "summary", "image": {"url": "//evil.example/x", "alt": "x"}}},
    {"json_ld": {"@type": "Thing", "name": "</script>"}},
]


def plain(app: Flask, nonce: str | None) -> str:
    """What render_head() writes for this request without the memo."""
    state = get_state(app)
    request_ = peek_request_state()
    merged = merge(request_.fragments if request_ is not None else ())
    json_ld = json_ld_texts(merged.get("json_ld", ()), state, False)
    resolved = resolve(
        merged,
        request_.page if request_ is not None else None,
        head_state(state).policy,
        json_ld,
        indexable=state.settings.indexable,
    )
    module = state.settings.root + head_state(state).module_path
    return write_head(
        resolved,
        app_url=state.settings.app_url,
        nonce_attr=nonce_attribute(nonce),
        module_src=module,
        dev=False,
    )


def test_a_kept_head_equals_the_plain_one(make_app: Callable[..., Flask]) -> None:
    nonces = itertools.cycle(["n1", 'n"2', None])
    nonce: list[str | None] = [None]
    for config in ({"APP_URL": "https://notes.example"}, {}):
        app = make_app(
            APP_LOCALES=["en", "de"], MARMEON_CSP_NONCE=lambda: nonce[0], **config
        )
        memo = head_state(get_state(app)).pages
        for size in range(len(CALLS) + 1):
            for calls in itertools.combinations(CALLS, size):
                for page in (None, PAGE):
                    # Written (a new title: its key is not made), written
                    # again, written a third time and kept, then from the
                    # memo.
                    for _ in range(4):
                        nonce[0] = next(nonces)
                        with app.test_request_context("/"):
                            if page is not None:
                                request_state("test").page = page
                            for call in calls:
                                head(**call)
                            written = str(render_head())
                            assert "\x00" not in written
                            assert written == plain(app, nonce[0])
        assert 0 < len(memo.pages) <= memo.size


def test_the_memo_is_bounded(make_app: Callable[..., Flask]) -> None:
    app = make_app(APP_URL="https://notes.example")
    memo = head_state(get_state(app)).pages = HeadMemo(size=5, longest=400)
    for i in range(20):
        for _ in range(3):  # kept the third time (its title is new)
            with app.test_request_context("/"):
                head(title=f"T{i}")
                assert f"<title data-marmeon>T{i}</title>" in str(render_head())
        assert len(memo.pages) <= 5
        assert len(memo.seen) <= 20
    for _ in range(3):
        with app.test_request_context("/"):
            head(title="x" * 500)
            render_head()
    # The values are (key, pieces): the bound is on the pieces' text.
    kept = [pieces for _, pieces in memo.pages.values()]
    assert kept and all(sum(map(len, pieces)) <= 400 for pieces in kept)


def test_an_article_head_is_kept(make_app: Callable[..., Flask]) -> None:
    app = make_app(APP_URL="https://notes.example")
    memo = head_state(get_state(app)).pages
    call = {
        "open_graph": {
            "type": "article",
            "article": {"published_time": "2024-01-01", "tags": ["a", "b"]},
        }
    }
    for _ in range(3):
        with app.test_request_context("/"):
            head(**call)
            assert 'property="article:tag" content="b"' in str(render_head())
    assert len(memo.pages) == 1


class _SameHash(str):
    """A title whose hash every other one shares (and so do the keys of
    heads that differ only by it)."""

    def __hash__(self) -> int:
        return 7

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _SameHash) and str(other) == str(self)


def _writer(written: list[str]) -> Callable[..., str]:
    def write(
        mark: str, merged: MergedHead, page: object, json_ld: object, context: None
    ) -> str:
        written.append(f"{merged.get('title')}{merged.get('description') or ''}")
        return f"{merged.get('title')}{mark}end"

    return write


def test_keys_of_one_hash_never_answer_for_each_other() -> None:
    # The memo is keyed by the key's hash, hashed once: a key of the same
    # hash must still find its own head, never the other's.
    memo = HeadMemo()
    written: list[str] = []
    write = _writer(written)
    for name in ("a", "a", "a", "b", "b", "a"):
        merged = MergedHead(title=_SameHash(name))
        assert memo.text("|", write, merged, None, (), None) == f"{name}|end"
    assert written == ["a", "a", "a", "b", "b", "a"]
    # b, written a second time with a title seen before, is kept.
    assert memo.text("|", write, MergedHead(title=_SameHash("b")), None, (), None) == (
        "b|end"
    )
    assert written == ["a", "a", "a", "b", "b", "a"]
    assert len(memo.pages) == 1


def test_a_page_never_written_before_leaves_its_titles_hash_behind() -> None:
    # Not its key (which is not even made), let alone its head; and the
    # hashes are bounded too.
    memo = HeadMemo(size=2)
    written: list[str] = []
    write = _writer(written)
    for number in range(20):
        merged = MergedHead(title=str(number))
        assert memo.text("|", write, merged, None, (), None) == f"{number}|end"
        assert len(memo.titles) <= 8
    assert memo.pages == {} and memo.seen == set()
    # Kept from its third writing when its title is new, ...
    for _ in range(4):
        assert memo.text("|", write, MergedHead(title="t"), None, (), None) == "t|end"
    assert written[20:] == ["t", "t", "t"]
    # ... from its second when another page had its title.
    merged = MergedHead(title="t", description="2")
    for _ in range(3):
        assert memo.text("|", write, merged, None, (), None) == "t|end"
    assert written[23:] == ["t2", "t2"]
    assert len(memo.pages) == 2


def test_an_unhashable_key_is_written_each_time() -> None:
    memo = HeadMemo()
    written: list[str] = []
    merged = MergedHead(title="t", robots={"x": ["a list"]})
    for _ in range(3):
        assert memo.text("|", _writer(written), merged, None, (), None) == "t|end"
    assert written == ["t", "t", "t"] and memo.pages == {}
