"""export-sitemap in production: one database snapshot, the last export left
whole by a failure, only its own files removed, --base-url, and the app's
sitemap served elsewhere (MARMEON_SITEMAP_URL, MARMEON_SITEMAP_SERVE)."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from pathlib import Path

import pytest
from flask import Flask
from sqlalchemy import create_engine, text
from sqlalchemy.pool import NullPool

from flask_marmeon import SitemapEntry, everyone
from flask_marmeon.sitemap.export import ExportError, export_sitemap

from .conftest import locs, unhashed
from .paged_keys import Keys
from .tables import Items, items_app

ORIGIN = "https://shop.example"


def listed(directory: Path) -> list[str]:
    index = (directory / "sitemap.xml").read_bytes()
    found: list[str] = []
    for address in locs(index):
        found += locs((directory / address.rsplit("/", 1)[1]).read_bytes())
    return found


def test_every_part_is_read_in_one_database_snapshot(
    postgres_url: str, tmp_path: Path
) -> None:
    engine = create_engine(postgres_url, poolclass=NullPool)
    Items.metadata.create_all(engine)
    with engine.begin() as connection:
        connection.execute(text("INSERT INTO item SELECT generate_series(1, 100)"))
    changed = False

    def entry(row: object) -> SitemapEntry:
        nonlocal changed
        if not changed:
            # While the first part is read, another program deletes rows of
            # the later parts and adds rows before them: read apart, parts
            # would miss rows and list others twice.
            changed = True
            with engine.begin() as connection:
                connection.execute(text("DELETE FROM item WHERE id > 60"))
                connection.execute(
                    text("INSERT INTO item SELECT generate_series(101, 130)")
                )
                connection.execute(text("DELETE FROM item WHERE id <= 20"))
        return SitemapEntry({"n": row.id})  # type: ignore[attr-defined]

    export_sitemap(items_app(engine, entry), tmp_path)
    assert changed
    # The rows as they were when the export began, each once.
    assert listed(tmp_path) == [f"{ORIGIN}/items/{n}" for n in range(1, 101)]


def fingerprint(directory: Path) -> dict[str, str]:
    return {
        path.name: hashlib.sha256(path.read_bytes()).hexdigest()
        for path in directory.iterdir()
        if path.is_file()
    }


def shop(make_app: Callable[..., Flask], provider: Keys, **config: object) -> Flask:
    app = make_app(APP_URL=ORIGIN, MARMEON_SITEMAP_MAX_URLS=4, **config)
    app.add_url_rule(
        "/products/<int:n>", "products", str, authorize=everyone, sitemap=provider
    )
    return app


def test_a_failure_changes_no_file_of_the_last_export(
    make_app: Callable[..., Flask], tmp_path: Path
) -> None:
    provider = Keys(list(range(1, 11)))
    app = shop(make_app, provider)
    export_sitemap(app, tmp_path)
    before = fingerprint(tmp_path)
    provider.keys[:] = list(range(1, 31))
    provider.fail = {25}  # the seventh part: parts 1 to 6 were new
    with pytest.raises(ExportError, match="Nothing in .* was changed"):
        export_sitemap(app, tmp_path)
    assert fingerprint(tmp_path) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(before)


def test_another_tool_s_index_and_its_files_are_left_alone(
    make_app: Callable[..., Flask], tmp_path: Path
) -> None:
    (tmp_path / "sitemap.xml").write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
        f"<sitemap><loc>{ORIGIN}/sitemap-news.xml</loc></sitemap></sitemapindex>\n"
    )
    for name in ("sitemap-news.xml", "sitemap-news.xml.gz"):
        (tmp_path / name).write_bytes(b"news")
    export_sitemap(shop(make_app, Keys(list(range(1, 11)))), tmp_path)
    assert (tmp_path / "sitemap-news.xml").read_bytes() == b"news"
    assert (tmp_path / "sitemap-news.xml.gz").read_bytes() == b"news"


def test_a_directory_named_like_a_file_stops_the_export_before_any_change(
    make_app: Callable[..., Flask], tmp_path: Path
) -> None:
    app = shop(make_app, Keys(list(range(1, 11))))
    # The same rows again: the same files, under the same names.
    second = export_sitemap(app, tmp_path)[1]
    assert unhashed(second) == "sitemap-products-2.xml"
    before = fingerprint(tmp_path)
    (tmp_path / second).unlink()
    (tmp_path / second).mkdir()
    del before[second]
    with pytest.raises(ExportError, match=f"{second}' is a directory"):
        export_sitemap(app, tmp_path)
    assert fingerprint(tmp_path) == before
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".marmeon-export-")]


def test_base_url_names_the_files_where_they_are_served(
    make_app: Callable[..., Flask], tmp_path: Path
) -> None:
    app = shop(make_app, Keys(list(range(1, 11))))
    result = app.test_cli_runner().invoke(
        args=[
            "marmeon",
            "export-sitemap",
            str(tmp_path),
            "--base-url",
            "https://cdn.example/maps/",
        ]
    )
    assert result.exit_code == 0, result.output
    found = locs((tmp_path / "sitemap.xml").read_bytes())
    assert [unhashed(loc) for loc in found] == [
        f"https://cdn.example/maps/sitemap-products-{n}.xml" for n in (1, 2, 3)
    ]
    for loc in found:
        assert (tmp_path / loc.removeprefix("https://cdn.example/maps/")).is_file()
    with pytest.raises(ExportError, match="--base-url 'ftp://cdn.example'"):
        export_sitemap(app, tmp_path, base_url="ftp://cdn.example")


def test_the_sitemap_served_elsewhere(make_app: Callable[..., Flask]) -> None:
    app = shop(
        make_app,
        Keys(list(range(1, 11))),
        MARMEON_SITEMAP_URL="https://cdn.example/maps/sitemap.xml",
        MARMEON_SITEMAP_SERVE=False,
    )
    client = app.test_client()
    assert client.get("/sitemap.xml").status_code == 404
    assert client.get("/sitemap-products-1.xml").status_code == 404
    robots = client.get("/robots.txt")
    assert robots.status_code == 200
    lines = robots.get_data(as_text=True).splitlines()
    assert [line for line in lines if line.startswith("Sitemap:")] == [
        "Sitemap: https://cdn.example/maps/sitemap.xml"
    ]
    # Without an address elsewhere, robots.txt names no sitemap.
    bare = shop(make_app, Keys([1]), MARMEON_SITEMAP_SERVE=False)
    text = bare.test_client().get("/robots.txt").get_data(as_text=True)
    assert "Sitemap:" not in text
    # An address that is not one is refused at the start.
    with pytest.raises(ValueError, match="MARMEON_SITEMAP_URL 'cdn/sitemap.xml'"):
        shop(make_app, Keys([1]), MARMEON_SITEMAP_URL="cdn/sitemap.xml")
