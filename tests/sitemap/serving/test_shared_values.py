"""What the shared cache holds cannot break the sitemap: a value that cannot
be read is missing (rebuilt), one dated in the future is stale, and keys
name the app (one real Redis)."""

from __future__ import annotations

import gzip
import pickle
import time
from email.utils import parsedate_to_datetime

import pytest
from flask import Flask

from flask_marmeon import Marmeon, SitemapEntry, everyone

from ..conftest import locs
from ..paged_keys import Keys
from ..servers import RedisServer

ORIGIN = "https://shop.example"


def site(
    redis: str, name: str = "shop", builds: list[int] | None = None, **config: object
) -> Flask:
    from flask_caching import Cache

    app = Flask(name)
    app.config.update({"APP_URL": ORIGIN, "MARMEON_SITEMAP_MAX_URLS": 10, **config})
    cache = Cache(app, config={"CACHE_TYPE": "RedisCache", "CACHE_REDIS_URL": redis})
    Marmeon(app, sitemap_cache=cache)
    made = builds if builds is not None else []

    def pages() -> list[SitemapEntry]:
        made.append(1)
        return [SitemapEntry({"slug": name})]

    app.add_url_rule("/about/<slug>", "about", str, authorize=everyone, sitemap=pages)
    app.add_url_rule(
        "/p/<int:n>", "p", str, authorize=everyone, sitemap=Keys(list(range(1, 31)))
    )
    return app


def crawl(app: Flask) -> list[str]:
    client = app.test_client()
    index = client.get("/sitemap.xml")
    assert index.status_code == 200
    found: list[str] = []
    for address in locs(index.data):
        response = client.get(address.removeprefix(ORIGIN))
        assert response.status_code == 200, (address, response.status_code)
        found += locs(response.data)
    return found


def settle(app: Flask) -> None:
    from flask_marmeon.sitemap.state import sitemap_of

    files = sitemap_of(app).files
    for cache in [files.site, *files._starts.values(), *files._parts.values()]:
        assert cache.join(5)


# A value another program (or another version) left: its class is gone.
FOREIGN = b"!" + b"cno_such_module\nNoSuchClass\n."


@pytest.mark.parametrize("garbage", ["foreign", "other bytes", "old shape"])
def test_values_that_cannot_be_read_are_rebuilt_never_a_500(
    redis_server: RedisServer, garbage: str
) -> None:
    first = site(redis_server.url)
    whole = crawl(first)
    assert len(whole) == 31
    settle(first)
    client = redis_server.client()
    for key in client.keys("*"):  # type: ignore[attr-defined]
        value = client.get(key)  # type: ignore[attr-defined]
        if garbage == "foreign":
            client.set(key, FOREIGN)  # type: ignore[attr-defined]
        elif garbage == "other bytes" and b":files:" in key:
            # What the stamp names, with other bytes (a pickle that is no
            # list of keys, no XML).
            client.set(key, b"!" + pickle.dumps(b"\x80garbage"))  # type: ignore[attr-defined]
        elif garbage == "old shape" and key.endswith(b":stamp"):
            stamp = pickle.loads(value[1:])
            client.set(key, b"!" + pickle.dumps(stamp[:3]))  # type: ignore[attr-defined]
    # Another process, cold: every file is built again, none is a 500.
    again = site(redis_server.url)
    assert sorted(crawl(again)) == sorted(whole)


def future_dated(redis_server: RedisServer) -> float:
    """Date the store's sitemap a month ahead, as a machine whose clock ran
    ahead would have; the date it now claims."""
    client = redis_server.client()
    (key,) = [
        k
        for k in client.keys("*")  # type: ignore[attr-defined]
        if k.endswith(b":sitemap:stamp")
    ]
    stamp = pickle.loads(client.get(key)[1:])  # type: ignore[attr-defined]
    ahead = time.time() + 30 * 24 * 3600
    client.set(key, b"!" + pickle.dumps((stamp[0], ahead, *stamp[2:])))  # type: ignore[attr-defined]
    return ahead


def last_modified(app: Flask) -> float:
    response = app.test_client().get("/sitemap.xml")
    assert response.status_code == 200
    return parsedate_to_datetime(response.headers["Last-Modified"]).timestamp()


def test_a_value_dated_in_the_future_is_stale(redis_server: RedisServer) -> None:
    builds: list[int] = []
    first = site(redis_server.url, builds=builds)
    assert first.test_client().get("/sitemap.xml").status_code == 200
    settle(first)
    future_dated(redis_server)
    later = site(redis_server.url, builds=builds)
    assert later.test_client().get("/sitemap.xml").status_code == 200
    settle(later)
    assert len(builds) == 2  # rebuilt at once, not kept for a month
    assert abs(last_modified(later) - time.time()) < 60


