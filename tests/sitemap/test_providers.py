"""Providers: View classes and callables, every shape of result, own context."""

from __future__ import annotations

import asyncio
import functools
import logging
import threading
from collections.abc import AsyncIterator, Callable, Iterator
from datetime import date, datetime, timezone
from typing import Any

import pytest
from flask import Flask, g, has_request_context
from flask.views import MethodView, View
from lxml import etree

from flask_marmeon import SitemapEntry, everyone

from .conftest import crawl, locs

ORIGIN = "https://notes.example"
ReadSitemap = Callable[..., etree._Element]


class Catalog:
    def __init__(self, *slugs: str) -> None:
        self.slugs = slugs


class ShowFeature(MethodView):
    built: list[Catalog] = []

    def __init__(self, catalog: Catalog, *, prefix: str = "") -> None:
        self.catalog = catalog
        self.prefix = prefix
        ShowFeature.built.append(catalog)

    def get(self, feature: str) -> str:
        return feature

    def sitemap(self) -> Iterator[SitemapEntry]:
        for slug in self.catalog.slugs:
            yield SitemapEntry(params={"feature": self.prefix + slug})


def test_a_class_view_sitemap_gets_the_views_own_arguments(
    app: Flask, read_sitemap: ReadSitemap
) -> None:
    catalog = Catalog("search", "tags")
    app.add_url_rule(
        "/features/<feature>",
        view_func=ShowFeature.as_view("features", catalog, prefix="x-"),
        sitemap=True,
        authorize=everyone,
    )
    ShowFeature.built.clear()
    found = locs(read_sitemap(app))
    assert found == [f"{ORIGIN}/features/x-search", f"{ORIGIN}/features/x-tags"]
    assert ShowFeature.built == [catalog]  # a fresh instance, same arguments
    assert set(crawl(app, found, ORIGIN).values()) == {200}


