"""The shop of paged()'s part tests: products 1..100 (every 7th unlisted)
and an app whose paged route lists them, through each kind of session."""

from __future__ import annotations

from datetime import date
from typing import Any

from flask import Flask
from flask_sqlalchemy import SQLAlchemy
from sqlalchemy import create_engine, event, select, text
from sqlalchemy.orm import (
    DeclarativeBase,
    Mapped,
    Session,
    mapped_column,
    scoped_session,
    sessionmaker,
)
from sqlalchemy.pool import NullPool

from flask_marmeon import Marmeon, SitemapEntry, everyone
from flask_marmeon.sqlalchemy import paged

ORIGIN = "https://shop.example"


class Base(DeclarativeBase):
    pass


class Product(Base):
    __tablename__ = "product"
    id: Mapped[int] = mapped_column(primary_key=True)
    listed: Mapped[bool]
    updated: Mapped[date]


def listed() -> list[int]:
    return [n for n in range(1, 101) if n % 7 != 0]


def change(url: str, sql: str) -> None:
    """Change the database behind the app's back, as another program would."""
    engine = create_engine(url, poolclass=NullPool)
    with Session(engine) as session:
        session.execute(text(sql))
        session.commit()
    engine.dispose()


def make_shop(
    url: str,
    queries: list[str],
    *,
    session: str = "flask_sqlalchemy",
    max_urls: int = 10,
    **options: Any,
) -> Flask:
    app = Flask("shop")
    app.config.update(
        TESTING=True,
        APP_URL=ORIGIN,
        SQLALCHEMY_DATABASE_URI=url,
        MARMEON_SITEMAP_MAX_URLS=max_urls,
    )
    source: Any = None
    # No pool: a connection is closed when its session is (PostgreSQL's
    # driver warns of one left open).
    app.config["SQLALCHEMY_ENGINE_OPTIONS"] = {"poolclass": NullPool}
    if session == "flask_sqlalchemy":
        db = SQLAlchemy(app, model_class=Base)
        with app.app_context():
            engine = db.engine
    else:
        engine = create_engine(url, poolclass=NullPool)
        maker = sessionmaker(engine)
        source = {
            "session": maker(),
            "sessionmaker": maker,
            "scoped_session": scoped_session(maker),
            "callable": lambda: maker(),
        }[session]
        app.extensions["shop_session"] = source

    @event.listens_for(engine, "before_cursor_execute")
    def count(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        # The product table's queries (not a driver's own on connecting).
        if "product" in statement:
            queries.append(statement)

    Marmeon(app)
    statement = options.pop(
        "statement", select(Product.id, Product.updated).where(Product.listed)
    )
    provider = paged(
        statement,
        key=options.pop("key", Product.id),
        entry=options.pop(
            "entry",
            lambda row: SitemapEntry({"product_id": row.id}, row.updated),
        ),
        session=source,
    )
    app.add_url_rule(
        "/products/<int:product_id>",
        "product",
        lambda product_id: "product",
        sitemap=provider,
        authorize=everyone,
    )
    app.add_url_rule(
        "/about", "about", lambda: "about", sitemap=True, authorize=everyone
    )
    return app
