"""LocaleTags: a tag's one URL spelling and its lookup in any case."""

from __future__ import annotations

from flask_marmeon.locale_tags import (
    X_DEFAULT,
    LocaleTags,
    babel_spelling,
    hyphenated,
    spelling,
)
from flask_marmeon.page import X_DEFAULT as PAGE_X_DEFAULT

TAGS = LocaleTags(["en", "de-AT", "zh-Hant"])


def test_a_tag_is_spelled_in_lower_case_in_urls() -> None:
    assert spelling("de-AT") == "de-at"
    assert spelling("zh-Hant") == "zh-hant"


def test_babel_and_bcp_47_spellings_turn_into_each_other() -> None:
    assert babel_spelling("de-AT") == "de_AT"
    assert hyphenated("de_AT") == "de-AT"


def test_any_case_finds_the_tag_as_configured() -> None:
    assert TAGS.find("DE-at") == "de-AT"
    assert TAGS.find("ZH-HANT") == "zh-Hant"
    assert TAGS.find("de") is None
    assert "de-at" in TAGS and "EN" in TAGS
    assert "fr" not in TAGS and 1 not in TAGS
    assert TAGS.by_spelling == {"en": "en", "de-at": "de-AT", "zh-hant": "zh-Hant"}
    assert list(TAGS) == ["en", "de-AT", "zh-Hant"]


def test_among_keeps_the_configured_order_and_spelling() -> None:
    assert TAGS.among(["ZH-hant", "en", "fr"]) == ("en", "zh-Hant")
    assert TAGS.among([]) == ()


def test_strangers_are_the_named_tags_that_are_none_of_them() -> None:
    assert TAGS.strangers(["fr_FR", "DE-AT", "it"]) == ("fr_FR", "it")
    assert TAGS.strangers(["en"]) == ()


def test_split_gives_the_named_tags_as_configured_and_the_strangers() -> None:
    assert TAGS.split(["fr_FR", "DE-AT", "en"]) == (("en", "de-AT"), ("fr_FR",))
    assert TAGS.split(["de-at"]) == (("de-AT",), ())


def test_did_you_mean_prefers_the_same_language_then_a_close_spelling() -> None:
    assert TAGS.did_you_mean("de") == " Did you mean 'de-AT'?"
    assert TAGS.did_you_mean("eng") == " Did you mean 'en'?"
    assert TAGS.did_you_mean("qqq") == ""
    assert TAGS.did_you_mean("de_AT") == (
        " Locale tags use '-', not '_': 'de-AT'. Did you mean 'de-AT'?"
    )


def test_x_default_is_the_page_s_constant() -> None:
    assert X_DEFAULT == "x-default"
    assert X_DEFAULT is PAGE_X_DEFAULT
