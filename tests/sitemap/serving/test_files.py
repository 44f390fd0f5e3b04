"""A build's files: the strong ETag worked out from the bytes alone."""

from __future__ import annotations

import re

import pytest

from flask_marmeon.sitemap.serving.files import Files, file_tag
from flask_marmeon.sitemap.serving.ttl_cache import SitemapCache

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
