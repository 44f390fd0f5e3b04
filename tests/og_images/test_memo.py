"""The image-address memo keeps the texts cut to what is drawn, never a
page's whole texts: 1,000 pages with 100 KB descriptions cost a worker
about what 1,000 short pages do."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable

from flask import Flask

from flask_marmeon.og_images.generator import image_path
from flask_marmeon.og_images.state import og_images_of
from tests.processes import ROOT


def test_the_memo_holds_no_whole_text(og_app: Callable[..., Flask]) -> None:
    app = og_app()
    og = og_images_of(app)
    with app.test_request_context("/"):
        for n in range(20):
            long = f"Page {n} " + "words of a long description " * 4000
            path = image_path(og, app.secret_key, (long, long, "Notes"), page_path="/")
            assert path is not None
    assert len(og.addresses) == 20
    for key, value in og.addresses.items():
        assert max(map(len, _texts_in(key))) < 100  # a digest and the key
        assert value is not None and len(value) < 2000


def _texts_in(value: object) -> list[str | bytes]:
    """Every text and bytes held in ``value``, through tuples."""
    if isinstance(value, (str, bytes)):
        return [value]
    if isinstance(value, tuple):
        return [text for item in value for text in _texts_in(item)]
    return []


_MEASURE = """
import gc, sys
from flask import Flask
from flask_marmeon import Marmeon
from flask_marmeon.og_images.generator import image_path
from flask_marmeon.og_images.state import og_images_of

def rss():
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024

app = Flask("memo")
app.config.update(
    APP_URL="https://notes.example", SECRET_KEY="k", MARMEON_OG_IMAGES=True
)
Marmeon(app)
og = og_images_of(app)
with app.test_request_context("/"):
    image_path(og, "k", ("warm", "up", "Notes"), page_path="/")
    gc.collect()
    before = rss()
    for n in range(1000):
        description = (f"Note {n}: " + "x" * 100_000)
        image_path(og, "k", (f"Note {n}", description, "Notes"), page_path="/")
        del description
    gc.collect()
    print(rss() - before)
"""


def test_long_descriptions_do_not_grow_the_worker() -> None:
    done = subprocess.run(
        [sys.executable, "-c", _MEASURE],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
        timeout=300,
    )
    grown = int(done.stdout.split()[-1])
    # The descriptions add up to 100 MB; their cut addresses to about 1 MB.
    assert grown < 20 * 1024 * 1024, grown
