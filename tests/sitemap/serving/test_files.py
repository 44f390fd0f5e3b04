"""A build's files: the strong ETag worked out from the bytes alone, and
the build's own bytes sent first while the gzip form that is kept is made."""

from __future__ import annotations

import gzip
import re
import threading

import pytest

from flask_marmeon.sitemap.serving import files as files_module
from flask_marmeon.sitemap.serving.cache import SitemapCache
from flask_marmeon.sitemap.serving.files import Files, file_tag

BODY = b'<?xml version="1.0" encoding="UTF-8"?>\n<urlset>' + b"<url/>" * 1000


def test_the_same_bytes_get_the_same_tag_in_any_build() -> None:
    # Every process that serves the same build sends the same tag.
    first = Files((BODY,), built_at=1.0)
    second = Files((bytes(bytearray(BODY)),), built_at=2.0)
    assert first.etag(0) == second.etag(0) == file_tag(BODY)
    assert re.fullmatch(r"[0-9a-f]{8}-[0-9a-f]+", file_tag(BODY))


def test_any_change_of_the_bytes_changes_the_tag() -> None:
    tags = {file_tag(BODY)}
    # Each single byte changed, in turn, and the length changed both ways.
    changed = [
        BODY[:at] + bytes([BODY[at] ^ bit]) + BODY[at + 1 :]
        for at in range(0, len(BODY), 97)
        for bit in (1, 0x80)
    ]
    changed += [BODY + b" ", BODY[:-1], b"", BODY.replace(b"<url/>", b"<url />", 1)]
    for body in changed:
        tags.add(file_tag(body))
    assert len(tags) == 1 + len(changed)


def test_each_file_of_a_build_has_its_own_tag() -> None:
    files = Files((b"index", BODY, BODY + b"\n"), built_at=1.0)
    assert len({files.etag(number) for number in range(3)}) == 3


def test_the_tags_are_made_by_the_refreshing_thread_not_by_a_request(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The cache's thread makes the files, tags included: the first request
    # after a rebuild gets its tag without hashing 4 MB itself.
    cache = SitemapCache(lambda: (BODY, BODY + b"\n"), ttl=60, retry_after=5)
    files = cache.get().value
    assert files is not None
    expected = [file_tag(BODY), file_tag(BODY + b"\n")]

    def hashing(body: bytes) -> str:
        raise AssertionError("a tag made on a request's path")

    monkeypatch.setattr("flask_marmeon.sitemap.serving.files.file_tag", hashing)
    assert [files.etag(0), files.etag(1)] == expected


def test_a_builds_own_files_and_the_form_kept_are_the_same_files() -> None:
    own = Files.unpacked((b"index", BODY), built_at=3.0)
    kept = own.packed_form()
    assert kept.given == ()  # only the compressed form stays
    assert kept.built_at == own.built_at
    for number in (0, 1):
        assert own.etag(number) == kept.etag(number)
        assert own.body(number) == kept.body(number)
        assert gzip.decompress(own.gzipped(number)) == own.body(number)
        assert own.gzipped(number) == kept.gzipped(number)
    assert [own.has(n) for n in range(4)] == [kept.has(n) for n in range(4)]
    assert own.bodies == kept.bodies == (b"index", BODY)
    assert kept.size < own.size


def test_the_requests_that_waited_get_the_builds_own_bytes_and_gzip_is_kept(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Compressing a file is a third of a cold request: the requests that
    # waited for the build are sent its bytes first, and what is kept is
    # the gzip form, made right after by the same thread.
    packing = threading.Event()
    go_on = threading.Event()
    real_pack = files_module.pack

    def held_pack(body: bytes) -> bytes:
        packing.set()
        assert go_on.wait(10)
        return real_pack(body)

    monkeypatch.setattr(files_module, "pack", held_pack)
    cache = SitemapCache(lambda: (BODY,), ttl=60, retry_after=5)
    sent = cache.get().value
    assert sent is not None and sent.body(0) == BODY
    assert packing.wait(10)
    go_on.set()
    assert cache.join(10)
    kept = cache.get().value
    assert kept is not None and kept.given == () and kept.body(0) == BODY
    assert kept.etag(0) == sent.etag(0) == file_tag(BODY)


def test_a_clear_while_the_build_is_compressed_is_not_undone(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    packing = threading.Event()
    go_on = threading.Event()
    real_pack = files_module.pack

    def held_pack(body: bytes) -> bytes:
        packing.set()
        assert go_on.wait(10)
        return real_pack(body)

    monkeypatch.setattr(files_module, "pack", held_pack)
    cache = SitemapCache(lambda: (BODY,), ttl=60, retry_after=5)
    assert cache.get().value is not None
    assert packing.wait(10)
    cache.clear()
    go_on.set()
    assert cache.join(10)
    # The compressed form does not bring back what clear() forgot: the
    # next request gets a new build.
    assert cache._value is None
    assert cache.get().value is not None
    assert cache.join(10) and cache.builds == 2


def test_each_file_is_compressed_once_whoever_asks_first(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Crawlers that take gzip and arrive while the kept form is being made
    # share one compression with the thread that makes it.
    calls: list[bytes] = []
    real_pack = files_module.pack

    def counted(body: bytes) -> bytes:
        calls.append(body)
        return real_pack(body)

    monkeypatch.setattr(files_module, "pack", counted)
    own = Files.unpacked((b"index", BODY), built_at=1.0)
    asked = [threading.Thread(target=own.gzipped, args=(1,)) for _ in range(8)]
    for thread in asked:
        thread.start()
    kept = own.packed_form()
    for thread in asked:
        thread.join(10)
    assert sorted(calls) == sorted([b"index", BODY])
    assert kept.gzipped(1) is own.gzipped(1)
