"""paged(): a route's parts read by ranges of a key. Every test that takes
``database`` runs twice: on a SQLite file and on a real PostgreSQL
(``database_url`` in tests/conftest.py)."""

from __future__ import annotations

import logging
from typing import Any

import pytest
from flask import Blueprint, Flask
from flask_sqlalchemy import SQLAlchemy
from lxml import etree
from sqlalchemy import create_engine, func, select
from sqlalchemy.orm import (
    Session,
)
from sqlalchemy.pool import NullPool

from flask_marmeon import Marmeon, SitemapEntry, StartupError, everyone, localized
from flask_marmeon.sqlalchemy import paged
from tests.documents import locs, strict_schema

from .shop import ORIGIN, Base, Product, change, listed, make_shop


@pytest.mark.parametrize(
    "session",
    ["flask_sqlalchemy", "session", "sessionmaker", "scoped_session", "callable"],
)
def test_parts_are_ranges_of_the_key(
    database: tuple[str, list[str]],
    session: str,
) -> None:
    urlset_schema = strict_schema("sitemap.xsd")
    index_schema = strict_schema("siteindex.xsd")
    url, queries = database
    app = make_shop(url, queries, session=session)
    client = app.test_client()
    index = client.get("/sitemap.xml")
    assert index.status_code == 200
    index_schema.assertValid(etree.fromstring(index.data))
    parts = locs(index.data)
    # 86 listed products, 10 a part; the plain routes' file first.
    assert parts == [f"{ORIGIN}/sitemap-1.xml"] + [
        f"{ORIGIN}/sitemap-product-{n}.xml" for n in range(1, 10)
    ]
    # One query said where parts begin (stepping along the key's index),
    # and it returned nine keys.
    assert len(queries) == 1 and "WITH RECURSIVE" in queries[0]
    assert "OVER" not in queries[0]
    assert locs(client.get("/sitemap-1.xml").data) == [f"{ORIGIN}/about"]
    found: list[str] = []
    for number in range(1, 10):
        del queries[:]
        response = client.get(f"/sitemap-product-{number}.xml")
        assert response.status_code == 200
        root = etree.fromstring(response.data)
        urlset_schema.assertValid(root)
        found += locs(response.data)
        # Each part: one query of its own range.
        assert len(queries) == 1 and ">=" in queries[0]
    assert found == [f"{ORIGIN}/products/{n}" for n in listed()]
    assert client.get("/sitemap-product-10.xml").status_code == 404
    assert client.get("/sitemap-product-0.xml").status_code == 404
    # A part is kept: asked again, no query.
    del queries[:]
    again = client.get("/sitemap-product-3.xml", headers={"Accept-Encoding": "gzip"})
    assert again.headers["Content-Encoding"] == "gzip" and again.headers["ETag"]
    assert not queries
    if isinstance(app.extensions.get("shop_session"), Session):
        app.extensions["shop_session"].close()  # the app's own, ours to close


def test_a_part_is_answered_by_a_process_that_never_built_the_index(
    database: tuple[str, list[str]],
) -> None:
    url, queries = database
    app = make_shop(url, queries)
    response = app.test_client().get("/sitemap-product-9.xml")
    assert response.status_code == 200
    # Where parts begin, once, then the part's own range: nothing else.
    assert len(queries) == 2
    assert "WITH RECURSIVE" in queries[0] and "WITH" not in queries[1]
    del queries[:]
    assert app.test_client().get("/sitemap-product-3.xml").status_code == 200
    assert len(queries) == 1 and ">=" in queries[0]
    assert locs(response.data) == [f"{ORIGIN}/products/{n}" for n in listed()[80:]]
    head = app.test_client().head("/sitemap-product-9.xml")
    assert head.status_code == 200 and head.headers["ETag"]


