"""Addresses stay under 2,000 characters whatever the texts, and stacked
combining marks are capped per base character before they are shaped."""

from __future__ import annotations

import random
import unicodedata
from collections.abc import Callable

import pytest
from flask import Flask
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from flask_marmeon.og_images.address import texts_of, token_of
from flask_marmeon.og_images.clusters import MAX_MARKS, clusters
from flask_marmeon.og_images.generator import signer_of
from flask_marmeon.og_images.state import og_images_of

from .conftest import page

_MARKS = [chr(code) for code in range(0x300, 0x370)]


def _stacked(base: str, marks: int, count: int, seed: int = 1) -> str:
    chooser = random.Random(seed)
    return "".join(
        base + "".join(chooser.choice(_MARKS) for _ in range(marks))
        for _ in range(count)
    )


HEAVY = {
    "stacked": _stacked("a", 12, 600),
    "narrow stacked": _stacked("l", 3, 900),
    "cjk": "共有キャッシュでビルド時間を半分にした方法" * 40,
    "mixed": _stacked("i", 30, 200) + "共有" * 100 + "\U0001f389" * 100,
}


def _address(app: Flask, title: str, path: str = "/page") -> str:
    metas = page(
        app,
        path,
        title=title,
        description=title,
        open_graph={"site_name": title},
    )
    [url] = metas["og:image"]
    return url


@pytest.mark.parametrize("kind", sorted(HEAVY))
def test_addresses_stay_under_2000_characters_and_are_served(
    og_app: Callable[..., Flask], kind: str
) -> None:
    app = og_app(APPLICATION_ROOT="/a/mount/path/that/is/rather/long")
    url = _address(app, HEAVY[kind])
    assert len(url) < 2000
    path = url.removeprefix("https://notes.example/a/mount/path/that/is/rather/long")
    response = app.test_client().get(
        path, environ_base={"SCRIPT_NAME": "/a/mount/path/that/is/rather/long"}
    )
    assert response.status_code == 200


_ANY = st.text(st.characters(codec=None, exclude_categories=("Cs",)), max_size=600)


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    title=st.one_of(_ANY, st.sampled_from(sorted(HEAVY.values()))),
    description=st.one_of(_ANY, st.sampled_from(sorted(HEAVY.values()))),
)
def test_no_text_makes_an_address_of_2000_characters(
    title: str, description: str
) -> None:
    from .test_any_text import APP, _head

    metas = _head(title, description)
    for url in metas.get("og:image", []):
        assert len(url) < 2000
        assert (
            APP.test_client().get(url.removeprefix("https://notes.example")).status_code
            == 200
        )


def test_stacked_marks_are_capped_per_base_character() -> None:
    [cluster] = clusters("a" + "\u0301" * 40)
    assert cluster == "a" + "\u0301" * MAX_MARKS


@pytest.mark.parametrize(
    "text",
    [
        "\u05d1\u05bc\u05b8\u05a3",  # Hebrew bet, dagesh, qamats, accent
        "\u0938\u094d\u0924\u094d\u0930\u0940\u0902",  # Devanagari stri + nasal
        "\u0f66\u0f92\u0fb2\u0f74",  # Tibetan stacked sgru
        "\u0e01\u0e34\u0e49",  # Thai ko, vowel, tone
    ],
)
def test_real_scripts_keep_their_marks(text: str) -> None:
    assert "".join(clusters(unicodedata.normalize("NFC", text))) == (
        unicodedata.normalize("NFC", text)
    )


def test_the_address_carries_the_capped_marks(og_app: Callable[..., Flask]) -> None:
    app = og_app()
    url = _address(app, _stacked("a", 12, 5))
    signer = signer_of(og_images_of(app), app.secret_key)
    assert signer is not None
    texts = texts_of(signer, token_of(url.removeprefix("https://notes.example")) or "")
    assert texts is not None
    for cluster in clusters(texts.title):
        assert sum(unicodedata.category(c).startswith("M") for c in cluster) <= 3
