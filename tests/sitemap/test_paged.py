"""Paged routes: the PagedProvider protocol, parts and their addresses."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from datetime import date
from typing import Any

import pytest
from flask import Flask
from lxml import etree

from flask_marmeon import PagedProvider, SitemapEntry, StartupError, everyone
from flask_marmeon.sitemap.state import sitemap_of

from .conftest import SM, locs
from .paged_keys import Keys

ORIGIN = "https://shop.example"


def test_an_object_with_the_two_methods_is_a_paged_provider() -> None:
    assert isinstance(Keys([]), PagedProvider)
    assert not isinstance(lambda: [], PagedProvider)


def test_parts_ask_only_their_own_range(make_app: Callable[..., Flask]) -> None:
    provider = Keys(list(range(1, 24)))
    app = make_app(APP_URL=ORIGIN, MARMEON_SITEMAP_MAX_URLS=5)
    app.add_url_rule("/p/<int:n>", "p", str, authorize=everyone, sitemap=provider)
    client = app.test_client()
    assert locs(client.get("/sitemap.xml").data) == [
        f"{ORIGIN}/sitemap-p-{n}.xml" for n in range(1, 6)
    ]
    assert provider.asked == [("boundaries", 5)]
    assert locs(client.get("/sitemap-p-5.xml").data) == [
        f"{ORIGIN}/p/{n}" for n in range(21, 24)
    ]
    assert provider.asked[-1] == ("entries", 21, None, 6)
    assert locs(client.get("/sitemap-p-2.xml").data) == [
        f"{ORIGIN}/p/{n}" for n in range(6, 11)
    ]
    assert provider.asked[-1] == ("entries", 6, 11, 6)
    assert client.get("/sitemap-p-6.xml").status_code == 404
    # One part, one address: "02" is read as 2 by the converter, not served.
    asked = len(provider.asked)
    assert client.get("/sitemap-p-02.xml").status_code == 404
    assert len(provider.asked) == asked


def test_an_empty_store_has_no_parts(make_app: Callable[..., Flask]) -> None:
    app = make_app(APP_URL=ORIGIN)
    app.add_url_rule("/p/<int:n>", "p", str, authorize=everyone, sitemap=Keys([]))
    client = app.test_client()
    assert locs(client.get("/sitemap.xml").data) == []
    assert client.get("/sitemap-p-1.xml").status_code == 404


def test_two_routes_never_share_a_slug(make_app: Callable[..., Flask]) -> None:
    app = make_app(APP_URL=ORIGIN, MARMEON_SITEMAP_MAX_URLS=5)
    app.add_url_rule("/a/<int:n>", "a.b", str, authorize=everyone, sitemap=Keys([1]))
    app.add_url_rule("/b/<int:n>", "a_b", str, authorize=everyone, sitemap=Keys([2]))
    client = app.test_client()
    assert locs(client.get("/sitemap.xml").data) == [
        f"{ORIGIN}/sitemap-a-b-1.xml",
        f"{ORIGIN}/sitemap-a-b-2-1.xml",
    ]
    assert locs(client.get("/sitemap-a-b-2-1.xml").data) == [f"{ORIGIN}/b/2"]


def test_a_failing_part_is_its_own_503(
    make_app: Callable[..., Flask], caplog: pytest.LogCaptureFixture
) -> None:
    provider = Keys(list(range(1, 11)), fail={6})
    app = make_app(APP_URL=ORIGIN, MARMEON_SITEMAP_MAX_URLS=5)
    app.add_url_rule("/p/<int:n>", "p", str, authorize=everyone, sitemap=provider)
    client = app.test_client()
    with caplog.at_level(logging.ERROR, "flask_marmeon"):
        failed = client.get("/sitemap-p-2.xml")
    assert failed.status_code == 503 and failed.headers["Retry-After"] == "30"
    assert failed.headers["Cache-Control"] == "no-store"
    (record,) = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert "part 2 of the route '/p/<int:n>'" in record.getMessage()
    assert "keys from 6 to the end" in (record.exc_text or "")
    assert client.get("/sitemap-p-1.xml").status_code == 200
    assert client.get("/sitemap.xml").status_code == 200
    # Not asked again during the pause.
    asked = len(provider.asked)
    assert client.get("/sitemap-p-2.xml").status_code == 503
    assert len(provider.asked) == asked


@pytest.mark.parametrize(
    ("given", "said"),
    [
        (None, "returned None; it must return the key each part begins with"),
        ("abc", "returned 'abc'; it must return the key each part begins with"),
        ([1, 1, 6], "gave the key 1 twice in a row"),
    ],
)
def test_boundaries_that_are_no_list_of_keys_are_a_503_naming_the_route(
    make_app: Callable[..., Flask],
    caplog: pytest.LogCaptureFixture,
    given: object,
    said: str,
) -> None:
    class Wrong(Keys):
        def boundaries(self, size: int) -> Any:
            return given

    app = make_app(APP_URL=ORIGIN, MARMEON_SITEMAP_MAX_URLS=5)
    app.add_url_rule(
        "/p/<int:n>", "p", str, authorize=everyone, sitemap=Wrong(list(range(1, 11)))
    )
    client = app.test_client()
    with caplog.at_level(logging.ERROR, "flask_marmeon"):
        index = client.get("/sitemap.xml")
        part = client.get("/sitemap-p-1.xml")
    assert index.status_code == part.status_code == 503
    assert index.headers["Retry-After"] == part.headers["Retry-After"] == "30"
    messages = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert any(
        "boundaries() of the paged provider of the route '/p/<int:n>' (endpoint 'p')"
        in message
        and said in message
        for message in messages
    ), messages


def test_a_process_keeps_parts_within_its_byte_budget(
    make_app: Callable[..., Flask],
) -> None:
    provider = Keys(list(range(1, 101)))
    app = make_app(
        APP_URL=ORIGIN, MARMEON_SITEMAP_MAX_URLS=5, MARMEON_SITEMAP_MEMORY=1500
    )
    app.add_url_rule("/p/<int:n>", "p", str, authorize=everyone, sitemap=provider)
    client = app.test_client()
    for number in range(1, 21):
        assert client.get(f"/sitemap-p-{number}.xml").status_code == 200
    parts = sitemap_of(app).files._parts.values()
    # Counted as kept: compressed (a part of five URLs, about 200 bytes).
    sizes = [cache.last.size for cache in parts if cache.last is not None]
    assert 0 < max(sizes) < 400 and sum(sizes) <= 1500 + max(sizes)
    assert len(sizes) < 20


def test_a_part_asked_again_is_not_rebuilt_while_the_budget_holds_it(
    make_app: Callable[..., Flask],
) -> None:
    provider = Keys(list(range(1, 101)))
    app = make_app(APP_URL=ORIGIN, MARMEON_SITEMAP_MAX_URLS=5)
    app.add_url_rule("/p/<int:n>", "p", str, authorize=everyone, sitemap=provider)
    client = app.test_client()
    for _ in range(3):
        for number in range(1, 21):
            assert client.get(f"/sitemap-p-{number}.xml").status_code == 200
    # Twenty parts (more than the 8 a process kept before), each read once.
    assert len([call for call in provider.asked if call[0] == "entries"]) == 20


def test_sitemap_option_refuses_other_objects(make_app: Callable[..., Flask]) -> None:
    app = make_app(APP_URL=ORIGIN)
    with pytest.raises(TypeError, match="a paged provider"):
        app.add_url_rule("/p/<int:n>", "p", str, authorize=everyone, sitemap=object())


def test_provider_problems_are_h10(make_app: Callable[..., Flask]) -> None:
    class Broken(Keys):
        def problems(self) -> list[str]:
            return ["has a broken store: fix it"]

    app = make_app(APP_URL=ORIGIN)
    app.add_url_rule("/p/<int:n>", "p", str, authorize=everyone, sitemap=Broken([1]))
    with pytest.raises(StartupError, match="has a broken store: fix it"):
        app.test_client().get("/sitemap.xml")


def test_the_index_names_at_most_50000_files(
    make_app: Callable[..., Flask],
    caplog: pytest.LogCaptureFixture,
    index_schema: etree.XMLSchema,
) -> None:
    # The format's limit for an index, as for a file's URLs: with one URL a
    # part, 50,003 keys would need 50,003 parts.
    app = make_app(APP_URL=ORIGIN, MARMEON_SITEMAP_MAX_URLS=1)
    provider = Keys(list(range(1, 50_004)))
    app.add_url_rule("/p/<int:n>", "p", str, authorize=everyone, sitemap=provider)
    with caplog.at_level(logging.WARNING, logger="flask_marmeon"):
        body = app.test_client().get("/sitemap.xml").data
    index = etree.fromstring(body)
    index_schema.assertValid(index)
    listed = locs(body)
    assert len(listed) == 50_000
    assert listed[-1] == f"{ORIGIN}/sitemap-p-50000.xml"
    (warning,) = [r.getMessage() for r in caplog.records if "50000" in r.getMessage()]
    assert "3 files" in warning and "MARMEON_SITEMAP_MAX_URLS" in warning


def test_parts_whose_address_the_app_takes_are_not_listed(
    make_app: Callable[..., Flask], caplog: pytest.LogCaptureFixture
) -> None:
    # The app's own route wins (as on /sitemap.xml), and the index then
    # names no address of it: that route answers it, not the sitemap.
    app = make_app(APP_URL=ORIGIN, MARMEON_SITEMAP_MAX_URLS=5)
    app.add_url_rule("/p/<int:n>", "p", str, authorize=everyone, sitemap=Keys([1, 2]))
    app.add_url_rule(
        "/q/<int:n>", "q", str, authorize=everyone, sitemap=Keys(list(range(1, 8)))
    )
    app.add_url_rule("/sitemap-p-<int:year>.xml", "yearly", lambda year: "mine")
    client = app.test_client()
    with caplog.at_level(logging.WARNING, logger="flask_marmeon"):
        index = client.get("/sitemap.xml")
    assert locs(index.data) == [
        f"{ORIGIN}/sitemap-q-1.xml",
        f"{ORIGIN}/sitemap-q-2.xml",
    ]
    assert client.get("/sitemap-p-1.xml").data == b"mine"
    (warning,) = [
        r.getMessage() for r in caplog.records if "/sitemap-p-1.xml" in r.getMessage()
    ]
    assert "'/p/<int:n>'" in warning and "'/sitemap-p-<int:year>.xml'" in warning


def test_only_the_first_limit_entries_are_read(make_app: Callable[..., Flask]) -> None:
    # "Only the first limit are used": a store that gives more (it ignores
    # stop, say, and scans on) is read no further, not to its end.
    class Greedy(Keys):
        def entries(self, start: int, stop: int | None, limit: int) -> Iterator[object]:
            self.asked.append(("entries", start, stop, limit))
            n = start
            while True:
                self.asked.append(("read", n))
                yield SitemapEntry({"n": n})
                n += 1

    provider = Greedy(list(range(1, 100)))
    app = make_app(APP_URL=ORIGIN, MARMEON_SITEMAP_MAX_URLS=5, MARMEON_SITEMAP_WAIT=5)
    app.add_url_rule("/p/<int:n>", "p", str, authorize=everyone, sitemap=provider)
    response = app.test_client().get("/sitemap-p-1.xml")
    assert response.status_code == 200
    assert locs(response.data) == [f"{ORIGIN}/p/{n}" for n in range(1, 6)]
    read = [call for call in provider.asked if call[0] == "read"]
    assert len(read) == 6  # the limit: one more than fits, to see what waits


def test_entries_take_what_a_sitemap_provider_may_return(
    make_app: Callable[..., Flask], caplog: pytest.LogCaptureFixture
) -> None:
    # A list, a generator, an async generator or a coroutine, as sitemap()
    # may return (an async search client, say); anything else is named.
    async def later(start: int) -> list[SitemapEntry]:
        return [SitemapEntry({"n": start})]

    async def stream(start: int) -> Any:
        yield SitemapEntry({"n": start})

    givers: dict[str, Callable[[int], object]] = {
        "async generator": stream,
        "coroutine": later,
        "None": lambda start: None,
        "text": lambda start: "abc",
    }
    for name, give in givers.items():

        class Store(Keys):
            def entries(self, start: int, stop: int | None, limit: int) -> Any:
                return give(start)  # noqa: B023 - called within the turn

        app = make_app(APP_URL=ORIGIN, MARMEON_SITEMAP_WAIT=5)
        app.add_url_rule("/p/<int:n>", "p", str, authorize=everyone, sitemap=Store([7]))
        caplog.clear()
        with caplog.at_level(logging.ERROR, logger="flask_marmeon"):
            response = app.test_client().get("/sitemap-p-1.xml")
        if name in ("async generator", "coroutine"):
            assert response.status_code == 200, name
            assert locs(response.data) == [f"{ORIGIN}/p/7"], name
        else:
            assert response.status_code == 503, name
            said = "\n".join(caplog.messages)
            assert "'/p/<int:n>'" in said and "expected a list" in said, said


class Dated(Keys):
    """Keys whose entries were each last modified on day ``key % 28 + 1``."""

    def entries(self, start: int, stop: int | None, limit: int) -> Iterator[object]:
        for entry in super().entries(start, stop, limit):
            assert isinstance(entry, SitemapEntry)
            key = entry.params["n"]
            yield SitemapEntry({"n": key}, last_modified=date(2024, 3, key % 28 + 1))


def test_the_index_gives_a_built_part_the_newest_lastmod_of_its_entries(
    make_app: Callable[..., Flask],
) -> None:
    app = make_app(APP_URL=ORIGIN, MARMEON_SITEMAP_MAX_URLS=5)
    provider = Dated(list(range(1, 24)))
    app.add_url_rule("/p/<int:n>", "p", str, authorize=everyone, sitemap=provider)
    client = app.test_client()
    root = etree.fromstring(client.get("/sitemap.xml").data)
    assert not root.findall(f"{SM}sitemap/{SM}lastmod")  # nothing built yet
    for number in (1, 3):
        assert client.get(f"/sitemap-p-{number}.xml").status_code == 200
    sitemap_of(app).files.site.clear()  # the next index is built now
    root = etree.fromstring(client.get("/sitemap.xml").data)
    dates = {
        (item.findtext(f"{SM}loc") or "").removeprefix(ORIGIN): item.findtext(
            f"{SM}lastmod"
        )
        for item in root.iter(f"{SM}sitemap")
    }
    # Part 1 holds keys 1 to 5 (days 2 to 6), part 3 keys 11 to 15.
    assert dates == {
        "/sitemap-p-1.xml": "2024-03-06",
        "/sitemap-p-2.xml": None,
        "/sitemap-p-3.xml": "2024-03-16",
        "/sitemap-p-4.xml": None,
        "/sitemap-p-5.xml": None,
    }
