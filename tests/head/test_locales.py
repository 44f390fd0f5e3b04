"""og:locale in Open Graph's form, completed with CLDR's likely region."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from flask import Flask

from flask_marmeon._state import get_state
from flask_marmeon.head.locales import OgLocales, og_locale
from flask_marmeon.head.state import head_state


@pytest.mark.parametrize(
    ("tag", "expected"),
    [
        ("en", "en_US"),
        ("de", "de_DE"),
        ("fr", "fr_FR"),
        ("pt", "pt_BR"),
        ("EN", "en_US"),
        ("de-AT", "de_AT"),
        ("pt-br", "pt_BR"),
        ("es-419", "es_419"),
        ("zh-Hant", "zh_TW"),
        ("zh-Hans", "zh_CN"),
        ("sr-Latn", "sr_RS"),
        # Open Graph has no place for a script, a variant or a private use
        # part, with a region as without one (the audit's own check).
        ("sr-Latn-RS", "sr_RS"),
        ("zh-Hans-CN", "zh_CN"),
        ("ca-ES-valencia", "ca_ES"),
        ("de-DE-1996", "de_DE"),
        ("en-US-x-twain", "en_US"),
        ("en-x-ab", "en_US"),
        # A language CLDR does not know is written alone.
        ("tlh", "tlh"),
    ],
)
def test_og_locale(tag: str, expected: str) -> None:
    assert og_locale(tag) == expected


#: The tags of test_og_locale, and one of each in another spelling.
TAGS = ["en", "de", "pt-br", "zh-Hant", "sr-Latn-RS", "tlh", "en-x-ab", "EN"]


def test_the_app_table_equals_og_locale() -> None:
    # The speed trick (a table made once per app) against the plain function,
    # for the tags it holds and for any other tag (which it hands over).
    locales = OgLocales(TAGS[:4])
    assert set(locales.table) == set(TAGS[:4])
    for tag in TAGS:
        assert locales(tag) == og_locale(tag)


def test_the_app_table_holds_app_locales(make_app: Callable[..., Flask]) -> None:
    app = make_app(APP_LOCALES=["en", "de-AT", "pt"])
    table = head_state(get_state(app)).og_locales.table
    assert table == {"en": "en_US", "de-AT": "de_AT", "pt": "pt_BR"}
