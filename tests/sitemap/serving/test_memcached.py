"""The sitemap shared through a real memcached: a file over memcached's item
size is shared whole by two servers. (Four workers building once: in
test_shared_store.py, for Redis and memcached alike.)"""

from __future__ import annotations

import gzip
from collections.abc import Iterator
from pathlib import Path

import pytest
from lxml import etree

from flask_marmeon.sitemap.serving.shared_store import CHUNK

from ..conftest import Start
from ..servers import MemcachedServer, builds, on_both


@pytest.fixture
def memcached() -> Iterator[MemcachedServer]:
    server = MemcachedServer()
    yield server
    server.stop()


def test_two_servers_sharing_one_memcached_serve_one_file_of_many_chunks(
    memcached: MemcachedServer, start: Start, tmp_path: Path
) -> None:
    # 30,000 URLs: about 1.5 MB of XML, three keys of at most CHUNK bytes (a
    # memcached item holds 1 MB by default).
    one = start(workers=2, memcached=memcached.address, urls=30_000)
    two = start(workers=2, memcached=memcached.address, urls=30_000)
    results = on_both(one, two, 8)
    assert builds(tmp_path) == 1
    assert len(results) == 16
    assert {status for status, _, _ in results} == {200}
    bodies = {body for _, _, body in results}
    assert len(bodies) == 1
    (body,) = bodies
    assert len(body) > 2 * CHUNK
    root = etree.fromstring(body)
    assert len(root) == 30_000
    assert root[-1][0].text == "https://notes.example/n/30000"
    # The gzip made once per build is the same file.
    status, headers, zipped = two.get(
        "/sitemap.xml", headers={"Accept-Encoding": "gzip"}
    )
    assert status == 200 and headers["Content-Encoding"] == "gzip"
    assert gzip.decompress(zipped) == body