def test_a_class_view_behind_decorators(app: Flask, read_sitemap: ReadSitemap) -> None:
    def logged(view: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(view)
        def wrapper(**kwargs: Any) -> Any:
            return view(**kwargs)

        return wrapper

    class Decorated(ShowFeature):
        decorators = [logged]

    app.add_url_rule(
        "/features/<feature>",
        view_func=Decorated.as_view("features", Catalog("a")),
        sitemap=True,
        authorize=everyone,
    )
    assert locs(read_sitemap(app)) == [f"{ORIGIN}/features/a"]


def test_a_view_made_once_uses_its_one_instance(
    app: Flask, read_sitemap: ReadSitemap
) -> None:
    class Once(ShowFeature):
        init_every_request = False

    ShowFeature.built.clear()
    app.add_url_rule(
        "/features/<feature>",
        view_func=Once.as_view("features", Catalog("a")),
        sitemap=True,
        authorize=everyone,
    )
    assert locs(read_sitemap(app)) == [f"{ORIGIN}/features/a"]
    assert len(ShowFeature.built) == 1  # built by as_view, not again


def test_a_plain_view_class_may_have_the_method(
    app: Flask, read_sitemap: ReadSitemap
) -> None:
    class Page(View):
        def dispatch_request(self, **kwargs: Any) -> str:
            return "page"

        def sitemap(self) -> list[dict[str, Any]]:
            return [{"params": {"n": 7}}]

    app.add_url_rule(
        "/p/<int:n>", view_func=Page.as_view("p"), sitemap=True, authorize=everyone
    )
    assert locs(read_sitemap(app)) == [f"{ORIGIN}/p/7"]


def entries_list() -> list[SitemapEntry]:
    return [SitemapEntry({"n": 1}), SitemapEntry({"n": 2})]


def entries_generator() -> Iterator[SitemapEntry]:
    yield SitemapEntry({"n": 1})
    yield SitemapEntry({"n": 2})


async def entries_async_generator() -> AsyncIterator[SitemapEntry]:
    for n in (1, 2):
        await asyncio.sleep(0)
        yield SitemapEntry({"n": n})


async def entries_coroutine() -> list[SitemapEntry]:
    await asyncio.sleep(0)
    return entries_list()


def entries_dicts() -> list[dict[str, Any]]:
    return [{"params": {"n": 1}}, {"params": {"n": 2}, "last_modified": None}]


@pytest.mark.parametrize(
    "provider",
    [
        entries_list,
        entries_generator,
        entries_async_generator,
        entries_coroutine,
        entries_dicts,
    ],
)
def test_every_shape_of_result(
    app: Flask, read_sitemap: ReadSitemap, provider: Callable[[], Any]
) -> None:
    app.get("/n/<int:n>", sitemap=provider, authorize=everyone)(lambda n: "n")
    assert locs(read_sitemap(app)) == [f"{ORIGIN}/n/1", f"{ORIGIN}/n/2"]


def test_an_async_class_sitemap(app: Flask, read_sitemap: ReadSitemap) -> None:
    class Show(MethodView):
        def get(self, n: int) -> str:
            return "n"

        async def sitemap(self) -> AsyncIterator[SitemapEntry]:
            for n in range(2500):  # more than one batch
                yield SitemapEntry({"n": n})

    app.add_url_rule(
        "/n/<int:n>", view_func=Show.as_view("n"), sitemap=True, authorize=everyone
    )
    assert len(locs(read_sitemap(app))) == 2500


def test_the_provider_runs_in_an_app_context_of_its_own(
    app: Flask, read_sitemap: ReadSitemap
) -> None:
    seen: dict[str, Any] = {}

    @app.before_request
    def layout() -> None:
        g.from_request = "request"

    def provider() -> list[SitemapEntry]:
        seen["request"] = has_request_context()
        seen["g"] = g.get("from_request")
        seen["app"] = g._get_current_object  # an app context is pushed
        g.scratch = 1
        return [SitemapEntry({"n": 1})]

    app.get("/n/<int:n>", sitemap=provider, authorize=everyone)(lambda n: "n")
    read_sitemap(app)
    assert seen["request"] is False
    assert seen["g"] is None


@pytest.mark.parametrize(
    ("result", "message"),
    [
        (42, "returned 42"),
        ([{"params": {"n": 1}, "lastModified": None}], "Did you mean 'last_modified'"),
        (["n=1"], "expected a SitemapEntry"),
        ([{"params": [1]}], "params must be a dict"),
        ([SitemapEntry({"n": 1}, "2024-01-01")], "must be a date or a datetime"),  # type: ignore[arg-type]
        # The day's text after a datetime of that day (the build keeps the
        # datetime's text by its day), and an unhashable value: still refused.
        (
            [
                SitemapEntry({"n": 1}, datetime(2024, 1, 1, 12, tzinfo=timezone.utc)),
                SitemapEntry({"n": 2}, "2024-01-01"),  # type: ignore[arg-type]
            ],
            "gave last_modified='2024-01-01', but last_modified must be a date",
        ),
        (
            [SitemapEntry({"n": 1}, date(2024, 1, 1)), SitemapEntry({"n": 2}, [2024])],  # type: ignore[arg-type]
            "gave last_modified=list, but last_modified must be a date",
        ),
    ],
)
def test_a_wrong_result_fails_the_build_with_a_message(
    app: Flask, caplog: pytest.LogCaptureFixture, result: object, message: str
) -> None:
    app.get("/n/<int:n>", sitemap=lambda: result, authorize=everyone)(lambda n: "n")
    with caplog.at_level(logging.ERROR, logger="flask_marmeon"):
        response = app.test_client().get("/sitemap.xml")
    assert response.status_code == 503
    (record,) = [r for r in caplog.records if r.levelno == logging.ERROR]
    assert record.exc_info is not None
    assert message in str(record.exc_info[1])
    assert "'/n/<int:n>'" in str(record.exc_info[1])


def test_async_providers_work_where_an_event_loop_is_already_running(
    app: Flask,
) -> None:
    # A build called from a thread whose event loop runs (an async server's
    # thread, a test session driving a browser) cannot start a loop of its
    # own there; the provider must still run, in its app context.
    async def notes() -> AsyncIterator[SitemapEntry]:
        for note_id in (1, 2):
            yield SitemapEntry(params={"note_id": note_id})

    async def pages() -> list[dict[str, Any]]:
        await asyncio.sleep(0)
        assert g.get("marker") is None  # a fresh g, not the caller's
        return [{"params": {"slug": "a"}}]

    app.add_url_rule(
        "/notes/<int:note_id>",
        "note",
        lambda note_id: "",
        sitemap=notes,
        authorize=everyone,
    )
    app.add_url_rule(
        "/pages/<slug>", "page", lambda slug: "", sitemap=pages, authorize=everyone
    )

    async def fetch() -> bytes:
        asyncio.get_running_loop()  # the loop the build must not touch
        return app.test_client().get("/sitemap.xml").data

    # In a thread of its own, so that nothing else of the test session (a
    # browser driver's loop) is running in it already.
    bodies: list[bytes] = []
    thread = threading.Thread(target=lambda: bodies.append(asyncio.run(fetch())))
    thread.start()
    thread.join()
    root = etree.fromstring(bodies[0])
    assert locs(root) == [
        f"{ORIGIN}/notes/1",
        f"{ORIGIN}/notes/2",
        f"{ORIGIN}/pages/a",
    ]
