"""The XML writer: one way to write a <url>, escaping, namespaces, the index."""

from __future__ import annotations

from lxml import etree

from flask_marmeon.sitemap.addresses import Addresses
from flask_marmeon.sitemap.plan import ValuePlan
from flask_marmeon.sitemap.xml import (
    IMAGE_NS,
    UrlsetWriter,
    escape,
    sitemap_index,
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
    plan = ValuePlan(
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


def write(elements: list[str], **kwargs: object) -> UrlsetWriter:
    writer = UrlsetWriter(**kwargs)  # type: ignore[arg-type]
    for text in elements:
        writer.extend(
            text.encode(),
            text.count("<url>"),
            None,
            xhtml="<xhtml:link" in text,
            images="<image:image>" in text,
        )
    return writer


def test_namespaces_are_declared_only_when_used(urlset_schema: etree.XMLSchema) -> None:
    plain = url_elements(Addresses(("https://n.example/a",)), None)
    linked = url_elements(
        Addresses(("https://n.example/en/a",), (("en", "https://n.example/en/a"),)),
        None,
    )
    pictured = url_elements(
        Addresses(("https://n.example/b",)), None, ["https://n.example/b.png"]
    )
    for elements, declared in (
        ([plain], set()),
        ([plain, linked], {"xhtml"}),
        ([pictured], {"image"}),
        ([linked, plain, pictured], {"xhtml", "image"}),
    ):
        (file,) = write(elements, max_urls=10, split=False).finish()
        root = etree.fromstring(file.body)
        assert set(root.nsmap) - {None} == declared
        for prefix in ("xhtml", "image"):
            assert (f"xmlns:{prefix}".encode() in file.body) is (prefix in declared)
        urlset_schema.assertValid(root)


def test_an_image_without_its_loc_is_invalid(urlset_schema: etree.XMLSchema) -> None:
    # The schema really checks the extension's elements.
    root = etree.fromstring(
        f'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"'
        f' xmlns:image="{IMAGE_NS}"><url><loc>https://n.example/a</loc>'
        "<image:image><image:title>x</image:title></image:image></url></urlset>"
    )
    assert not urlset_schema.validate(root)


def test_an_empty_sitemap_is_valid(urlset_schema: etree.XMLSchema) -> None:
    (file,) = UrlsetWriter(10, split=False).finish()
    urlset_schema.assertValid(etree.fromstring(file.body))
    assert file.urls == 0


def test_room_counts_the_whole_file() -> None:
    element = url_elements(Addresses(("https://n.example/" + "x" * 100,)), None)
    # The room keeps space for the largest head and tail a file can have.
    writer = UrlsetWriter(100, max_bytes=len(element) * 2 + 250, split=False)
    urls, room = writer.room()
    assert urls == 100 and 2 * len(element) <= room < 3 * len(element)
    writer.extend(element.encode() * 2, 2, None)
    assert writer.room() == (98, room - 2 * len(element))
    (file,) = writer.finish()
    assert len(file.body) <= len(element) * 2 + 250


def test_split_starts_a_new_file_with_its_own_latest_lastmod(
    urlset_schema: etree.XMLSchema, index_schema: etree.XMLSchema
) -> None:
    writer = UrlsetWriter(2, split=True)
    for day in (3, 1, 2, 9, 5):
        when = f"2024-01-0{day}"
        if writer.room()[0] == 0:
            assert writer.next_file()
        text = url_elements(Addresses((f"https://n.example/{day}",)), when)
        writer.extend(text.encode(), 1, when)
    files = writer.finish()
    assert [f.urls for f in files] == [2, 2, 1]
    assert [f.lastmod for f in files] == ["2024-01-03", "2024-01-09", "2024-01-05"]
    for file in files:
        urlset_schema.assertValid(etree.fromstring(file.body))
    index = etree.fromstring(sitemap_index("https://n.example/blog", files))
    index_schema.assertValid(index)
    assert [loc.text for loc in index.iter(f"{SM}loc")] == [
        f"https://n.example/blog/sitemap-{n}.xml" for n in (1, 2, 3)
    ]
    assert [m.text for m in index.iter(f"{SM}lastmod")] == [
        "2024-01-03",
        "2024-01-09",
        "2024-01-05",
    ]
