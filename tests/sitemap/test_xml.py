"""The XML writer: one way to write a <url>, escaping, namespaces, the index."""

from __future__ import annotations

from lxml import etree

from flask_marmeon.sitemap.addresses import Addresses
from flask_marmeon.sitemap.shortcut import Shortcut
from flask_marmeon.sitemap.xml import (
    IMAGE_NS,
    escape,
    url_elements,
    value_pieces,
)

from .conftest import SM, XHTML

XHTML_NS = "http://www.w3.org/1999/xhtml"
IMAGE = f"{{{IMAGE_NS}}}"


def test_escape_writes_all_five_entities() -> None:
    assert escape("& < > \" '") == "&amp; &lt; &gt; &quot; &apos;"
    assert escape("plain") == "plain"


def test_text_and_attributes_come_back_unchanged() -> None:
    tricky = "https://n.example/a&b='c'\"<d>\""
    element = url_elements(
        Addresses((tricky,), (("en", tricky),)), "2024-01-01", [tricky]
    )
    assert "&amp;" in element and "&apos;" in element and "&quot;" in element
    root = etree.fromstring(
        f'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"'
        f' xmlns:xhtml="{XHTML_NS}" xmlns:image="{IMAGE_NS}">{element}</urlset>'
    )
    assert root.findtext(f"{SM}url/{SM}loc") == tricky
    link = root.find(f"{SM}url/{XHTML}link")
    assert link is not None and link.get("href") == tricky
    assert root.findtext(f"{SM}url/{IMAGE}image/{IMAGE}loc") == tricky


def test_every_version_lists_the_lastmod_links_and_images_in_order() -> None:
    links = (("en", "https://n.example/en/a"), ("x-default", "https://n.example/a"))
    text = url_elements(
        Addresses(("https://n.example/en/a", "https://n.example/de/a"), links),
        "2024-02-03",
        ["https://n.example/i.png"],
    )
    root = etree.fromstring(
        f'<u xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"'
        f' xmlns:xhtml="{XHTML_NS}" xmlns:image="{IMAGE_NS}">{text}</u>'
    )
    urls = root.findall(f"{SM}url")
    assert [url.findtext(f"{SM}loc") for url in urls] == [
        "https://n.example/en/a",
        "https://n.example/de/a",
    ]
    for url in urls:
        assert [child.tag for child in url] == [
            f"{SM}loc",
            f"{SM}lastmod",
            f"{XHTML}link",
            f"{XHTML}link",
            f"{IMAGE}image",
        ]


def test_the_plans_pieces_are_the_one_writers_text() -> None:
    plan = Shortcut(
        name="n",
        kind=int,
        bound=10**9,
        taken=frozenset(),
        versions=(("en", "/en/n/"), ("de-AT", "/de-at/n/")),
        after="/x",
        default="/n/",
    )
    base = "https://n.example/blog"
    for day in (None, "2024-05-06"):
        joined = "42".join(value_pieces(base, plan, day))
        locs = (f"{base}/en/n/42/x", f"{base}/de-at/n/42/x")
        tags = ("en", "de-AT")
        alternates = (*zip(tags, locs, strict=True), ("x-default", f"{base}/n/42/x"))
        assert joined == url_elements(Addresses(locs, alternates), day)


def test_an_image_without_its_loc_is_invalid(urlset_schema: etree.XMLSchema) -> None:
    # The schema really checks the extension's elements.
    root = etree.fromstring(
        f'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"'
        f' xmlns:image="{IMAGE_NS}"><url><loc>https://n.example/a</loc>'
        "<image:image><image:title>x</image:title></image:image></url></urlset>"
    )
    assert not urlset_schema.validate(root)
