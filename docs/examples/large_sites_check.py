"""A completeness check: every row of the statement once in the sitemap."""

import gzip
import re

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
app.config["SQLALCHEMY_DATABASE_URI"] = "sqlite://"
app.config["MARMEON_SITEMAP_MAX_URLS"] = 40  # 50,000 by default; small to show
db = SQLAlchemy(app, model_class=Base)
Marmeon(app)


class Listing(db.Model):  # type: ignore[name-defined,misc]
    id: Mapped[int] = mapped_column(primary_key=True)
    published: Mapped[bool]


LISTED = select(Listing.id).where(Listing.published)

with app.app_context():
    db.create_all()
    db.session.add_all(Listing(id=n, published=n % 9 != 0) for n in range(1, 501))
    db.session.commit()


@app.get(
    "/listings/<int:listing_id>",
    authorize=everyone,
    sitemap=paged(
        LISTED,
        key=Listing.id,
        entry=lambda row: SitemapEntry({"listing_id": row.id}),
    ),
)
def listing(listing_id: int) -> str:
    return f"Listing {listing_id}"


SM = "{http://www.sitemaps.org/schemas/sitemap/0.9}"


def fetch(path: str) -> bytes:
    """In production: urllib.request.urlopen(APP_URL + path), or the CDN's."""
    response = app.test_client().get(path, headers={"Accept-Encoding": "gzip"})
    assert response.status_code == 200, (path, response.status_code)
    body = response.data
    return gzip.decompress(body) if body[:2] == b"\x1f\x8b" else body


def locs(body: bytes) -> list[str]:
    return [loc.text or "" for loc in etree.fromstring(body).iter(f"{SM}loc")]


# Crawl the index and every part, as a crawler does.
listed: list[int] = []
for part in locs(fetch("/sitemap.xml")):
    for address in locs(fetch(part.removeprefix("https://shop.example"))):
        found = re.fullmatch(r"https://shop\.example/listings/(\d+)", address)
        if found:
            listed.append(int(found[1]))
# Against the table: the same statement the route pages over.
with app.app_context():
    rows = set(db.session.scalars(LISTED))
twice = {key for key in listed if listed.count(key) > 1}
missing = rows - set(listed)
assert not twice and not missing, (sorted(twice)[:10], sorted(missing)[:10])
assert len(listed) == len(rows) == 445
