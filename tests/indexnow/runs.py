"""A run of submit_changed() as the IndexNow tests drive it: a settable
clock, and the first run that only sets the watermark."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from pathlib import Path

from flask import Flask

from flask_marmeon.indexnow import submit_changed
from flask_marmeon.indexnow.watermark import read_watermark
from tests.indexnow.conftest import Store, make_site
from tests.indexnow.endpoint import Endpoint

NOW = datetime(2026, 12, 3, 10, 0, tzinfo=timezone.utc)
#: A change after the first run's watermark (NOW).
CHANGED = NOW + timedelta(minutes=5)
#: A --since before any change.
OLD_ENOUGH = NOW - timedelta(days=1)


class Clock:
    """The run's clock: `now` is settable, `sleep` records and moves it."""

    def __init__(self, moment: datetime = NOW) -> None:
        self.moment = moment
        self.slept: list[float] = []

    def now(self) -> float:
        return self.moment.timestamp()

    def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.moment += timedelta(seconds=seconds)


def first_run(
    tmp_path: Path,
    store: Store,
    endpoint: Endpoint,
    clock: Clock,
    app: Flask | None = None,
) -> Flask:
    app = app or make_site(tmp_path, store, endpoint.url)
    done = submit_changed(app, sleep=clock.sleep, now=clock.now)
    assert done.first_run and done.urls == () and done.moved
    assert endpoint.received == []
    assert read_watermark(app) == NOW
    return app
