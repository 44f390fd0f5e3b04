"""The example app tells IndexNow what changed: its key, and `flask marmeon
indexnow` run against a local endpoint (issue 30)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timezone
from pathlib import Path

import pytest
from flask import Flask

from example_app import create_app
from example_app.models import Note, db
from tests.indexnow.endpoint import Endpoint, serve


@pytest.fixture
def endpoint() -> Iterator[Endpoint]:
    yield from serve()


def test_the_key_is_served(site: Flask) -> None:
    key = site.config["MARMEON_INDEXNOW_KEY"]
    response = site.test_client().get(f"/{key}.txt")
    assert response.status_code == 200 and response.text == key
    assert "Set-Cookie" not in response.headers


def test_the_command_sends_the_changed_note(tmp_path: Path, endpoint: Endpoint) -> None:
    site = create_app(
        {"TESTING": True, "MARMEON_INDEXNOW_ENDPOINT": endpoint.url},
        instance_path=tmp_path / "instance",
    )
    runner = site.test_cli_runner()
    first = runner.invoke(args=["marmeon", "indexnow"])
    assert first.exit_code == 0, first.output
    assert "First run" in first.output and endpoint.received == []
    with site.app_context():
        note = db.session.scalars(db.select(Note).order_by(Note.id)).first()
        assert note is not None
        note_id = note.id
        note.updated_at = datetime.now(timezone.utc).replace(tzinfo=None)
        db.session.commit()
    result = runner.invoke(args=["marmeon", "indexnow"])
    assert result.exit_code == 0, result.output
    origin = site.config["APP_URL"].rstrip("/")
    (got,) = endpoint.received
    # The note, and the list, whose entry is the latest note's change.
    assert got.body["urlList"] == [f"{origin}/", f"{origin}/notes/{note_id}"]
    key = site.config["MARMEON_INDEXNOW_KEY"]
    assert got.body["key"] == key
    assert got.body["keyLocation"] == f"{origin}/{key}.txt"
    assert "sent 2 URL(s) in 1 request(s)" in result.output
    # Accepted: the next run has nothing to send.
    again = runner.invoke(args=["marmeon", "indexnow"])
    assert again.exit_code == 0 and "nothing to send" in again.output
    assert len(endpoint.received) == 1