def test_a_localized_page_counts_once_per_locale(
    database: tuple[str, list[str]],
) -> None:
    url, queries = database
    app = Flask("shop")
    app.config.update(
        APP_URL=ORIGIN,
        APP_LOCALES=["en", "de"],
        SQLALCHEMY_DATABASE_URI=url,
        SQLALCHEMY_ENGINE_OPTIONS={"poolclass": NullPool},
        MARMEON_SITEMAP_MAX_URLS=10,
    )
    SQLAlchemy(app, model_class=Base)
    Marmeon(app)
    shop = localized(Blueprint("shop", __name__))
    shop.add_url_rule(
        "/products/<int:product_id>",
        "product",
        lambda product_id: "p",
        authorize=everyone,
        sitemap=paged(
            select(Product.id).where(Product.listed),
            key=Product.id,
            entry=lambda row: {"params": {"product_id": row.id}},
        ),
    )
    app.register_blueprint(shop)
    client = app.test_client()
    parts = locs(client.get("/sitemap.xml").data)
    assert len(parts) == 18  # 86 pages, 5 a part (two URLs each)
    first = client.get("/sitemap-shop-product-1.xml").data
    assert len(locs(first)) == 10
    assert locs(first)[:2] == [f"{ORIGIN}/en/products/1", f"{ORIGIN}/de/products/1"]


def test_rows_added_after_the_ranges_wait_for_the_next_ones(
    database: tuple[str, list[str]], caplog: pytest.LogCaptureFixture
) -> None:
    url, queries = database
    app = make_shop(url, queries)
    client = app.test_client()
    client.get("/sitemap.xml")
    # Inside the first part's range: 7 and 14 become listed.
    change(url, "UPDATE product SET listed = true WHERE id IN (7, 14)")
    with caplog.at_level(logging.WARNING, "flask_marmeon"):
        first = locs(client.get("/sitemap-product-1.xml").data)
    assert len(first) == 10
    assert first == [f"{ORIGIN}/products/{n}" for n in range(1, 11)]
    (said,) = [r.getMessage() for r in caplog.records if "wait" in r.getMessage()]
    assert "keys from 1 up to 12" in said and "wait for the next ranges" in said


def test_a_failing_database_is_that_part_s_503_alone(
    database: tuple[str, list[str]], caplog: pytest.LogCaptureFixture
) -> None:
    url, queries = database
    app = make_shop(url, queries)
    client = app.test_client()
    assert client.get("/sitemap.xml").status_code == 200
    assert client.get("/sitemap-product-1.xml").status_code == 200
    change(url, "ALTER TABLE product RENAME COLUMN updated TO changed")
    with caplog.at_level(logging.ERROR, "flask_marmeon"):
        failed = client.get("/sitemap-product-2.xml")
    assert failed.status_code == 503
    assert int(failed.headers["Retry-After"]) > 0
    said = "\n".join(
        f"{r.getMessage()} {r.exc_text or ''}"
        for r in caplog.records
        if r.levelno >= logging.ERROR
    )
    assert "part 2 of the route '/products/<int:product_id>'" in said
    assert "keys from 12 up to 24" in said
    # The index and the other parts are still served.
    assert client.get("/sitemap.xml").status_code == 200
    assert client.get("/sitemap-product-1.xml").status_code == 200
    assert client.get("/sitemap-1.xml").status_code == 200


