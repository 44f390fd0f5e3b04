"""Deployment: every process shares one sitemap through a Flask-Caching Cache."""

import tempfile
from collections.abc import Iterator

from flask import Flask
from flask_caching import Cache

from flask_marmeon import Marmeon, SitemapEntry, everyone

calls: list[str] = []
# In production: {"CACHE_TYPE": "RedisCache", "CACHE_REDIS_URL": "redis://..."}
# (or Memcached), reached by every machine. A directory that two processes of
# one machine share shows the same here without a server.
SHARED = {"CACHE_TYPE": "FileSystemCache", "CACHE_DIR": tempfile.mkdtemp()}


def create_app(name: str) -> Flask:
    """What each worker process runs at start (here, two in one process):
    one app, one import name (the cache's keys name it)."""
    app = Flask("notes")
    app.config["APP_URL"] = "https://notes.example"
    Marmeon(app, sitemap_cache=Cache(app, config=SHARED))

    def note_pages() -> Iterator[SitemapEntry]:
        calls.append(name)  # a query on the database, in a real app
        yield SitemapEntry(params={"note_id": 1})

    @app.get("/notes/<int:note_id>", sitemap=note_pages, authorize=everyone)
    def show(note_id: int) -> str:
        return f"Note {note_id}"

    return app


answers = []
for worker in (create_app("worker-1"), create_app("worker-2")):
    client = worker.test_client()
    for _ in range(3):
        response = client.get("/sitemap.xml", headers={"Accept-Encoding": "gzip"})
        assert response.status_code == 200
        assert response.headers["Content-Encoding"] == "gzip"
        answers.append(response)
# One build for both workers, and the same file (the same ETag) from each:
# a crawler behind a load balancer sees one sitemap.
assert calls == ["worker-1"]
assert len({response.headers["ETag"] for response in answers}) == 1
# A crawler that has the file is told it has not changed.
etag = answers[0].headers["ETag"]
again = (
    create_app("worker-3")
    .test_client()
    .get("/sitemap.xml", headers={"Accept-Encoding": "gzip", "If-None-Match": etag})
)
assert again.status_code == 304
assert calls == ["worker-1"]
