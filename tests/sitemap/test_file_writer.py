"""The file writer: fed entry by entry, within each file's limits."""

from __future__ import annotations

import gzip
import zlib

from lxml import etree

from flask_marmeon.sitemap.addresses import Addresses
from flask_marmeon.sitemap.file_writer import UrlsetWriter
from flask_marmeon.sitemap.xml import sitemap_index, url_elements

from .conftest import SM


def write(elements: list[str], **kwargs: object) -> UrlsetWriter:
    writer = UrlsetWriter(**kwargs)  # type: ignore[arg-type]
    for text in elements:
        writer.add(
            text,
            text.count("<url>"),
            None,
            "<xhtml:link" in text,
            "<image:image>" in text,
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


def test_an_empty_sitemap_is_valid(urlset_schema: etree.XMLSchema) -> None:
    (file,) = UrlsetWriter(10, split=False).finish()
    urlset_schema.assertValid(etree.fromstring(file.body))
    assert file.urls == 0


def test_a_file_takes_entries_while_its_bytes_allow() -> None:
    element = url_elements(Addresses(("https://n.example/" + "x" * 100,)), None)
    # Room is kept for the largest head and tail a file can have.
    writer = UrlsetWriter(100, max_bytes=len(element) * 2 + 250, split=False)
    assert writer.add(element, 1, None, False, False)
    assert writer.add(element, 1, None, False, False)
    assert not writer.add(element, 1, None, False, False)
    assert writer.full and writer.over.urls == 1
    (file,) = writer.finish()
    assert file.urls == 2 and len(file.body) <= len(element) * 2 + 250


def test_bytes_are_counted_encoded() -> None:
    element = url_elements(Addresses(("https://n.example/" + "\u00e9" * 50,)), None)
    size = len(element.encode())
    assert size > len(element)
    writer = UrlsetWriter(100, max_bytes=size * 2 + 250, split=False)
    assert writer.add(element, 1, None, False, False)
    assert writer.add(element, 1, None, False, False)
    assert not writer.add(element, 1, None, False, False)


def test_an_entry_larger_than_any_file_is_left_out_alone() -> None:
    small = url_elements(Addresses(("https://n.example/a",)), None)
    big = url_elements(Addresses(("https://n.example/" + "x" * 900,)), None)
    writer = UrlsetWriter(100, max_bytes=len(small) * 3 + 250, split=True)
    assert writer.add(small, 1, None, False, False)
    assert writer.add(big, 1, None, False, False)  # left out, writing goes on
    assert writer.add(small, 1, None, False, False)
    files = writer.finish()
    assert [f.urls for f in files] == [2] and writer.over.urls == 1


def test_split_starts_a_new_file_with_its_own_latest_lastmod(
    urlset_schema: etree.XMLSchema, index_schema: etree.XMLSchema
) -> None:
    writer = UrlsetWriter(2, split=True)
    for day in (3, 1, 2, 9, 5):
        when = f"2024-01-0{day}"
        text = url_elements(Addresses((f"https://n.example/{day}",)), when)
        assert writer.add(text, 1, when, False, False)
    files = writer.finish()
    assert [f.urls for f in files] == [2, 2, 1]
    assert [f.lastmod for f in files] == ["2024-01-03", "2024-01-09", "2024-01-05"]
    for file in files:
        urlset_schema.assertValid(etree.fromstring(file.body))
    index = etree.fromstring(
        sitemap_index(
            (f"https://n.example/blog/sitemap-{n}.xml", file.lastmod)
            for n, file in enumerate(files, start=1)
        )
    )
    index_schema.assertValid(index)
    assert [loc.text for loc in index.iter(f"{SM}loc")] == [
        f"https://n.example/blog/sitemap-{n}.xml" for n in (1, 2, 3)
    ]
    assert [m.text for m in index.iter(f"{SM}lastmod")] == [
        "2024-01-03",
        "2024-01-09",
        "2024-01-05",
    ]


#: 1,500 plain <url>s (more than a batch), and one with a language link.
PLAIN = [
    url_elements(Addresses((f"https://n.example/{n}",)), "2024-01-02")
    for n in range(1500)
]
LINKED = url_elements(
    Addresses(("https://n.example/en/a",), (("en", "https://n.example/en/a"),)), None
)


def test_a_namespace_first_needed_after_the_first_batch_is_declared(
    urlset_schema: etree.XMLSchema,
) -> None:
    # The file's opening is written with its first batch of entries (a few
    # hundred); an entry after that which needs another namespace still
    # gets it declared, and nothing else of the file changes.
    pictured = url_elements(
        Addresses(("https://n.example/b",)), None, ["https://n.example/b.png"]
    )
    for late, declared in ((LINKED, {"xhtml"}), (pictured, {"image"})):
        (file,) = write([*PLAIN, late], max_urls=5000, split=False).finish()
        root = etree.fromstring(file.body)
        assert set(root.nsmap) - {None} == declared
        urlset_schema.assertValid(root)
        (alone,) = write(PLAIN, max_urls=5000, split=False).finish()
        assert file.body.endswith(late.encode() + b"</urlset>\n")
        start = alone.body.index(b"<url>")
        assert file.body[file.body.index(b"<url>") :].startswith(
            alone.body[start : -len(b"</urlset>\n")]
        )
        assert file.urls == 1501


def test_a_packed_file_is_the_same_file_compressed_as_it_is_written() -> None:
    # packed (what the caches keep): each batch is compressed as it is
    # encoded, and the file is the plain writer's, byte for byte, gzipped
    # as one gzip member at level 6, mtime 0; a namespace first needed
    # after the first batch rewrites the opening of the compressed file.
    for elements, limits in (
        ([], {}),
        (PLAIN, {}),
        ([*PLAIN, LINKED], {}),
        ([LINKED, *PLAIN], {}),
        ([*PLAIN, LINKED], {"max_urls": 700}),
    ):
        kwargs: dict[str, object] = {"max_urls": 5000, "split": False, **limits}
        files = write(elements, **kwargs).finish()
        packed = write(elements, packed=True, **kwargs).finish()
        assert [f.urls for f in packed] == [f.urls for f in files]
        for file, kept in zip(files, packed, strict=True):
            assert kept.gzipped and not file.gzipped
            # The bytes of one gzip member of the whole XML at level 6 (zlib's
            # header: gzip.compress's OS byte differs between Pythons).
            whole = zlib.compressobj(6, zlib.DEFLATED, 31)
            assert kept.data == whole.compress(file.body) + whole.flush()
            assert gzip.decompress(kept.data) == file.body
            assert kept.body == file.body and kept.packed == file.packed
            assert kept.lastmod == file.lastmod
            etree.fromstring(kept.body)
