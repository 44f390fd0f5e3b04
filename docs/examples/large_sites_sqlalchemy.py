"""paged(): a table's pages in parts, each read by a range of its key."""

from datetime import date
from typing import Any

from flask import Flask
from flask_sqlalchemy import SQLAlchemy
from lxml import etree
from sqlalchemy import select
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from flask_marmeon import Marmeon, SitemapEntry, everyone
from flask_marmeon.sqlalchemy import paged


class Base(DeclarativeBase):
    pass


app = Flask(__name__)
app.config["APP_URL"] = "https://shop.example"
app.config["SQLALCHEMY_DATABASE_URI"] = "sqlite:///shop.db"
app.config["MARMEON_SITEMAP_MAX_URLS"] = 3  # 50,000 by default; small to show
db = SQLAlchemy(app, model_class=Base)
Marmeon(app)


class Product(db.Model):  # type: ignore[name-defined,misc]
    id: Mapped[int] = mapped_column(primary_key=True)
    listed: Mapped[bool]
    updated_at: Mapped[date]


with app.app_context():
    db.create_all()
    db.session.add_all(
        Product(id=n, listed=n != 4, updated_at=date(2025, 1, n)) for n in range(1, 9)
    )
    db.session.commit()


def product_entry(row: Any) -> SitemapEntry:
    # Unpacked (or row[0]): faster than row.id once per row of a part.
    product_id, updated_at = row
    return SitemapEntry({"product_id": product_id}, last_modified=updated_at)


@app.get(
    "/products/<int:product_id>",
    authorize=everyone,
    sitemap=paged(
        select(Product.id, Product.updated_at).where(Product.listed),
        key=Product.id,
        entry=product_entry,
    ),
)
def product(product_id: int) -> str:
    return f"Product {product_id}"


client = app.test_client()
ns = {"sm": "http://www.sitemaps.org/schemas/sitemap/0.9"}
index = etree.fromstring(client.get("/sitemap.xml").data)
# Seven listed products, three a part: the index names three parts.
assert [s.findtext("sm:loc", namespaces=ns) for s in index] == [
    "https://shop.example/sitemap-product-1.xml",
    "https://shop.example/sitemap-product-2.xml",
    "https://shop.example/sitemap-product-3.xml",
]
second = etree.fromstring(client.get("/sitemap-product-2.xml").data)
assert [u.findtext("sm:loc", namespaces=ns) for u in second] == [
    "https://shop.example/products/5",
    "https://shop.example/products/6",
    "https://shop.example/products/7",
]
