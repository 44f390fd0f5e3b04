"""The package's public names: re-exported, listed in __all__, documented."""

from __future__ import annotations

import inspect
import types

import flask_marmeon


def test_every_re_exported_name_is_in_all() -> None:
    public = {
        name
        for name, value in vars(flask_marmeon).items()
        if not name.startswith("_")
        and not isinstance(value, types.ModuleType)
        and name != "annotations"
    }
    assert public == set(flask_marmeon.__all__)


def test_the_names_of_the_api_are_exported() -> None:
    # The names API.md pins.
    pinned = {
        "Marmeon", "StartupError", "head", "render_head", "SitemapEntry",
        "authorize", "everyone", "authenticate", "api", "localized",
        "current_page", "JsonLd", "JsonLdNode", "JsonLdGraph", "raise_on_problems",
    }  # fmt: skip
    assert pinned <= set(flask_marmeon.__all__)


def test_every_public_class_and_function_has_a_docstring() -> None:
    for name in flask_marmeon.__all__:
        value = getattr(flask_marmeon, name)
        if not isinstance(value, type) and not inspect.isfunction(value):
            continue  # a type alias such as JsonLd: documented in docs/api.rst
        doc = getattr(value, "__doc__", None)
        assert doc and doc.strip(), name
