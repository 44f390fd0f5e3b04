"""The documentation's code runs, and its API page names every public name.

Each file in ``docs/examples/`` is what a page of the docs shows with
``literalinclude``: a script that builds an app and checks it with
``assert``. Each runs here on its own, in a fresh interpreter, as a reader
would run it: from an empty directory, without the suite's fixtures and
without APP_URL or APP_LOCALES from the environment, warnings as errors.
"""

from __future__ import annotations

import os
import re
import runpy
import subprocess
import sys
from pathlib import Path

import pytest
from lxml import etree

import flask_marmeon

ROOT = Path(__file__).parent.parent
DOCS = ROOT / "docs"
EXAMPLES = sorted((DOCS / "examples").glob("*.py"))


def run_script(script: Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    """Run ``script`` as a reader would, in a fresh interpreter."""
    environ = {
        key: value
        for key, value in os.environ.items()
        if key not in ("APP_URL", "APP_LOCALES") and not key.startswith("FLASK_")
    }
    return subprocess.run(
        [
            sys.executable,
            "-W",
            "error",
            "-c",
            "import runpy, sys; runpy.run_path(sys.argv[1], run_name='__main__')",
            str(script),
        ],
        cwd=cwd,
        env=environ,
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.mark.parametrize("script", EXAMPLES, ids=[path.name for path in EXAMPLES])
def test_example_runs_as_a_script(script: Path, tmp_path: Path) -> None:
    result = run_script(script, tmp_path)
    assert result.returncode == 0, f"{script.name} failed:\n{result.stderr}"


def test_the_readme_example_writes_a_head_and_a_sitemap(tmp_path: Path) -> None:
    readme = (ROOT / "README.md").read_text()
    (code,) = re.findall(r"```python\n(.*?)```", readme, re.DOTALL)
    assert len([line for line in code.splitlines() if line.strip()]) <= 15
    script = tmp_path / "app.py"
    script.write_text(
        code
        + "\nclient = app.test_client()"
        + "\nhtml = client.get('/').text"
        + "\nassert 'Home · Notes</title>' in html"
        + "\nassert 'href=\"https://notes.example/\"' in html"
        + "\nassert 'content=\"summary\"' in html"
        + "\nsitemap = client.get('/sitemap.xml').text"
        + "\nassert '<loc>https://notes.example/</loc>' in sitemap\n"
    )
    result = run_script(script, tmp_path)
    assert result.returncode == 0, result.stderr


def sitemap_pages(script: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """Each ``<loc>`` of the /sitemap.xml that ``script``'s ``app`` serves
    (requested through its test client), with its ``<lastmod>`` ("" if none)."""
    for key in ("APP_URL", "APP_LOCALES"):
        monkeypatch.delenv(key, raising=False)
    app = runpy.run_path(str(script), run_name=script.stem)["app"]
    response = app.test_client().get("/sitemap.xml")
    assert response.status_code == 200
    namespace = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9"}
    root = etree.fromstring(response.data)
    assert root.tag == "{http://www.sitemaps.org/schemas/sitemap/0.9}urlset"
    return {
        url.findtext("s:loc", namespaces=namespace).strip(): (
            url.findtext("s:lastmod", default="", namespaces=namespace).strip()
        )
        for url in root.iterfind("s:url", namespace)
    }


def test_the_sitemap_guide_lists_the_same_pages_before_and_after(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """docs/migrate-sitemap.rst: the Flask-Sitemap app, the flask-sitemapper
    app and the flask_marmeon app list the same pages, with the same dates."""
    after = sitemap_pages(DOCS / "examples" / "migrate_sitemap.py", monkeypatch)
    assert after == {
        "https://notes.example/": "",
        "https://notes.example/notes/1": "2025-03-01",
        "https://notes.example/notes/2": "2025-03-08",
    }
    for before in (
        "migrate_sitemap_flask_sitemap.py",
        "migrate_sitemap_flask_sitemapper.py",
    ):
        assert sitemap_pages(DOCS / "examples" / before, monkeypatch) == after, before


def test_every_example_is_shown_in_a_page() -> None:
    pages = "\n".join(path.read_text() for path in DOCS.glob("*.rst"))
    shown = set(re.findall(r"literalinclude:: examples/([\w.-]+\.py)", pages))
    assert {path.name for path in EXAMPLES} - shown == set()


def test_the_api_page_documents_every_public_name() -> None:
    text = (DOCS / "api.rst").read_text()
    # Type aliases are written by hand (``py:data``): autodoc would show the
    # docstring of ``typing.Mapping`` for them.
    documented = re.findall(
        r"^\.\. (?:auto(?:class|function|exception)|py:data):: flask_marmeon\.(\w+)",
        text,
        re.MULTILINE,
    )
    assert len(documented) == len(set(documented))
    assert set(flask_marmeon.__all__) - set(documented) == set()
    assert [name for name in documented if not hasattr(flask_marmeon, name)] == []