def test_rows_that_make_wrong_entries_get_the_usual_messages(
    database: tuple[str, list[str]], caplog: pytest.LogCaptureFixture
) -> None:
    url, queries = database
    app = make_shop(
        url, queries, entry=lambda row: {"params": {"product_id": row.id}, "lastmod": 1}
    )
    with caplog.at_level(logging.ERROR, "flask_marmeon"):
        assert app.test_client().get("/sitemap-product-1.xml").status_code == 503
    said = "\n".join(r.exc_text or "" for r in caplog.records)
    assert (
        "The sitemap provider of the route '/products/<int:product_id>'"
        " (endpoint 'product') gave an entry with the key 'lastmod'" in said
    )
    assert "Did you mean 'last_modified'?" in said


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (
            {"key": "price"},
            "has paged(..., key='price'), which is not a column of its statement"
            " (it selects 'id', 'updated')",
        ),
        ({"key": Base.metadata.tables["product"].c.listed}, "which is not a column"),
        ({"statement": "SELECT id FROM product"}, "which is not a select()"),
        (
            {"statement": select(Product.id).order_by(Product.updated).limit(5)},
            "has paged(select(...).limit(), ...), which paged() cannot keep (its"
            " parts are ranges of the key, in key order): a sitemap of paged()"
            " lists every row of its statement; to list only some, filter with"
            " .where()",
        ),
        ({"statement": select(Product.id).offset(5)}, "select(...).offset()"),
        ({"statement": select(Product.id).distinct()}, "select(...).distinct()"),
        (
            {"statement": select(Product.id).group_by(Product.id)},
            "select(...).group_by(), ...), which paged() cannot keep",
        ),
        (
            {
                "statement": select(Product.id)
                .group_by(Product.id)
                .having(Product.id > 3)
            },
            "select(...).having()",
        ),
        (
            {
                "statement": select(
                    Product.id,
                    func.rank().over(order_by=Product.updated).label("rank"),
                )
            },
            "with a window function (.over()) in 'rank', which paged() cannot keep",
        ),
        (
            {"statement": select(Product.id).with_for_update()},
            "select(...).with_for_update(), ...), which paged() cannot keep (its"
            " parts are ranges of the key, in key order): the sitemap only"
            " reads: remove it",
        ),
    ],
)
def test_bad_arguments_are_h10_at_the_route(
    options: dict[str, Any], message: str
) -> None:
    # Refused before any query: a database of one kind (in memory) is enough.
    queries: list[str] = []
    app = make_shop("sqlite://", queries, **options)
    with pytest.raises(StartupError) as raised:
        app.test_client().get("/sitemap.xml")
    assert queries == []
    assert "route '/products/<int:product_id>' (endpoint 'product')" in str(
        raised.value
    )
    assert message in str(raised.value)


def test_a_key_may_be_named() -> None:
    provider = paged(
        select(Product.id.label("pid")), key="pid", entry=lambda row: row.pid
    )
    assert provider.problems() == []


def test_the_statement_s_order_is_not_used_parts_are_in_key_order(
    database: tuple[str, list[str]],
) -> None:
    url, queries = database
    app = make_shop(
        url,
        queries,
        statement=select(Product.id, Product.updated)
        .where(Product.listed)
        .order_by(Product.updated.desc(), Product.id.desc()),
    )
    client = app.test_client()
    assert len(locs(client.get("/sitemap.xml").data)) == 10
    first = locs(client.get("/sitemap-product-1.xml").data)
    assert first == [f"{ORIGIN}/products/{n}" for n in listed()[:10]]


def test_a_limited_statement_pages_as_the_message_says(
    database: tuple[str, list[str]],
) -> None:
    """The fix the .limit() message gives: paged() over a subquery."""
    url, queries = database
    newest = (
        select(Product.id, Product.updated)
        .where(Product.listed)
        .order_by(Product.updated.desc(), Product.id)
        .limit(25)
        .subquery()
    )
    app = make_shop(
        url,
        queries,
        statement=select(newest),
        key=newest.c.id,
        entry=lambda row: SitemapEntry({"product_id": row.id}, row.updated),
    )
    client = app.test_client()
    parts = locs(client.get("/sitemap.xml").data)
    assert len(parts) == 4  # the about page's file and 25 products, 10 a part
    found = []
    for number in (1, 2, 3):
        found += locs(client.get(f"/sitemap-product-{number}.xml").data)
    engine = create_engine(url, poolclass=NullPool)
    with Session(engine) as session:
        expected = sorted(session.execute(select(newest.c.id)).scalars())
    engine.dispose()
    assert len(expected) == 25
    assert found == [f"{ORIGIN}/products/{n}" for n in expected]
