"""The XML writer: escaping, namespaces, limits, the index."""

from __future__ import annotations

from lxml import etree

from flask_marmeon.sitemap.entries import Version
from flask_marmeon.sitemap.xml import (
    UrlsetWriter,
    escape,
    sitemap_index,
    url_element,
)

from .conftest import SM, XHTML

XHTML_NS = "http://www.w3.org/1999/xhtml"


def test_escape_writes_all_five_entities() -> None:
    assert escape("& < > \" '") == "&amp; &lt; &gt; &quot; &apos;"
    assert escape("plain") == "plain"


def test_text_and_attributes_come_back_unchanged() -> None:
    tricky = "https://n.example/a&b='c'\"<d>\""
    element = url_element(Version(tricky, (("en", tricky),)), "2024-01-01")
    assert "&amp;" in element and "&apos;" in element and "&quot;" in element
    root = etree.fromstring(
        f'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"'
        f' xmlns:xhtml="{XHTML_NS}">{element}</urlset>'
    )
    assert root.findtext(f"{SM}url/{SM}loc") == tricky
    link = root.find(f"{SM}url/{XHTML}link")
    assert link is not None and link.get("href") == tricky


def write(versions: list[list[Version]], **kwargs: object) -> UrlsetWriter:
    writer = UrlsetWriter(**kwargs)  # type: ignore[arg-type]
    for group in versions:
        writer.add([url_element(v, None) for v in group], None)
    return writer


def test_xmlns_xhtml_only_with_a_link(urlset_schema: etree.XMLSchema) -> None:
    plain = write([[Version("https://n.example/a")]], max_urls=10, split=False)
    (file,) = plain.finish()
    root = etree.fromstring(file.body)
    assert "xhtml" not in root.nsmap
    assert b"xmlns:xhtml" not in file.body
    urlset_schema.assertValid(root)

    links = (("en", "https://n.example/en/a"), ("x-default", "https://n.example/a"))
    linked = write(
        [[Version("https://n.example/b")], [Version("https://n.example/en/a", links)]],
        max_urls=10,
        split=False,
    )
    (file,) = linked.finish()
    root = etree.fromstring(file.body)
    assert root.nsmap["xhtml"] == XHTML_NS
    assert len(root.findall(f"{SM}url/{XHTML}link")) == 2
    urlset_schema.assertValid(root)


def test_an_empty_sitemap_is_valid(urlset_schema: etree.XMLSchema) -> None:
    (file,) = UrlsetWriter(10, split=False).finish()
    urlset_schema.assertValid(etree.fromstring(file.body))
    assert file.urls == 0


def test_a_group_is_written_whole_or_not_at_all() -> None:
    writer = UrlsetWriter(3, split=False)
    pair = [url_element(Version(f"https://n.example/{i}"), None) for i in range(2)]
    assert writer.add(pair, None)
    assert not writer.add(pair, None)  # one slot left: both versions stay out
    assert writer.add(pair[:1], None)
    (file,) = writer.finish()
    assert file.urls == 3


def test_the_byte_limit_counts_the_whole_file() -> None:
    element = url_element(Version("https://n.example/" + "x" * 100), None)
    writer = UrlsetWriter(100, max_bytes=len(element) * 2 + 200, split=False)
    assert writer.add_one(element, None)
    assert writer.add_one(element, None)
    assert not writer.add_one(element, None)
    (file,) = writer.finish()
    assert len(file.body) <= len(element) * 2 + 200


def test_split_starts_a_new_file_with_its_own_latest_lastmod(
    urlset_schema: etree.XMLSchema, index_schema: etree.XMLSchema
) -> None:
    writer = UrlsetWriter(2, split=True)
    for day in (3, 1, 2, 9, 5):
        when = f"2024-01-0{day}"
        writer.add_one(url_element(Version(f"https://n.example/{day}"), when), when)
    files = writer.finish()
    assert [f.urls for f in files] == [2, 2, 1]
    assert [f.lastmod for f in files] == ["2024-01-03", "2024-01-09", "2024-01-05"]
    for file in files:
        urlset_schema.assertValid(etree.fromstring(file.body))
    index = etree.fromstring(sitemap_index("https://n.example", files))
    index_schema.assertValid(index)
    assert [loc.text for loc in index.iter(f"{SM}loc")] == [
        f"https://n.example/sitemap-{n}.xml" for n in (1, 2, 3)
    ]
    assert [m.text for m in index.iter(f"{SM}lastmod")] == [
        "2024-01-03",
        "2024-01-09",
        "2024-01-05",
    ]
