"""flask marmeon export-sitemap DIR: every file, its .gz, the index last."""

from __future__ import annotations

import gzip
import hashlib
import os
import pty
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from lxml import etree

from flask_marmeon import SitemapEntry, everyone
from flask_marmeon.sitemap.export import export_sitemap

from .conftest import SM, locs, unhashed
from .paged_keys import Keys

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
    served = ["sitemap-1.xml", "sitemap-2.xml"]
    served += [f"sitemap-products-{n}.xml" for n in (1, 2, 3)]
    # Each file but the index under its name and the digest of its bytes;
    # beside them, the list of the files written (what a later export may
    # remove).
    found = sorted(p.name for p in target.iterdir())
    assert sorted(map(unhashed, found)) == sorted(
        [
            *served,
            "sitemap.xml",
            *(f"{n}.gz" for n in [*served, "sitemap.xml"]),
            ".marmeon-export",
        ]
    )
    index = etree.fromstring((target / "sitemap.xml").read_bytes())
    index_schema.assertValid(index)
    names = [
        (loc.text or "").removeprefix(f"{ORIGIN}/") for loc in index.iter(f"{SM}loc")
    ]
    assert list(map(unhashed, names)) == served
    # Each file is the one the app serves, and its .gz the same bytes.
    client = app.test_client()
    for name in [*names, "sitemap.xml"]:
        body = (target / name).read_bytes()
        assert gzip.decompress((target / f"{name}.gz").read_bytes()) == body
        if name != "sitemap.xml":
            assert client.get(f"/{unhashed(name)}").data == body
            urlset_schema.assertValid(etree.fromstring(body))
            digest = hashlib.sha256(body).hexdigest()[:12]
            assert name == unhashed(name).replace(".xml", f".{digest}.xml")
    # The index names the files the app's own index names.
    assert locs(client.get("/sitemap.xml").data) == [f"{ORIGIN}/{n}" for n in served]
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
    assert "sitemap-products-3.xml" in map(unhashed, first)
    del provider.keys[5:]  # two parts of four or fewer
    second = export_sitemap(app, tmp_path)
    assert list(map(unhashed, second)) == [
        "sitemap-products-1.xml",
        "sitemap-products-2.xml",
        "sitemap.xml",
    ]
    # The first export's files stay while its index may still be read
    # (its first part is the second's too: the same bytes, the same name).
    both = sorted({*first, *second})
    assert len(both) == 5
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        ["mine.txt", *both, *(f"{n}.gz" for n in both), ".marmeon-export"]
    )
    assert sorted((tmp_path / ".marmeon-export").read_text().split()) == both
    # The next export removes them.
    provider.keys[:] = list(range(1, 4))
    third = export_sitemap(app, tmp_path)
    kept = sorted({*second, *third})
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        ["mine.txt", *kept, *(f"{n}.gz" for n in kept), ".marmeon-export"]
    )
    assert sorted((tmp_path / ".marmeon-export").read_text().split()) == kept
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


def export(app: Flask, target: Path | str) -> Any:
    """``flask marmeon export-sitemap target``, through the app's CLI runner."""
    return app.test_cli_runner().invoke(args=["marmeon", "export-sitemap", str(target)])


def said_plainly(result: Any) -> str:
    """What a failed export said: exit status 1, an "Error:" line and no
    traceback (the command handled the failure instead of crashing)."""
    assert result.exit_code == 1, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        result.exception
    )
    assert "Traceback" not in result.output
    assert "Error: " in result.output
    return str(result.output)


@pytest.mark.parametrize("kind", ["dangling symlink", "under a file"])
def test_a_directory_that_cannot_be_made_is_named(
    make_app: Callable[..., Flask], tmp_path: Path, kind: str
) -> None:
    app = shop(make_app, list(range(1, 11)))
    if kind == "dangling symlink":
        target = tmp_path / "link"
        target.symlink_to(tmp_path / "gone")
    else:
        (tmp_path / "file").write_text("not a directory")
        target = tmp_path / "file" / "out"
    output = said_plainly(export(app, target))
    assert str(target) in output
    assert "directory" in output


def test_a_store_failing_midway_leaves_the_last_export_whole(
    make_app: Callable[..., Flask], tmp_path: Path
) -> None:
    provider = Keys(list(range(1, 11)))
    app = make_app(APP_URL=ORIGIN, MARMEON_SITEMAP_MAX_URLS=4)
    app.add_url_rule(
        "/products/<int:n>", "products", str, authorize=everyone, sitemap=provider
    )
    assert export(app, tmp_path).exit_code == 0
    before = (tmp_path / "sitemap.xml").read_bytes()
    provider.keys[:] = list(range(1, 21))
    provider.fail = {17}  # the fifth part's first key: the store goes away
    output = said_plainly(export(app, tmp_path))
    # The route and the range that failed, and what the directory holds now.
    assert "'/products/<int:n>'" in output
    assert "17" in output and "the store is down" in output
    assert "sitemap.xml" in output
    # The index is still the first export's, and lists only files there.
    assert (tmp_path / "sitemap.xml").read_bytes() == before
    for loc in locs(before):
        assert (tmp_path / loc.removeprefix(f"{ORIGIN}/")).is_file()
    assert not [n for n in os.listdir(tmp_path) if n.endswith(".tmp")]