def test_a_look_at_the_store_never_puts_back_a_value_dated_in_the_future(
    redis_server: RedisServer,
) -> None:
    from flask_marmeon.sitemap.serving.files import Files
    from flask_marmeon.sitemap.state import sitemap_of

    app = site(redis_server.url)
    assert app.test_client().get("/sitemap.xml").status_code == 200
    settle(app)
    here = sitemap_of(app).files.site
    built = last_modified(app)
    ahead = future_dated(redis_server)
    # The look every request starts reads the store: a build dated ahead
    # of the clock is stale there, never newer than the one here.
    here.newest()
    assert last_modified(app) == built
    # A look that read the store before this process built its own (so it
    # had nothing to compare with) installs after that build: it loses.
    old = here._value
    assert old is not None
    here._install(Files.stored(old.packed, ahead), if_taken=True)
    assert last_modified(app) == built


def test_a_refresh_never_puts_back_an_older_build_than_one_taken_meanwhile(
    redis_server: RedisServer,
) -> None:
    from flask_marmeon.sitemap.serving.files import Files
    from flask_marmeon.sitemap.state import sitemap_of

    first = site(redis_server.url)
    assert first.test_client().get("/sitemap.xml").status_code == 200
    settle(first)
    # A process just started: its refresh reads the store's build while its
    # look at the store takes a newer one (stored by another process).
    later = site(redis_server.url)
    here = sitemap_of(later).files.site
    shared = here.shared
    assert shared is not None
    stored = shared.stamp()
    assert stored is not None
    newer = Files((b"<urlset/>",), stored.built_at + 1)
    read = shared.bodies

    def read_while_a_newer_is_taken(stamp: object) -> object:
        bodies = read(stamp)  # type: ignore[arg-type]
        here._install(newer)
        return bodies

    shared.bodies = read_while_a_newer_is_taken  # type: ignore[method-assign]
    here._fresh_from(shared, stored, here.clock())
    assert here._value is newer


def test_two_apps_with_one_app_url_on_one_store_keep_their_own_files(
    redis_server: RedisServer,
) -> None:
    production = site(redis_server.url, "production")
    staging = site(redis_server.url, "staging")
    assert f"{ORIGIN}/about/production" in crawl(production)
    settle(production)
    assert f"{ORIGIN}/about/staging" in crawl(staging)
    assert f"{ORIGIN}/about/production" not in crawl(staging)
    # One prefix, one app: two deployments under other import names share.
    builds: list[int] = []
    one = site(redis_server.url, "one", builds, MARMEON_CACHE_PREFIX="shop")
    assert f"{ORIGIN}/about/one" in crawl(one)
    settle(one)
    two = site(redis_server.url, "two", builds, MARMEON_CACHE_PREFIX="shop")
    assert f"{ORIGIN}/about/one" in crawl(two)
    assert len(builds) == 1


def test_a_prefix_that_is_no_text_is_refused() -> None:
    app = Flask("shop")
    app.config.update(APP_URL=ORIGIN, MARMEON_CACHE_PREFIX=42)
    with pytest.raises(TypeError, match="MARMEON_CACHE_PREFIX must be a non-empty"):
        Marmeon(app)


def test_parts_are_kept_and_stored_compressed(redis_server: RedisServer) -> None:
    app = site(redis_server.url, MARMEON_SITEMAP_MAX_URLS=5000)
    client = app.test_client()
    plain = client.get("/sitemap-p-1.xml", headers={"Accept-Encoding": "identity"})
    packed = client.get("/sitemap-p-1.xml", headers={"Accept-Encoding": "gzip"})
    assert "Content-Encoding" not in plain.headers
    assert packed.headers["Content-Encoding"] == "gzip"
    assert gzip.decompress(packed.data) == plain.data
    assert len(locs(plain.data)) == 30
    settle(app)
    redis = redis_server.client()
    stored = sum(
        len(redis.get(key))  # type: ignore[attr-defined]
        for key in redis.keys("*:files:*")  # type: ignore[attr-defined]
    )
    index, part = (
        client.get(p, headers={"Accept-Encoding": "gzip"}).data
        for p in ("/sitemap.xml", "/sitemap-p-1.xml")
    )
    # The sitemap's index, its file of the other route, the part's
    # boundaries and the part: each stored as its gzip form (and Redis'
    # few bytes of pickling), not as XML.
    assert stored < 1.2 * (len(index) + len(part)) + 1000
    assert stored < len(plain.data)
    from flask_marmeon.sitemap.state import sitemap_of

    (cache,) = sitemap_of(app).files._parts.values()
    assert cache.last is not None and cache.last.size == len(packed.data)
