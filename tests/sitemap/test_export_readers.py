"""A reader of an export's directory, at any instant, gets the whole
previous export or the whole new one: real PostgreSQL, exports one after
another while rows change, and a thread reading the index and every part it
names (plain, and the gzip twins nginx's gzip_static sends) again and
again."""

from __future__ import annotations

import gzip
import random
import threading
from pathlib import Path

from sqlalchemy import create_engine, text
from sqlalchemy.pool import NullPool

from flask_marmeon.sitemap.export import export_sitemap

from .conftest import locs
from .tables import Items, items_app

ORIGIN = "https://shop.example"


def read_export(directory: Path, zipped: bool) -> tuple[int, ...]:
    """The items of the export in ``directory`` as a crawler reads it: the
    index, then every part it names (their ``.gz`` twins: ``zipped``)."""

    def read(name: str) -> bytes:
        if zipped:
            return gzip.decompress((directory / f"{name}.gz").read_bytes())
        return (directory / name).read_bytes()

    items: list[int] = []
    for address in locs(read("sitemap.xml")):
        assert address.startswith(f"{ORIGIN}/")
        for page in locs(read(address.removeprefix(f"{ORIGIN}/"))):
            items.append(int(page.rsplit("/", 1)[1]))
    return tuple(items)


def test_a_reader_gets_one_whole_export_at_any_instant(
    postgres_url: str, tmp_path: Path
) -> None:
    engine = create_engine(postgres_url, poolclass=NullPool)
    Items.metadata.create_all(engine)
    with engine.begin() as connection:
        connection.execute(text("INSERT INTO item SELECT generate_series(1, 300)"))
    rows = set(range(1, 301))
    app = items_app(create_engine(postgres_url, poolclass=NullPool))
    target = tmp_path / "maps"
    export_sitemap(app, target)
    # What each export lists: the rows when it ran, in key order.
    exports = {tuple(sorted(rows))}
    stop = threading.Event()
    reads: list[tuple[int, ...]] = []
    failures: list[BaseException] = []

    def reader() -> None:
        zipped = False
        while not stop.is_set():
            try:
                reads.append(read_export(target, zipped))
            except BaseException as error:  # a part gone, a half file
                failures.append(error)
            zipped = not zipped

    thread = threading.Thread(target=reader, daemon=True)
    thread.start()
    rng = random.Random(5)
    try:
        for _ in range(30):
            # Rows go and come all over the range: every part changes.
            gone = set(rng.sample(sorted(rows), 15))
            came = {rng.randint(1, 400) for _ in range(20)} - rows
            with engine.begin() as connection:
                connection.execute(
                    text("DELETE FROM item WHERE id = ANY(:gone)"),
                    {"gone": sorted(gone)},
                )
                connection.execute(
                    text("INSERT INTO item SELECT unnest(CAST(:came AS int[]))"),
                    {"came": sorted(came)},
                )
            rows = rows - gone | came
            export_sitemap(app, target)
            exports.add(tuple(sorted(rows)))
    finally:
        stop.set()
        thread.join(10)
    assert not failures, failures[:3]
    assert len(reads) > 60
    mixed = [read for read in reads if read not in exports]
    assert not mixed, f"{len(mixed)} of {len(reads)} reads mixed two exports"
    assert len(set(reads)) > 5  # the reader saw exports change

    # Beside the index: the files of the last two exports and the list of
    # them, nothing else (the ones before were removed).
    names = sorted(path.name for path in target.iterdir())
    listed = (target / ".marmeon-export").read_text().split()
    assert sorted(listed) == sorted(
        name for name in names if not name.endswith(".gz") and name[0] != "."
    )
    assert sorted(names) == sorted(
        [".marmeon-export", *listed, *(f"{name}.gz" for name in listed)]
    )
    index = (target / "sitemap.xml").read_bytes()
    last = {address.rsplit("/", 1)[1] for address in locs(index)}
    assert last <= set(listed)
    assert len(listed) <= 1 + 2 * len(last)
