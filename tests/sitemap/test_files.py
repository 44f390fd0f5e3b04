"""A build's files: the strong ETag worked out from the bytes alone."""

from __future__ import annotations

import re

from flask_marmeon.sitemap.files import Files, file_tag

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
