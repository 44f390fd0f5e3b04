"""What the docs say is true (issue 20): each test reads the sentence a new
user relies on and checks it against the code, so that the two cannot drift
apart again."""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import get_type_hints, is_typeddict

import flask_marmeon
from flask_marmeon import Robots
from flask_marmeon.config import DEFAULTS

if sys.version_info >= (3, 11):
    import tomllib
else:
    import tomli as tomllib

ROOT = Path(__file__).parent.parent
DOCS = ROOT / "docs"


def text_of(path: Path) -> str:
    """The file's text with its lines joined, as a reader reads a paragraph."""
    return re.sub(r"\s+", " ", path.read_text(encoding="utf-8"))


def test_the_api_page_lists_every_robots_key() -> None:
    api = (DOCS / "api.rst").read_text(encoding="utf-8")
    block = api.split(".. autoclass:: flask_marmeon.Robots", 1)[1]
    block = block.split(".. autoclass::", 1)[0]
    for key in get_type_hints(Robots):
        assert f"``{key}``" in block, key


def test_the_api_page_lists_every_key_of_every_head_dict() -> None:
    # A new head field (ARCHITECTURE.md, "Adding a head field") is a key of
    # one of these TypedDicts; its "Keys:" line in docs/api.rst names it.
    api = (DOCS / "api.rst").read_text(encoding="utf-8")
    dicts = [
        name
        for name in flask_marmeon.__all__
        if is_typeddict(value := getattr(flask_marmeon, name))
        and value.__module__ == "flask_marmeon.head.types"
    ]
    assert "HeadFields" in dicts and "OpenGraph" in dicts
    for name in dicts:
        block = api.split(f".. autoclass:: flask_marmeon.{name}\n", 1)[1]
        block = block.split(".. auto", 1)[0]
        for key in get_type_hints(getattr(flask_marmeon, name)):
            assert f"``{key}``" in block, f"docs/api.rst, {name}: {key}"


def test_the_configuration_page_has_a_row_for_every_key() -> None:
    # A new key (ARCHITECTURE.md, "Where to change what") gets its default
    # in DEFAULTS and its row in docs/config.rst's table.
    table = (DOCS / "config.rst").read_text(encoding="utf-8")
    rows = re.findall(r"^   \* - ``([A-Z_]+)``", table, re.MULTILINE)
    assert sorted(rows) == sorted(
        {*DEFAULTS, "APP_URL", "APP_LOCALES", "APPLICATION_ROOT"}
    )


def test_the_quickstart_agrees_with_the_readme_on_when_the_app_stops() -> None:
    quickstart = text_of(DOCS / "quickstart.rst")
    readme = text_of(ROOT / "README.md")
    # The README: without raise_on_problems, every request is a 500.
    assert "refuses every request with `StartupError` (a 500)" in readme
    # The quickstart said a bad route "stops the app at start", which is only
    # true with raise_on_problems(app).
    assert "stops the app at start" not in quickstart
    assert "answers every request with a 500" in quickstart
    assert "raise_on_problems(app)" in quickstart


def test_the_cache_extra_says_what_a_redis_cache_needs() -> None:
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"][
        "optional-dependencies"
    ]
    brings_redis = any(
        re.match(r"redis\b", requirement) for requirement in extras["cache"]
    )
    # The install line the docs give before they show RedisCache installs a
    # Redis client: the extra's own, or one the line adds.
    deployment = text_of(DOCS / "deployment.rst")
    before = deployment.split('"CACHE_TYPE": "RedisCache"', 1)[0]
    # From a checkout until the package is published: any path with the extra.
    lines = re.findall(r'pip install "[^"\s]*\[cache\]"( redis)?', before)
    assert lines, "deployment.rst shows no install line before RedisCache"
    assert brings_redis or lines[-1] == " redis"
    readme = text_of(ROOT / "README.md")
    lines = re.findall(r"\[cache\]'( redis)?", readme)
    assert lines, "README.md shows no install line of the cache extra"
    assert brings_redis or all(line == " redis" for line in lines)


def test_the_readme_says_the_install_path_is_the_repository_root() -> None:
    readme = text_of(ROOT / "README.md")
    assert "pip install /path/to/flask_marmeon" not in readme
    assert "The path is the repository's root" in readme
    assert (ROOT / "pyproject.toml").is_file()


def test_the_docs_lead_with_the_head_from_templates() -> None:
    """Someone replacing their title blocks finds how in the quickstart,
    before the pages on hostile URLs and cache internals (issue 26)."""
    index = (DOCS / "index.rst").read_text(encoding="utf-8")
    guide = index.split(":caption: User guide", 1)[1].split(".. toctree::")[0]
    order = guide.split()
    for first, later in [
        ("quickstart", "urls"),
        ("quickstart", "large-sites"),
        ("quickstart", "deployment"),
        ("migrate-blocks", "urls"),
        ("migrate-blocks", "large-sites"),
        ("migrate-blocks", "deployment"),
    ]:
        assert order.index(first) < order.index(later), (first, later)
    quickstart = text_of(DOCS / "quickstart.rst")
    first_head = quickstart.split("A first head", 1)[1].split("A sitemap", 1)[0]
    # Where a title block was, before anything of views, layouts or URLs.
    assert first_head.index("{% do head(...) %}") < first_head.index("layout")
    assert "{% block title %}" in first_head
    assert ":doc:`migrate-blocks`" in first_head
    note = (DOCS / "examples/templates/quickstart/note.html").read_text()
    assert re.search(r"\{% do head\(\s*title=", note)
