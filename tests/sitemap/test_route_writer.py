"""The one loop: every entry written whole, in order, within each file's limits."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, datetime, timedelta, timezone
from typing import Any

import pytest
from flask import Blueprint, Flask
from lxml import etree

from flask_marmeon import SitemapEntry, everyone, localized
from flask_marmeon.sitemap.build import build_sitemap
from flask_marmeon.sitemap.state import sitemap_of

from .conftest import SM, XHTML

ORIGIN = "https://notes.example"
IMAGE_NS = "http://www.google.com/schemas/sitemap-image/1.1"


def entries() -> list[Any]:
    """Planned entries, and others (images, own locales, dict form) among them."""
    start = date(2024, 1, 1)
    made: list[Any] = []
    for n in range(1, 400):
        day = start + timedelta(days=(n * 37) % 300)
        if n % 9 == 0:
            made.append(SitemapEntry({"n": n}, day, images=[f"/i/{n}.png"]))
        elif n % 11 == 0:
            made.append(SitemapEntry({"n": n}, day, locales=["de-AT"]))
        elif n % 13 == 0:
            made.append({"params": {"n": n}, "last_modified": day})
        else:
            made.append(SitemapEntry({"n": n}, day if n % 5 else None))
    return made


def build(make_app: Callable[..., Flask], localize: bool, **config: Any) -> Any:
    max_bytes = config.pop("max_bytes", None)
    app = make_app(APP_URL=ORIGIN, APP_LOCALES=["en", "de-AT"], **config)
    if max_bytes is not None:
        sitemap_of(app).max_bytes = max_bytes
    items = entries()
    target: Flask | Blueprint = Blueprint("n", __name__) if localize else app
    target.get("/n/<int:n>", sitemap=lambda: items, authorize=everyone)(str)
    if isinstance(target, Blueprint):
        app.register_blueprint(localized(target))
    app.test_client().get("/robots.txt")  # the start-up checks
    return build_sitemap(app)


def urls_of(body: bytes) -> list[tuple[str, str | None, bytes]]:
    root = etree.fromstring(body)
    return [
        (
            url.findtext(f"{SM}loc") or "",
            url.findtext(f"{SM}lastmod"),
            etree.tostring(url),
        )
        for url in root.iter(f"{SM}url")
    ]


@pytest.mark.parametrize("localize", [False, True], ids=["plain", "localized"])
@pytest.mark.parametrize(
    "limits",
    [{"MARMEON_SITEMAP_MAX_URLS": 37}, {"max_bytes": 9_000}, {"max_bytes": 3_000}],
    ids=["urls", "bytes", "few bytes"],
)
def test_the_index_splits_without_losing_or_tearing_an_entry(
    make_app: Callable[..., Flask],
    urlset_schema: etree.XMLSchema,
    localize: bool,
    limits: dict[str, Any],
) -> None:
    whole = build(make_app, localize)
    assert len(whole.files) == 1
    expected = urls_of(whole.files[0].body)
    split = build(make_app, localize, MARMEON_SITEMAP_INDEX=True, **limits)
    assert len(split.files) > 3
    found: list[tuple[str, str | None, bytes]] = []
    index = etree.fromstring(split.index)
    lastmods = [m.text for m in index.iter(f"{SM}lastmod")]
    for file, lastmod in zip(split.files, lastmods, strict=True):
        root = etree.fromstring(file.body)
        urlset_schema.assertValid(root)
        assert len(file.body) <= limits.get("max_bytes", 52_428_800)
        assert len(root) <= limits.get("MARMEON_SITEMAP_MAX_URLS", 50_000)
        assert len(root) == file.urls
        mine = urls_of(file.body)
        assert lastmod == max(day for _, day, _ in mine if day is not None)
        images = list(root.iter(f"{{{IMAGE_NS}}}image"))
        assert (IMAGE_NS in root.nsmap.values()) is bool(images)
        # A localized entry's versions stay in one file.
        here = {loc for loc, _, _ in mine}
        for link in root.iter(f"{XHTML}link"):
            assert link.get("hreflang") == "x-default" or link.get("href") in here
        found += mine
    assert [(loc, day) for loc, day, _ in found] == [
        (loc, day) for loc, day, _ in expected
    ]


def test_without_the_index_the_rest_is_left_out_once_a_file_is_full(
    make_app: Callable[..., Flask], urlset_schema: etree.XMLSchema
) -> None:
    whole = urls_of(build(make_app, True).files[0].body)
    (file,) = build(make_app, True, max_bytes=9_000).files
    assert len(file.body) <= 9_000
    urlset_schema.assertValid(etree.fromstring(file.body))
    cut = urls_of(file.body)
    assert cut == whole[: len(cut)] and 0 < len(cut) < len(whole)


@pytest.mark.parametrize("localize", [False, True], ids=["plain", "localized"])
def test_each_datetime_is_written_as_its_day_in_utc_beside_dates_of_that_day(
    make_app: Callable[..., Flask], localize: bool
) -> None:
    # Rows of a table: each its own datetime (a second apart, in several
    # offsets, some past midnight in UTC but not where they were written),
    # with dates of the same days before and after them, and naive ones.
    offsets = [
        timezone.utc,
        timezone(timedelta(hours=2)),
        timezone(timedelta(hours=-5)),
    ]
    values: list[date | datetime] = []
    for n in range(600):
        moment = datetime(2024, 2, 28, 21, 0, n % 60, tzinfo=offsets[n % 3])
        moment += timedelta(hours=n // 60)
        values.append(moment)
        if n % 7 == 0:
            values.append(moment.date())
        if n % 11 == 0:
            values.append(moment.replace(tzinfo=None))
    expected = {}
    for n, value in enumerate(values, start=1):
        if isinstance(value, datetime) and value.tzinfo is not None:
            value = value.astimezone(timezone.utc)
        day = value.date() if isinstance(value, datetime) else value
        expected[n] = day.isoformat()
    app = make_app(APP_URL=ORIGIN, APP_LOCALES=["en", "de-AT"])
    target: Flask | Blueprint = Blueprint("n", __name__) if localize else app
    target.get(
        "/n/<int:n>",
        sitemap=lambda: [
            SitemapEntry({"n": n}, last_modified=value)
            for n, value in enumerate(values, start=1)
        ],
        authorize=everyone,
    )(str)
    if isinstance(target, Blueprint):
        app.register_blueprint(localized(target))
    app.test_client().get("/robots.txt")  # the start-up checks
    (file,) = build_sitemap(app).files
    urls = urls_of(file.body)
    assert len(urls) == len(values) * (2 if localize else 1)
    assert {loc: day for loc, day, _ in urls} == {
        loc: expected[int(loc.rsplit("/", 1)[1])] for loc, _, _ in urls
    }
    assert {int(loc.rsplit("/", 1)[1]) for loc, _, _ in urls} == set(expected)
