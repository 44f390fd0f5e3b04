"""OgImage takes lazy strings (lazy_gettext) like every text of the head,
made text in the language of the request that gives it to head()."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from flask import Flask, g, render_template_string
from flask_babel import Babel, LazyString, lazy_gettext

from flask_marmeon import OgImage, head
from flask_marmeon.og_images.address import texts_of, token_of
from flask_marmeon.og_images.generator import signer_of
from flask_marmeon.og_images.state import og_images_of

from .conftest import PAGE, page

#: Made once, at import, as an app would at module level.
RELEASE = OgImage(
    title=LazyString(lambda: g.word), subtitle=lazy_gettext("Notes"), alt=None
)


def test_og_image_takes_lazy_strings(og_app: Callable[..., Flask]) -> None:
    app = og_app()
    Babel(app)
    metas = page(
        app,
        open_graph={"image": OgImage(title=lazy_gettext("Release notes"))},
    )
    [alt] = metas["og:image:alt"]
    assert alt == "Release notes"


def test_a_lazy_text_is_read_in_the_request_that_gives_it(
    og_app: Callable[..., Flask],
) -> None:
    app = og_app()
    Babel(app)

    @app.get("/<word>")
    def view(word: str) -> str:
        g.word = word
        head(open_graph={"image": RELEASE})
        return render_template_string(PAGE)

    signer = signer_of(og_images_of(app), app.secret_key)
    assert signer is not None
    for word in ("Hallo", "Bonjour"):
        html = app.test_client().get(f"/{word}").get_data(as_text=True)
        start = html.index("/marmeon-og/")
        path = html[start : html.index(".png", start) + 4]
        texts = texts_of(signer, token_of(path) or "")
        assert texts is not None
        assert (texts.title, texts.site) == (word, "Notes")


@pytest.mark.parametrize("value", [1, b"bytes", ["a list"], str])
def test_what_is_not_text_is_still_refused(value: object) -> None:
    with pytest.raises(TypeError, match="a str or a lazy string"):
        OgImage(title=value)  # type: ignore[arg-type]
