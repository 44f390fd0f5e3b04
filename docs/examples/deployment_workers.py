"""Deployment: each process builds and keeps its own sitemap."""

from collections.abc import Iterator

from flask import Flask

from flask_marmeon import Marmeon, SitemapEntry, everyone

calls: list[str] = []


def create_app(name: str) -> Flask:
    """What each worker process runs at start (here, two in one process)."""
    app = Flask(name)
    app.config["APP_URL"] = "https://notes.example"
    Marmeon(app)

    def note_pages() -> Iterator[SitemapEntry]:
        calls.append(name)  # a query on the database, in a real app
        yield SitemapEntry(params={"note_id": 1})

    @app.get("/notes/<int:note_id>", sitemap=note_pages, authorize=everyone)
    def show(note_id: int) -> str:
        return f"Note {note_id}"

    return app


workers = [create_app("worker-1"), create_app("worker-2")]
for worker in workers:
    client = worker.test_client()
    for _ in range(3):
        assert client.get("/sitemap.xml").status_code == 200
# Three requests to each worker, one build in each: for MARMEON_SITEMAP_TTL
# seconds (300) each process answers from its own copy.
assert calls == ["worker-1", "worker-2"]
