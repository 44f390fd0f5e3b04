"""Cleaning and grapheme clusters: what a line may be cut between."""

from __future__ import annotations

from flask_marmeon.og_images.clusters import clean, clusters


def test_control_characters_and_odd_spaces_become_one_space() -> None:
    assert clean("a\x00b\tc\n\nd\u2028e\u00a0 f") == "a b c d e f"


def test_bidi_overrides_go_and_joiners_stay() -> None:
    assert clean("\u202eabc\u202c") == "abc"
    assert clean("👨\u200d👩") == "👨\u200d👩"


def test_lone_surrogates_and_private_use_go() -> None:
    assert clean("a\ud800b\ue000c") == "abc"


def test_the_ends_are_stripped() -> None:
    assert clean("  \x07 title \x1b ") == "title"


def test_an_emoji_sequence_is_one_cluster() -> None:
    family = "👨\u200d👩\u200d👧"
    assert clusters(f"a{family}b") == ["a", family, "b"]
    assert clusters("👍🏽!") == ["👍🏽", "!"]
    assert clusters("❤\ufe0f") == ["❤\ufe0f"]


def test_a_flag_is_one_cluster() -> None:
    assert clusters("🇫🇷🇩🇪") == ["🇫🇷", "🇩🇪"]


def test_marks_stay_with_their_letter() -> None:
    assert clusters("e\u0301a") == ["e\u0301", "a"]
    # A Devanagari conjunct: consonant, virama, consonant.
    assert clusters("क्षमा") == ["क्ष", "मा"]
