"""Which layer may import which (ARCHITECTURE.md, "Which layer may import
which"): read from the package's own import statements."""

from __future__ import annotations

import ast
from pathlib import Path

import flask_marmeon

PACKAGE = Path(flask_marmeon.__file__).parent
FOUNDATION = {"errors", "config", "page", "_log", "_state", "_context"}
#: Per layer, the top-level parts of the package its modules may import.
ALLOWED = {
    "foundation": FOUNDATION,
    # The head takes an OgImage wherever an image goes and names the
    # generated image's address.
    "head": FOUNDATION | {"head", "og_images"},
    # Generated images draw, sign and serve on the edge; they know no head.
    "og_images": FOUNDATION | {"og_images", "_edge"},
    "i18n": FOUNDATION | {"i18n"},
    # setup_checks.py builds the sitemap of an app with the extension.
    "audit": FOUNDATION | {"audit", "routing", "sitemap"},
    # problems.py collects every H10 problem, the images' set-up included.
    "routing": FOUNDATION | {"routing", "i18n", "sitemap", "og_images"},
    # The sitemap registers its endpoints on the edge (add_front, on_start).
    "sitemap": FOUNDATION | {"sitemap", "routing", "i18n", "head", "_edge"},
    # IndexNow reads the sitemap's entries and serves its key on the edge.
    "indexnow": FOUNDATION | {"indexnow", "sitemap", "routing", "_edge"},
}


def _layer(path: Path) -> str | None:
    parts = path.relative_to(PACKAGE).with_suffix("").parts
    if parts[0] in FOUNDATION:
        return "foundation"
    return parts[0] if parts[0] in ALLOWED else None


def _imported(path: Path) -> set[str]:
    """The top-level parts of the package that ``path`` imports."""
    parts = path.relative_to(PACKAGE).with_suffix("").parts
    package = parts[:-1] if parts[-1] != "__init__" else parts[:-1]
    found = set()
    tree = ast.parse(path.read_text())
    # Imports for the type checker only (under ``if TYPE_CHECKING:``) are
    # annotations, not a dependency at run time.
    typing_only = {
        id(inner)
        for node in ast.walk(tree)
        if isinstance(node, ast.If)
        and isinstance(node.test, ast.Name)
        and node.test.id == "TYPE_CHECKING"
        for inner in ast.walk(node)
    }
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.ImportFrom) and node.level:
            base = package[: len(package) - (node.level - 1)]
            target = (*base, *(node.module or "").split(".")) if node.module else base
            if target:
                found.add(target[0])
            else:  # from . import x
                found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            if node.module.startswith("flask_marmeon."):
                found.add(node.module.split(".")[1])
    return found


def test_each_layer_imports_only_what_it_may() -> None:
    wrong = []
    for path in sorted(PACKAGE.rglob("*.py")):
        layer = _layer(path)
        if layer is None:
            continue
        extra = _imported(path) - ALLOWED[layer]
        if extra:
            wrong.append(f"{path.relative_to(PACKAGE)} ({layer}) imports {extra}")
    assert wrong == []


def test_head_sitemap_reads_only_the_url_policy() -> None:
    for path in (PACKAGE / "sitemap").rglob("*.py"):
        text = path.read_text()
        for line in text.splitlines():
            if "from ..head" in line:
                assert line.startswith("from ..head.urls import"), path


def test_the_per_app_state_names_no_subsystem_even_for_the_type_checker() -> None:
    # Each subsystem owns its part (MarmeonState.parts): the state's module
    # imports nothing of theirs, not even under TYPE_CHECKING.
    tree = ast.parse((PACKAGE / "_state.py").read_text())
    named = {
        node.module
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.level and node.module
    }
    assert named <= {"config", "extension"}


def test_each_subsystem_keeps_its_part_in_the_state() -> None:
    from flask import Flask

    from flask_marmeon import Marmeon
    from flask_marmeon._edge import edge_of
    from flask_marmeon.head.app import HeadState
    from flask_marmeon.i18n.app import i18n_state
    from flask_marmeon.og_images.state import OgImagesState, og_images_of
    from flask_marmeon.sitemap.state import SitemapState, sitemap_of

    app = Flask("parts")
    app.config["APP_URL"] = "https://notes.example"
    Marmeon(app)
    state = app.extensions["marmeon"]
    assert isinstance(state.parts[HeadState], HeadState)
    assert state.parts[SitemapState] is sitemap_of(app)
    assert state.parts[OgImagesState] is og_images_of(app)
    assert i18n_state(state) in state.parts.values()
    assert edge_of(state) in state.parts.values()
    # Nothing of a subsystem is an attribute of the state itself.
    assert not any(
        name.startswith(("sitemap", "og_")) for name in vars(state) if name != "parts"
    )
