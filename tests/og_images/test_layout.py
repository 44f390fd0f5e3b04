"""Fitting the title: wrapped, at most three lines, cut at a cluster."""

from __future__ import annotations

from pathlib import Path

import pytest

from flask_marmeon.og_images.clusters import clusters
from flask_marmeon.og_images.draw import TEXT_WIDTH, TITLE_LINES, TITLE_SIZES
from flask_marmeon.og_images.fonts import Fonts, FontSet, raqm_available
from flask_marmeon.og_images.layout import ELLIPSIS, fit
from flask_marmeon.og_images.settings import FontFile


@pytest.fixture(scope="module")
def shipped() -> Fonts:
    # The package's fonts alone, as on a machine without fonts of its own.
    return Fonts.load((), raqm_available(), system=False)


@pytest.fixture(scope="module")
def every_script(script_fonts: dict[str, tuple[str, str]]) -> Fonts:
    files = tuple(
        FontFile(script, Path(regular), Path(bold))
        for script, (regular, bold) in script_fonts.items()
    )
    return Fonts.load(files, raqm_available())


def title(text: str, fonts: FontSet):  # type: ignore[no-untyped-def]
    return fit(text, fonts, sizes=TITLE_SIZES, max_lines=TITLE_LINES, width=TEXT_WIDTH)


def test_a_short_title_is_one_line_at_the_largest_size(shipped: Fonts) -> None:
    block = title("Hello world", shipped.bold)
    assert block.size == TITLE_SIZES[0]
    assert len(block.lines) == 1
    assert block.text == "Hello world"


def test_a_longer_title_is_smaller_and_wrapped_in_three_lines_at_most(
    shipped: Fonts,
) -> None:
    text = (
        "How we cut our build times in half with a shared cache and a few"
        " other changes that nobody expected to matter"
    )
    block = title(text, shipped.bold)
    assert block.size < TITLE_SIZES[0]
    assert 2 <= len(block.lines) <= TITLE_LINES
    assert block.text == text  # all of it fits
    for line in block.lines:
        width = sum(
            shipped.bold.faces[r.face].length(r.text, block.size) for r in line.runs
        )
        assert width <= TEXT_WIDTH + 4


def test_a_title_too_long_for_three_lines_is_cut_with_an_ellipsis(
    shipped: Fonts,
) -> None:
    text = " ".join(["word"] * 400)
    block = title(text, shipped.bold)
    assert block.size == TITLE_SIZES[-1]
    assert len(block.lines) == TITLE_LINES
    assert block.text.endswith(ELLIPSIS)
    assert text.startswith(block.text[:-1].rstrip())
    # Cut at a word: the last one is whole.
    assert block.text[:-1].rstrip().endswith("word")


def test_ten_thousand_characters_cost_what_a_long_title_does(shipped: Fonts) -> None:
    block = title("x" * 10_000, shipped.bold)
    assert len(block.lines) == TITLE_LINES
    assert len(block.text) < 200
    assert block.text.endswith(ELLIPSIS)


def test_an_emoji_sequence_is_never_cut_in_the_middle(every_script: Fonts) -> None:
    family = "👨\u200d👩\u200d👧"
    block = title(family * 300, every_script.bold)
    assert block.text.endswith(ELLIPSIS)
    body = block.text[:-1]
    assert clusters(body) == [family] * len(clusters(body))


def test_cjk_wraps_between_characters(every_script: Fonts) -> None:
    text = "共有キャッシュでビルド時間を半分にした方法について詳しく説明します"
    block = title(text, every_script.bold)
    assert block.text == text
    assert len(block.lines) >= 1
    # Every line is drawn by the CJK face, which is not the shipped one.
    assert all(run.face != 0 for line in block.lines for run in line.runs)


def test_a_right_to_left_title_is_marked_so(every_script: Fonts) -> None:
    assert title("مرحبا بالعالم", every_script.bold).rtl
    assert title("שלום עולם", every_script.bold).rtl
    assert not title("Hello שלום", every_script.bold).rtl


def test_characters_no_font_has_are_left_out_and_named(shipped: Fonts) -> None:
    # (Arabic and Hebrew ship with the package: see test_scripts.py.)
    block = title("Notes 日本 हिन्दी", shipped.bold)
    assert block.text == "Notes"
    assert set(block.missing) == set("日本हिन्दी")


def test_an_empty_title_has_no_lines(shipped: Fonts) -> None:
    block = title("", shipped.bold)
    assert block.lines == ()
    assert block.text == ""
