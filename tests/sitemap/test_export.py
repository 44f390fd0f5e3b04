"""flask marmeon export-sitemap DIR: every file, its .gz, the index last."""

from __future__ import annotations

import gzip
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from lxml import etree

from flask_marmeon import SitemapEntry, everyone
from flask_marmeon.sitemap.export import export_sitemap

from .conftest import SM
from .test_paged import Keys

ORIGIN = "https://shop.example"


def shop(make_app: Callable[..., Flask], keys: list[int]) -> Flask:
    app = make_app(APP_URL=ORIGIN, MARMEON_SITEMAP_MAX_URLS=4)
    app.add_url_rule(
        "/products/<int:n>", "products", str, authorize=everyone, sitemap=Keys(keys)
    )
    app.add_url_rule(
        "/notes/<int:n>",
        "notes",
        str,
        authorize=everyone,
        sitemap=lambda: [SitemapEntry({"n": n}) for n in range(1, 7)],
    )
    return app


def test_every_file_and_its_gzip_form_the_index_last(
    make_app: Callable[..., Flask],
    tmp_path: Path,
    urlset_schema: etree.XMLSchema,
    index_schema: etree.XMLSchema,
) -> None:
    app = shop(make_app, list(range(1, 11)))
    target = tmp_path / "a" / "b"
    result = app.test_cli_runner().invoke(
        args=["marmeon", "export-sitemap", str(target)]
    )
    assert result.exit_code == 0, result.output
    names = ["sitemap-1.xml", "sitemap-2.xml"]
    names += [f"sitemap-products-{n}.xml" for n in (1, 2, 3)]
    assert sorted(p.name for p in target.iterdir()) == sorted(
        [*names, "sitemap.xml", *(f"{n}.gz" for n in [*names, "sitemap.xml"])]
    )
    index = etree.fromstring((target / "sitemap.xml").read_bytes())
    index_schema.assertValid(index)
    assert [loc.text for loc in index.iter(f"{SM}loc")] == [
        f"{ORIGIN}/{name}" for name in names
    ]
    # Each file is the one the app serves, and its .gz the same bytes.
    client = app.test_client()
    for name in [*names, "sitemap.xml"]:
        body = (target / name).read_bytes()
        assert gzip.decompress((target / f"{name}.gz").read_bytes()) == body
        assert client.get(f"/{name}").data == body
        if name != "sitemap.xml":
            urlset_schema.assertValid(etree.fromstring(body))
    # The index is written last: its time is the newest.
    times = {p.name: p.stat().st_mtime_ns for p in target.iterdir()}
    assert times["sitemap.xml"] >= max(
        t for n, t in times.items() if not n.startswith("sitemap.xml")
    )


def test_a_second_export_replaces_the_first(
    make_app: Callable[..., Flask], tmp_path: Path
) -> None:
    keys = list(range(1, 11))
    provider = Keys(keys)
    app = make_app(APP_URL=ORIGIN, MARMEON_SITEMAP_MAX_URLS=4)
    app.add_url_rule(
        "/products/<int:n>", "products", str, authorize=everyone, sitemap=provider
    )
    (tmp_path / "mine.txt").write_text("kept")
    first = export_sitemap(app, tmp_path)
    assert "sitemap-products-3.xml" in first
    del provider.keys[5:]  # two parts of four or fewer
    second = export_sitemap(app, tmp_path)
    assert second == [
        "sitemap-products-1.xml",
        "sitemap-products-2.xml",
        "sitemap.xml",
    ]
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        ["mine.txt", *second, *(f"{n}.gz" for n in second)]
    )
    # No temporary file is left behind.
    assert not [n for n in os.listdir(tmp_path) if n.endswith(".tmp")]


def test_the_files_appear_whole(
    make_app: Callable[..., Flask], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = shop(make_app, list(range(1, 11)))
    seen: list[tuple[str, bool]] = []
    order: list[str] = []
    replace = os.replace

    def watch(source: Any, target: Any) -> None:
        # Whenever a name appears, every file already there is complete.
        for path in Path(tmp_path).glob("sitemap*.xml"):
            seen.append((path.name, path.read_bytes().endswith(b">\n")))
        order.append(Path(target).name)
        replace(source, target)

    monkeypatch.setattr(os, "replace", watch)
    export_sitemap(app, tmp_path)
    assert seen and all(whole for _, whole in seen)
    # The index appears last (its .gz after it).
    assert order[-2:] == ["sitemap.xml", "sitemap.xml.gz"]
    assert len(order) == 12


def test_an_app_with_h10_problems_is_refused(
    make_app: Callable[..., Flask], tmp_path: Path
) -> None:
    app = make_app(APP_URL=ORIGIN)
    app.add_url_rule("/products/<int:n>", "products", str, sitemap=True)
    result = app.test_cli_runner().invoke(
        args=["marmeon", "export-sitemap", str(tmp_path / "out")]
    )
    assert result.exit_code == 1
    assert "H10" in result.output or "problem" in result.output
