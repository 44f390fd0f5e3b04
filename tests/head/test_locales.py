"""og:locale in Open Graph's form, completed with CLDR's likely region."""

from __future__ import annotations

import pytest

from flask_marmeon.head.locales import og_locale


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