def test_a_store_that_cannot_say_where_parts_begin_is_named(
    make_app: Callable[..., Flask], tmp_path: Path
) -> None:
    class Down(Keys):
        def boundaries(self, size: int) -> list[int]:
            raise ConnectionError("no route to the database")

    app = make_app(APP_URL=ORIGIN)
    app.add_url_rule(
        "/products/<int:n>", "products", str, authorize=everyone, sitemap=Down([1])
    )
    output = said_plainly(export(app, tmp_path / "out"))
    assert "'/products/<int:n>'" in output
    assert "no route to the database" in output
    assert not (tmp_path / "out" / "sitemap.xml").exists()


FAILING_SHOP = """
from flask import Flask
from flask_marmeon import Marmeon, SitemapEntry, everyone


class Shop:
    def boundaries(self, size):
        return [1, 3, 5]

    def entries(self, start, stop, limit):
        if start == 5:
            raise ConnectionError("the store is down")
        return [SitemapEntry({"n": n}) for n in range(start, stop)]


app = Flask(__name__)
app.config.update(APP_URL="https://shop.example", MARMEON_SITEMAP_MAX_URLS=2)
Marmeon(app)
app.add_url_rule("/products/<int:n>", "products", str, authorize=everyone,
                 sitemap=Shop())
"""


def test_on_a_terminal_a_failed_export_ends_its_progress_bar(tmp_path: Path) -> None:
    # The bar hides the cursor while it runs: a failure must end its line
    # and show the cursor again, or the shell is left without one.
    (tmp_path / "failing_shop.py").write_text(FAILING_SHOP)
    leader, follower = pty.openpty()
    command = [sys.executable, "-m", "flask", "--app", "failing_shop"]
    process = subprocess.Popen(
        [*command, "marmeon", "export-sitemap", "out"],
        cwd=tmp_path,
        stdin=subprocess.DEVNULL,
        stdout=follower,
        stderr=follower,
    )
    os.close(follower)
    chunks: list[bytes] = []
    while True:
        try:
            chunk = os.read(leader, 4096)
        except OSError:  # the other end closed (Linux: EIO)
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(leader)
    assert process.wait(timeout=60) == 1
    output = b"".join(chunks).decode()
    assert "Exporting" in output and "Traceback" not in output
    hidden, shown = "\x1b[?25l", "\x1b[?25h"
    assert output.rindex(shown) > output.rindex(hidden)
    before, error = output.split("Error: ")
    assert before.endswith("\n") and "Part 3" in error


def test_a_file_that_cannot_be_written_is_named(
    make_app: Callable[..., Flask], tmp_path: Path
) -> None:
    app = shop(make_app, list(range(1, 11)))
    (tmp_path / "sitemap.xml.gz").mkdir()  # in the way of the index's twin
    output = said_plainly(export(app, tmp_path))
    assert "sitemap.xml.gz" in output
    assert [p.name for p in tmp_path.iterdir()] == ["sitemap.xml.gz"]


def test_files_the_last_export_did_not_write_are_kept(
    make_app: Callable[..., Flask], tmp_path: Path
) -> None:
    # A hand-written news sitemap beside the export, named like ours: only
    # what the last export's index named is ever removed.
    mine = {
        "sitemap-news.xml": b"<urlset/>\n",
        "sitemap-2024.xml": b"<urlset/>\n",
        "sitemap-2024.xml.gz": gzip.compress(b"<urlset/>\n"),
        "sitemap-products-9.xml": b"<urlset/>\n",
    }
    for name, body in mine.items():
        (tmp_path / name).write_bytes(body)
    provider = Keys(list(range(1, 11)))
    app = make_app(APP_URL=ORIGIN, MARMEON_SITEMAP_MAX_URLS=4)
    app.add_url_rule(
        "/products/<int:n>", "products", str, authorize=everyone, sitemap=provider
    )
    first = export_sitemap(app, tmp_path)
    (third,) = [name for name in first if unhashed(name) == "sitemap-products-3.xml"]
    del provider.keys[5:]
    export_sitemap(app, tmp_path)
    export_sitemap(app, tmp_path)
    for name, body in mine.items():
        assert (tmp_path / name).read_bytes() == body, name
    # The part the first export wrote and the later ones do not is gone.
    assert not (tmp_path / third).exists()
    assert not (tmp_path / f"{third}.gz").exists()


@pytest.mark.parametrize("empty", ["", "  "])
def test_an_empty_directory_argument_is_refused(
    make_app: Callable[..., Flask],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    empty: str,
) -> None:
    # "$OUT" with OUT unset: not the current directory, silently.
    monkeypatch.chdir(tmp_path)
    app = shop(make_app, list(range(1, 11)))
    output = said_plainly(export(app, empty))
    assert "DIRECTORY" in output and "." in output
    assert list(tmp_path.iterdir()) == []


def test_a_route_on_another_host_is_not_asked(tmp_path: Path) -> None:
    # As /sitemap.xml leaves it out without asking its store, so does the
    # export: its store being down is no reason to fail.
    from flask_marmeon import Marmeon

    class Down(Keys):
        def boundaries(self, size: int) -> list[int]:
            raise ConnectionError("the other host's store is down")

    app = Flask("shop", subdomain_matching=True)
    app.config.update(APP_URL=ORIGIN, SERVER_NAME="shop.example")
    Marmeon(app)
    app.add_url_rule("/a/<int:n>", "a", str, authorize=everyone, sitemap=Keys([1]))
    app.add_url_rule(
        "/b/<int:n>", "b", str, authorize=everyone, sitemap=Down([2]), subdomain="api"
    )
    written = export_sitemap(app, tmp_path)
    assert list(map(unhashed, written)) == ["sitemap-a-1.xml", "sitemap.xml"]
    assert locs((tmp_path / "sitemap.xml").read_bytes()) == [f"{ORIGIN}/{written[0]}"]
