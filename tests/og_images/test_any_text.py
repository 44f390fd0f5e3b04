"""No text makes a page fail; text that cleans away to nothing draws no text.

Titles and descriptions come from a database: a bio of newlines, NUL, zero
width spaces, soft hyphens or unassigned code points is as possible as any.
"""

from __future__ import annotations

from typing import Any

from flask import Flask
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from flask_marmeon import Marmeon, head, render_head
from flask_marmeon.og_images.address import texts_of, token_of
from flask_marmeon.og_images.generator import signer_of
from flask_marmeon.og_images.state import og_images_of

from .conftest import metas_of

#: Characters the image code removes: a break, NUL, ZWSP, a soft hyphen,
#: an unassigned code point, a private-use one.
REMOVED = ["\n", "\x00", "\u200b", "\u00ad", "\U000e0fff", "\ue000", "\u2028"]


def _app() -> Flask:
    app = Flask("anytext")
    app.config.update(
        TESTING=True,
        APP_URL="https://notes.example",
        SECRET_KEY="a secret",
        MARMEON_OG_IMAGES=True,
    )
    Marmeon(app)
    return app


APP = _app()


def _head(title: str, description: str) -> dict[str, list[str]]:
    """The head render_head() writes for the texts, parsed."""
    with APP.test_request_context("/page"):
        head(title=title, description=description, open_graph={"type": "article"})
        written = str(render_head())
    return metas_of(f"<head>{written}</head>")


def _drawn(metas: dict[str, list[str]]) -> Any:
    """The texts the image's address carries (what is drawn)."""
    [url] = metas["og:image"]
    token = token_of(url.removeprefix("https://notes.example"))
    assert token is not None
    signer = signer_of(og_images_of(APP), "a secret")
    assert signer is not None
    return texts_of(signer, token)


def test_a_long_run_of_removed_characters_before_the_title_draws_the_title() -> None:
    for char in REMOVED:
        text = char * 5000 + "The real title"
        texts = _drawn(_head(text, text))
        assert texts.title == "The real title"
        assert texts.description == "The real title"


def test_text_of_nothing_but_removed_characters_draws_no_text() -> None:
    for char in REMOVED:
        texts = _drawn(_head("A title", char * 5000))
        assert texts.title == "A title"
        assert texts.description == ""
    texts = _drawn(_head("".join(REMOVED) * 1000, "".join(REMOVED) * 1000))
    assert (texts.title, texts.description) == ("", "")


#: Any text, with removed characters, marks and long runs of them likely.
TEXT = st.one_of(
    st.text(st.characters(codec=None, exclude_categories=("Cs",)), max_size=300),
    st.builds(
        lambda char, count, tail: char * count + tail,
        st.sampled_from(REMOVED + ["\u0301", " ", "\u200d", "\u0627"]),
        st.integers(0, 3000),
        st.text(max_size=40),
    ),
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(title=TEXT, description=TEXT)
def test_render_head_never_fails_for_any_text(title: str, description: str) -> None:
    metas = _head(title, description)
    # A title whose letters no font draws gets no image (test_scripts.py).
    if "og:image" in metas:
        assert _drawn(metas) is not None
