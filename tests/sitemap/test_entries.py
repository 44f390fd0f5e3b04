"""SitemapEntry and its dict form: one shape, normalised once."""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest

from flask_marmeon import SitemapEntry
from flask_marmeon.sitemap.entries import normalize

WHERE = "the route '/n/<int:n>' (endpoint 'n')"


def test_the_dict_form_is_the_same_entry() -> None:
    made = SitemapEntry(
        {"n": 1}, date(2024, 1, 2), locales=["en"], images=("/a.png", "/b.png")
    )
    given = {
        "params": {"n": 1},
        "last_modified": date(2024, 1, 2),
        "locales": ("en",),
        "images": ["/a.png", "/b.png"],
    }
    assert normalize(given, WHERE) == made
    assert made.locales == ("en",) and made.images == ("/a.png", "/b.png")
    assert normalize(made, WHERE) is made


def test_the_defaults() -> None:
    entry = SitemapEntry()
    assert entry == SitemapEntry({}, None, None, None)
    assert (entry.params, entry.last_modified, entry.locales, entry.images) == (
        {},
        None,
        None,
        None,
    )
    assert normalize({"params": {"n": 2}}, WHERE) == SitemapEntry({"n": 2})


def test_locales_and_images_are_taken_from_any_iterable_once() -> None:
    # A generator is read once, into a tuple that the entry keeps.
    entry = SitemapEntry({}, locales=(tag for tag in ["en", "de-AT"]))
    assert entry.locales == ("en", "de-AT")
    assert SitemapEntry({}, locales=[]).locales == ()


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"locales": "en"}, r"locales must be a list of strings, such as locales=\["),
        ({"images": "/a.png"}, r"images must be a list of strings"),
        ({"locales": ["en", 3]}, r"holds 3; each item must be a string"),
        ({"images": [b"/a.png"]}, r"holds b'/a.png'"),
        ({"images": 5}, r"SitemapEntry\(images=5\)"),
    ],
)
def test_a_wrong_type_raises_where_the_entry_is_made(
    arguments: dict[str, Any], message: str
) -> None:
    with pytest.raises(TypeError, match=message):
        SitemapEntry({"n": 1}, **arguments)


def test_the_dict_form_names_the_route_and_the_right_spelling() -> None:
    with pytest.raises(TypeError, match=r"'image'.*Did you mean 'images'\?"):
        normalize({"params": {}, "image": "/a.png"}, WHERE)
    with pytest.raises(TypeError, match=r"'locale'.*Did you mean 'locales'\?"):
        normalize({"params": {}, "locale": "en"}, WHERE)
    with pytest.raises(TypeError, match=r"of the route '/n/<int:n>'.*locales must"):
        normalize({"params": {}, "locales": "en"}, WHERE)
    with pytest.raises(TypeError, match="params must be a dict"):
        normalize({"params": [1]}, WHERE)


def test_a_message_never_quotes_a_huge_value() -> None:
    with pytest.raises(TypeError) as raised:
        normalize("x" * 1_000_000, WHERE)
    assert len(str(raised.value)) < 300


def test_an_entry_is_read_only_and_has_no_dict() -> None:
    plain = SitemapEntry({"n": 1}, date(2024, 1, 2))
    given = SitemapEntry({"n": 1}, locales=["en"], images=["/a.png"])
    for entry in (plain, given):
        for name in ("params", "last_modified", "locales", "images"):
            with pytest.raises(AttributeError):
                setattr(entry, name, None)
        assert not hasattr(entry, "__dict__")
    assert (given.locales, given.images) == (("en",), ("/a.png",))
    assert repr(given) == (
        "SitemapEntry(params={'n': 1}, last_modified=None, locales=('en',),"
        " images=('/a.png',))"
    )


def test_only_an_entry_without_locales_or_images_is_exactly_a_sitemap_entry() -> None:
    # The build's fast path takes exactly SitemapEntry: an entry given
    # locales or images (even empty ones) must go the general way.
    assert type(SitemapEntry({"n": 1}, date(2024, 1, 2))) is SitemapEntry
    for more in ({"locales": []}, {"images": ()}, {"locales": ["en"]}):
        entry = SitemapEntry({"n": 1}, **more)
        assert isinstance(entry, SitemapEntry) and type(entry) is not SitemapEntry
        assert type(normalize({"params": {"n": 1}, **more}, WHERE)) is type(entry)
    assert SitemapEntry({"n": 1}, locales=[]) != SitemapEntry({"n": 1})


def test_a_subclass_keeps_its_class_and_its_values() -> None:
    class Page(SitemapEntry):
        __slots__ = ()

    page = Page({"n": 1}, locales=["en"])
    assert type(page) is Page
    assert page == SitemapEntry({"n": 1}, locales=("en",))
    assert page.locales == ("en",) and page.images is None
