"""submit_changed() and `flask marmeon indexnow` against a local endpoint
(issue 30): what is sent, when the watermark moves, each answer."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from flask import Flask

from flask_marmeon import Marmeon
from flask_marmeon.indexnow import IndexNowError, submit_changed
from flask_marmeon.indexnow.watermark import FILE_NAME, read_watermark
from tests.indexnow.conftest import KEY, ORIGIN, Store, make_site
from tests.indexnow.endpoint import Endpoint, refused_url
from tests.indexnow.runs import CHANGED, NOW, OLD_ENOUGH, Clock, first_run
from tests.sitemap.servers import RedisServer


def test_the_first_run_sends_nothing_and_sets_the_watermark(
    tmp_path: Path, store: Store, endpoint: Endpoint
) -> None:
    app = first_run(tmp_path, store, endpoint, Clock())
    # In the instance folder, without a shared cache.
    assert (tmp_path / FILE_NAME).read_text().strip() == NOW.isoformat()
    # A second run with nothing changed sends nothing either.
    later = Clock(NOW + timedelta(hours=1))
    done = submit_changed(app, sleep=later.sleep, now=later.now)
    assert done.urls == () and done.accepted and endpoint.received == []
    assert read_watermark(app) == later.moment


def test_every_changed_address_is_sent_once_with_the_key(
    tmp_path: Path, store: Store, endpoint: Endpoint
) -> None:
    app = first_run(tmp_path, store, endpoint, Clock())
    changed = NOW + timedelta(minutes=5)
    store.notes[2] = changed
    store.notes[3] = None  # no date: never sent
    store.docs["faq"] = changed.replace(tzinfo=None)  # naive: UTC
    store.articles["a017"] = changed
    store.home = changed
    later = Clock(NOW + timedelta(hours=1))
    done = submit_changed(app, sleep=later.sleep, now=later.now)
    expected = [
        f"{ORIGIN}/",
        f"{ORIGIN}/notes/2",
        f"{ORIGIN}/en/docs/faq",
        f"{ORIGIN}/de-at/docs/faq",
        f"{ORIGIN}/articles/a017",
    ]
    assert sorted(done.urls) == sorted(expected)
    assert done.accepted and done.moved
    (got,) = endpoint.received
    assert got.headers["Content-Type"] == "application/json; charset=utf-8"
    assert got.path == "/indexnow"
    assert got.body == {
        "host": "notes.example",
        "key": KEY,
        "keyLocation": f"{ORIGIN}/{KEY}.txt",
        "urlList": list(done.urls),
    }
    assert read_watermark(app) == later.moment
    # Sent: the next run has nothing new.
    again = Clock(NOW + timedelta(hours=2))
    assert submit_changed(app, sleep=again.sleep, now=again.now).urls == ()


def test_the_addresses_are_the_sitemaps(
    tmp_path: Path, store: Store, endpoint: Endpoint
) -> None:
    # Every address sent is a <loc> of the sitemap (the same code made it).
    from lxml import etree

    app = make_site(tmp_path, store, endpoint.url)
    done = submit_changed(app, since=datetime(2019, 1, 1), dry_run=True)
    client = app.test_client()
    locs: set[str] = set()
    index = etree.fromstring(client.get("/sitemap.xml").data)
    for part in index.iter("{*}loc"):
        path = part.text.removeprefix(ORIGIN)
        tree = etree.fromstring(client.get(path).data)
        locs |= {loc.text for loc in tree.iter("{*}loc")}
    dated = locs - {f"{ORIGIN}/contact"}
    assert set(done.urls) == dated and len(done.urls) == len(dated)
    assert endpoint.received == []


def test_a_mount_path_is_in_the_key_location(
    tmp_path: Path, store: Store, endpoint: Endpoint
) -> None:
    app = make_site(tmp_path, store, endpoint.url, APPLICATION_ROOT="/blog")
    store.notes[1] = CHANGED
    submit_changed(app, since=NOW - timedelta(days=1))
    (got,) = endpoint.received
    assert got.body["keyLocation"] == f"{ORIGIN}/blog/{KEY}.txt"
    assert got.body["urlList"] == [f"{ORIGIN}/blog/notes/1"]


def test_a_date_counts_as_its_whole_day(
    tmp_path: Path, store: Store, endpoint: Endpoint
) -> None:
    app = first_run(tmp_path, store, endpoint, Clock())
    store.notes[4] = NOW.date()  # changed today, at some time
    store.notes[5] = (NOW - timedelta(days=1)).date()
    later = Clock(NOW + timedelta(hours=1))
    done = submit_changed(app, sleep=later.sleep, now=later.now)
    assert done.urls == (f"{ORIGIN}/notes/4",)


@pytest.mark.parametrize("status", [200, 202])
def test_more_than_10000_go_in_several_requests(
    tmp_path: Path, store: Store, endpoint: Endpoint, status: int
) -> None:
    store.notes = {n: CHANGED for n in range(1, 10_002)}
    endpoint.answer(status)
    app = make_site(tmp_path, store, endpoint.url)
    done = submit_changed(app, since=NOW - timedelta(days=1))
    assert done.accepted
    assert [len(got.body["urlList"]) for got in endpoint.received] == [10_000, 1]
    assert len(endpoint.urls()) == len(set(endpoint.urls())) == 10_001


def test_the_command_says_how_many_urls_in_how_many_requests(
    tmp_path: Path, store: Store, endpoint: Endpoint
) -> None:
    app = make_site(tmp_path, store, endpoint.url)
    runner = app.test_cli_runner()
    first = runner.invoke(args=["marmeon", "indexnow"])
    assert first.exit_code == 0 and "First run" in first.output
    assert endpoint.received == []
    store.notes = {n: datetime.now(timezone.utc) for n in range(1, 10_002)}
    result = runner.invoke(args=["marmeon", "indexnow"])
    assert result.exit_code == 0, result.output
    assert "sent 10001 URL(s) in 2 request(s)" in result.output
    assert len(endpoint.received) == 2


def test_dry_run_prints_one_url_a_line_and_sends_nothing(
    tmp_path: Path, store: Store, endpoint: Endpoint
) -> None:
    app = first_run(tmp_path, store, endpoint, Clock())
    store.notes[2] = store.notes[3] = CHANGED
    result = app.test_cli_runner().invoke(args=["marmeon", "indexnow", "--dry-run"])
    assert result.exit_code == 0
    assert result.stdout.splitlines() == [f"{ORIGIN}/notes/2", f"{ORIGIN}/notes/3"]
    assert "nothing sent" in result.stderr
    assert endpoint.received == [] and read_watermark(app) == NOW


def test_since_overrides_the_watermark(
    tmp_path: Path, store: Store, endpoint: Endpoint
) -> None:
    app = first_run(tmp_path, store, endpoint, Clock())
    store.notes[2] = datetime(2025, 6, 1, tzinfo=timezone.utc)  # before it
    result = app.test_cli_runner().invoke(
        args=["marmeon", "indexnow", "--dry-run", "--since", "2025-05-31T00:00:00Z"]
    )
    assert result.stdout.splitlines() == [f"{ORIGIN}/notes/2"]


@pytest.mark.parametrize("value", ["yesterday", "2026-13-01", "12/03/2026"])
def test_since_that_is_not_iso_8601_is_a_usage_error(
    tmp_path: Path, store: Store, endpoint: Endpoint, value: str
) -> None:
    app = make_site(tmp_path, store, endpoint.url)
    result = app.test_cli_runner().invoke(
        args=["marmeon", "indexnow", "--since", value]
    )
    assert result.exit_code == 2
    assert repr(value) in result.output and "ISO 8601" in result.output


def test_a_deployment_that_must_not_be_indexed_refuses(
    tmp_path: Path, store: Store, endpoint: Endpoint
) -> None:
    app = make_site(tmp_path, store, endpoint.url, MARMEON_INDEXABLE=False)
    with pytest.raises(IndexNowError, match="MARMEON_INDEXABLE is False"):
        submit_changed(app)
    result = app.test_cli_runner().invoke(args=["marmeon", "indexnow"])
    assert result.exit_code == 1 and "must not be indexed" in result.output
    assert endpoint.received == [] and read_watermark(app) is None


def test_a_failing_provider_stops_the_run_naming_its_route(
    tmp_path: Path, store: Store, endpoint: Endpoint
) -> None:
    app = first_run(tmp_path, store, endpoint, Clock())
    store.home = CHANGED
    store.fail = True
    result = app.test_cli_runner().invoke(args=["marmeon", "indexnow"])
    assert result.exit_code == 1
    assert "'/notes/<int:note_id>'" in result.output
    assert "the notes database is down" in result.output
    assert "Traceback" not in result.output
    assert endpoint.received == [] and read_watermark(app) == NOW


def test_without_a_key_it_refuses_to_send(
    tmp_path: Path, store: Store, endpoint: Endpoint
) -> None:
    app = make_site(tmp_path, store, endpoint.url, MARMEON_INDEXNOW_KEY=None)
    result = app.test_cli_runner().invoke(args=["marmeon", "indexnow"])
    assert result.exit_code == 1 and "MARMEON_INDEXNOW_KEY is not set" in result.output


def test_an_unreadable_watermark_counts_as_none(tmp_path: Path) -> None:
    (tmp_path / FILE_NAME).write_text("garbage")
    app = make_site(tmp_path, Store(), refused_url())
    assert read_watermark(app) is None


def test_the_watermark_is_shared_through_redis(
    tmp_path: Path, store: Store, endpoint: Endpoint
) -> None:
    # Two processes (two apps, each its own instance folder) on one Redis:
    # the watermark one of them set is the other's.
    server = RedisServer(tmp_path)
    try:
        one = make_site(tmp_path / "one", store, endpoint.url, redis=server.url)
        two = make_site(tmp_path / "two", store, endpoint.url, redis=server.url)
        first_run(tmp_path / "one", store, endpoint, Clock(), app=one)
        assert not (tmp_path / "one" / FILE_NAME).exists()
        assert read_watermark(two) == NOW
        store.notes[1] = CHANGED
        clock = Clock(NOW + timedelta(hours=1))
        done = submit_changed(two, sleep=clock.sleep, now=clock.now)
        assert done.urls == (f"{ORIGIN}/notes/1",) and done.moved
        assert read_watermark(one) == clock.moment
        # Another site on the same Redis has a watermark of its own.
        other = make_site(
            tmp_path / "three",
            store,
            endpoint.url,
            redis=server.url,
            APP_URL="https://other.example",
        )
        assert read_watermark(other) is None
        # MARMEON_CACHE_PREFIX names the keys, as the sitemap's.
        named = make_site(
            tmp_path / "four",
            store,
            endpoint.url,
            redis=server.url,
            MARMEON_CACHE_PREFIX="shop-production",
        )
        assert read_watermark(named) is None
        later = Clock(NOW + timedelta(hours=2))
        assert submit_changed(named, sleep=later.sleep, now=later.now).first_run
        assert read_watermark(named) == later.moment
        assert read_watermark(one) == clock.moment  # not the named app's
    finally:
        server.stop()


def test_without_app_url_it_refuses(tmp_path: Path) -> None:
    app = Flask("bare", instance_path=str(tmp_path))
    Marmeon(app)
    with pytest.raises(IndexNowError, match="APP_URL is not set"):
        submit_changed(app, dry_run=True)


def test_a_last_modified_that_is_no_date_stops_the_run(
    tmp_path: Path, store: Store, endpoint: Endpoint
) -> None:
    store.notes[2] = "2026-12-03"  # type: ignore[assignment]
    app = make_site(tmp_path, store, endpoint.url)
    with pytest.raises(IndexNowError, match="'/notes/<int:note_id>'.*must be a date"):
        submit_changed(app, since=OLD_ENOUGH)
    assert endpoint.received == []
