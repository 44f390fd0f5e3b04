"""Which layer may import which (ARCHITECTURE.md, "Which layer may import
which"): read from the package's own import statements."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import flask_marmeon

PACKAGE = Path(flask_marmeon.__file__).parent
#: Each layer: the top-level modules and packages it is made of. Every module
#: of the package belongs to one (test_every_module_has_a_layer).
MEMBERS = {
    "foundation": {
        "errors",
        "config",
        "config_images",
        "page",
        "checks",
        "_log",
        "_state",
        "_context",
        "shared_lock",
        "locale_tags",
    },
    "edge": {"_edge"},
    "og_images": {"og_images"},
    "head": {"head"},
    "i18n": {"i18n"},
    "routing": {"routing"},
    "robots_txt": {"robots_txt"},
    "sitemap": {"sitemap"},
    # paged_query/ holds the code; sqlalchemy.py is its public face (API.md).
    "paged_query": {"paged_query", "sqlalchemy"},
    "audit": {"audit"},
    "indexnow": {"indexnow"},
    "wiring": {"__init__", "extension", "cli", "testing", "browser", "absolute"},
}
FOUNDATION = MEMBERS["foundation"]
#: Per layer, the layers its modules may import (ARCHITECTURE.md, "Which
#: layer may import which": the same table).
MAY_IMPORT = {
    "foundation": {"foundation"},
    "edge": {"foundation"},
    # Generated images draw, sign and serve on the edge, and register the
    # head's step that names them (head/stages.py).
    "og_images": {"foundation", "edge", "head"},
    # The head takes an OgImage (its own value) wherever an image goes; its
    # behaviours of other parts are steps they register: it imports none.
    "head": {"foundation"},
    "i18n": {"foundation"},
    # robots.txt's text and its rules' checks: from configuration alone.
    "robots_txt": {"foundation"},
    # routing.rule and sitemap.paged know each other (a rule's sitemap=
    # holds a provider); the route checks read the sitemap's providers.
    "routing": {"foundation", "edge", "i18n", "sitemap"},
    # The sitemap registers its endpoints on the edge (add_front, on_start)
    # and reads the head's URL policy; it serves robots.txt.
    "sitemap": {"foundation", "edge", "i18n", "head", "routing", "robots_txt"},
    "paged_query": {"foundation", "sitemap"},
    # setup_checks.py builds the sitemap of an app with the extension.
    "audit": {"foundation", "routing", "sitemap"},
    # IndexNow reads the sitemap's entries and serves its key on the edge.
    "indexnow": {"foundation", "edge", "routing", "sitemap"},
    "wiring": set(MEMBERS) - {"wiring"},
}
#: The top-level parts of the package each layer's modules may import.
ALLOWED = {
    layer: set().union(*(MEMBERS[other] for other in {layer} | others))
    for layer, others in MAY_IMPORT.items()
}
#: The most modules an import loop may hold: none is left (a module that
#: another imports reads it back through a protocol of its own, as
#: head/writers.py reads the table).
LARGEST_LOOP = 0


def _layer(path: Path) -> str | None:
    top = path.relative_to(PACKAGE).with_suffix("").parts[0]
    return next((layer for layer, tops in MEMBERS.items() if top in tops), None)


def _module(path: Path) -> tuple[str, ...]:
    parts = path.relative_to(PACKAGE).with_suffix("").parts
    return parts[:-1] if parts[-1] == "__init__" else parts


def _exists(target: tuple[str, ...]) -> bool:
    where = PACKAGE.joinpath(*target)
    return where.with_suffix(".py").is_file() or (where / "__init__.py").is_file()


def _targets(path: Path, typing: bool = False) -> set[tuple[str, ...]]:
    """The package's modules that ``path`` imports (as parts of their path
    under the package; ``()`` is the package itself), at run time, and for
    the type checker too when ``typing``."""
    parts = path.relative_to(PACKAGE).with_suffix("").parts
    package = parts[:-1]
    found: set[tuple[str, ...]] = set()
    tree = ast.parse(path.read_text())
    # Imports for the type checker only (under ``if TYPE_CHECKING:``) are
    # annotations, not a dependency at run time.
    typing_only = {
        id(inner)
        for node in ast.walk(tree)
        if not typing
        and isinstance(node, ast.If)
        and isinstance(node.test, ast.Name)
        and node.test.id == "TYPE_CHECKING"
        for inner in ast.walk(node)
    }
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.Import):
            found.update(
                tuple(alias.name.split(".")[1:])
                for alias in node.names
                if alias.name.split(".")[0] == "flask_marmeon"
            )
            continue
        if not isinstance(node, ast.ImportFrom):
            continue
        if node.level:
            base = package[: len(package) - (node.level - 1)]
            target = (*base, *node.module.split(".")) if node.module else base
        elif node.module and node.module.split(".")[0] == "flask_marmeon":
            target = tuple(node.module.split(".")[1:])
        else:
            continue
        # from . import checks: the module named (its package's __init__
        # has run already, as for any module of the package).
        modules = {(*target, a.name) for a in node.names if _exists((*target, a.name))}
        found.update(modules)
        if len(modules) < len(node.names):
            found.add(target)
    return found


def _imported(path: Path) -> set[str]:
    """The top-level parts of the package that ``path`` imports."""
    return {target[0] for target in _targets(path) if target}


def test_every_module_has_a_layer() -> None:
    alone = [
        str(path.relative_to(PACKAGE))
        for path in PACKAGE.rglob("*.py")
        if _layer(path) is None
    ]
    assert alone == [], "add each to a layer in MEMBERS and to ARCHITECTURE.md"


def test_each_layer_imports_only_what_it_may() -> None:
    wrong = []
    for path in sorted(PACKAGE.rglob("*.py")):
        layer = _layer(path)
        assert layer is not None
        extra = _imported(path) - ALLOWED[layer]
        if extra:
            wrong.append(f"{path.relative_to(PACKAGE)} ({layer}) imports {extra}")
    assert wrong == []


def _loops() -> list[set[tuple[str, ...]]]:
    """The import loops among the package's modules, type-only imports
    included (Tarjan's strongly connected components of more than one
    module)."""
    graph = {_module(path): _targets(path, True) for path in PACKAGE.rglob("*.py")}
    for targets in graph.values():
        targets.intersection_update(graph)
    index: dict[tuple[str, ...], int] = {}
    low: dict[tuple[str, ...], int] = {}
    stack: list[tuple[str, ...]] = []
    loops: list[set[tuple[str, ...]]] = []

    def visit(node: tuple[str, ...]) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for target in graph[node]:
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            loop = set()
            while True:
                member = stack.pop()
                loop.add(member)
                if member == node:
                    break
            if len(loop) > 1:
                loops.append(loop)

    for node in graph:
        if node not in index:
            visit(node)
    return loops


def test_no_import_loop_of_more_than_a_few_modules() -> None:
    sizes = {
        ", ".join(sorted(".".join(m) for m in loop)): len(loop) for loop in _loops()
    }
    assert all(size <= LARGEST_LOOP for size in sizes.values()), sizes


def test_head_sitemap_reads_only_the_url_policy() -> None:
    for path in (PACKAGE / "sitemap").rglob("*.py"):
        text = path.read_text()
        for line in text.splitlines():
            # Relative at any depth: sitemap/ and its subpackages alike.
            if re.match(r"\s*from \.+head\b", line):
                assert re.match(r"\s*from \.+head\.url_policy import", line), path


def test_the_per_app_state_names_no_subsystem_even_for_the_type_checker() -> None:
    # Each subsystem owns its part (MarmeonState.parts): the state's module
    # imports nothing of theirs, not even under TYPE_CHECKING, nor the
    # extension (the wiring) above them.
    tree = ast.parse((PACKAGE / "_state.py").read_text())
    named = {
        node.module
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.level and node.module
    }
    assert named <= {"config", "checks"}


def test_each_subsystem_keeps_its_part_in_the_state() -> None:
    from flask import Flask

    from flask_marmeon import Marmeon
    from flask_marmeon._edge import edge_of
    from flask_marmeon.head.state import HeadState
    from flask_marmeon.i18n.state import i18n_state
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
