"""paged(..., last_modified=): IndexNow reads only the rows that changed."""

import tempfile
from datetime import datetime, timedelta, timezone

from flask import Flask
from flask_sqlalchemy import SQLAlchemy
from sqlalchemy import event, select
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from flask_marmeon import Marmeon, SitemapEntry, everyone, submit_changed
from flask_marmeon.sqlalchemy import paged


class Base(DeclarativeBase):
    pass


app = Flask(__name__, instance_path=tempfile.mkdtemp())
app.config["APP_URL"] = "https://shop.example"
app.config["MARMEON_INDEXNOW_KEY"] = "5f1c0e7d9a2b4c6e"
app.config["SQLALCHEMY_DATABASE_URI"] = "sqlite://"
db = SQLAlchemy(app, model_class=Base)
Marmeon(app)


class Product(db.Model):  # type: ignore[name-defined,misc]
    id: Mapped[int] = mapped_column(primary_key=True)
    # UTC; the index makes "changed since" a range scan.
    updated_at: Mapped[datetime] = mapped_column(index=True)


last_week = datetime.now(timezone.utc) - timedelta(days=7)
with app.app_context():
    db.create_all()
    db.session.add_all(
        Product(id=n, updated_at=last_week.replace(tzinfo=None)) for n in range(1, 1001)
    )
    db.session.commit()

read = []


@app.get(
    "/products/<int:product_id>",
    authorize=everyone,
    sitemap=paged(
        select(Product.id, Product.updated_at),
        key=Product.id,
        last_modified=Product.updated_at,
        entry=lambda row: (
            read.append(row.id)
            or SitemapEntry({"product_id": row.id}, last_modified=row.updated_at)
        ),
    ),
)
def product(product_id: int) -> str:
    return f"Product {product_id}"


with app.app_context():
    submit_changed(app)  # the first run: sets the watermark, sends nothing
    product_7 = db.session.get(Product, 7)
    product_7.updated_at = datetime.now(timezone.utc).replace(tzinfo=None)
    db.session.commit()

statements = []
with app.app_context():
    event.listen(
        db.engine,
        "before_cursor_execute",
        lambda *args: statements.append(args[2]),
    )
planned = submit_changed(app, dry_run=True)
assert planned.urls == ("https://shop.example/products/7",)
# One row of a thousand was read, by one query with a WHERE on updated_at.
assert read == [7]
assert len(statements) == 1 and "updated_at >" in statements[0]
