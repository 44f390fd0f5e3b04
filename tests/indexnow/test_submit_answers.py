"""What submit_changed() does with each answer of the IndexNow endpoint
(issue 30): Retry-After honoured, retries bounded, refusals and a refused
connection stopping the run with what they mean, the watermark kept."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

from flask_marmeon.indexnow import submit_changed
from flask_marmeon.indexnow.watermark import read_watermark
from tests.indexnow.conftest import Store, make_site
from tests.indexnow.endpoint import Endpoint, refused_url
from tests.indexnow.runs import CHANGED, NOW, OLD_ENOUGH, Clock, first_run


def test_429_waits_for_retry_after_then_sends_again(
    tmp_path: Path, store: Store, endpoint: Endpoint
) -> None:
    app = first_run(tmp_path, store, endpoint, Clock())
    store.notes[1] = CHANGED
    endpoint.answer((429, {"Retry-After": "7"}), (503, {}), 200)
    clock = Clock(NOW + timedelta(hours=1))
    began = clock.moment
    done = submit_changed(app, sleep=clock.sleep, now=clock.now)
    assert done.accepted and len(endpoint.received) == 3
    # Retry-After's 7 s, then (none given) the second try's growing delay.
    assert clock.slept == [7.0, 4.0]
    assert read_watermark(app) == began  # when the run began


def test_retry_after_as_a_date(
    tmp_path: Path, store: Store, endpoint: Endpoint
) -> None:
    app = make_site(tmp_path, store, endpoint.url)
    clock = Clock()
    when = (NOW + timedelta(seconds=30)).strftime("%a, %d %b %Y %H:%M:%S GMT")
    endpoint.answer((503, {"Retry-After": when}), 200)
    store.notes[1] = CHANGED
    done = submit_changed(app, since=OLD_ENOUGH, sleep=clock.sleep, now=clock.now)
    assert done.accepted and clock.slept == [30.0]


def test_retries_are_bounded_and_the_watermark_stays(
    tmp_path: Path, store: Store, endpoint: Endpoint
) -> None:
    app = first_run(tmp_path, store, endpoint, Clock())
    store.notes[1] = CHANGED
    endpoint.answer(503)
    clock = Clock(NOW + timedelta(hours=1))
    done = submit_changed(app, sleep=clock.sleep, now=clock.now)
    assert not done.accepted and not done.moved
    assert len(endpoint.received) == 5
    assert clock.slept == [2.0, 4.0, 8.0, 16.0]
    assert "503" in done.answers[-1].message and "5 tries" in done.answers[-1].message
    assert read_watermark(app) == NOW


def test_a_retry_after_too_long_stops_the_run(
    tmp_path: Path, store: Store, endpoint: Endpoint
) -> None:
    app = make_site(tmp_path, store, endpoint.url)
    store.notes[1] = CHANGED
    endpoint.answer((429, {"Retry-After": "3600"}))
    clock = Clock()
    done = submit_changed(app, since=OLD_ENOUGH, sleep=clock.sleep, now=clock.now)
    assert not done.accepted and clock.slept == [] and len(endpoint.received) == 1
    assert "3600 s" in done.answers[0].message


@pytest.mark.parametrize(
    ("status", "meaning"),
    [
        (400, "Bad request"),
        (403, "key is not valid"),
        (422, "URLs of another host"),
    ],
)
def test_refusals_stop_the_run_and_say_what_they_mean(
    tmp_path: Path, store: Store, endpoint: Endpoint, status: int, meaning: str
) -> None:
    app = first_run(tmp_path, store, endpoint, Clock())
    store.notes = {n: CHANGED for n in range(1, 10_002)}  # two requests' worth
    endpoint.answer(status)
    clock = Clock(NOW + timedelta(hours=1))
    done = submit_changed(app, sleep=clock.sleep, now=clock.now)
    assert not done.accepted and clock.slept == []
    assert len(endpoint.received) == 1  # stopped at the first refusal
    assert f"answered {status}" in done.answers[0].message
    assert meaning in done.answers[0].message
    assert read_watermark(app) == NOW
    result = app.test_cli_runner().invoke(args=["marmeon", "indexnow"])
    assert result.exit_code == 1
    assert f"answered {status}" in result.output and meaning in result.output
    assert "Traceback" not in result.output


def test_a_refused_connection_is_one_line(tmp_path: Path, store: Store) -> None:
    app = make_site(tmp_path, store, refused_url())
    store.notes[1] = CHANGED
    result = app.test_cli_runner().invoke(
        args=["marmeon", "indexnow", "--since", "2026-12-01"]
    )
    assert result.exit_code == 1
    assert "could not be reached" in result.output
    assert (
        "Traceback" not in result.output
        and result.exception is None
        or (isinstance(result.exception, SystemExit))
    )
    assert read_watermark(app) is None
