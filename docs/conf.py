"""Sphinx configuration for flask_marmeon's documentation."""

from __future__ import annotations

project = "flask_marmeon"
copyright = "2026, the flask_marmeon developers"
author = "the flask_marmeon developers"

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.intersphinx",
    "sphinx.ext.doctest",
    "myst_parser",
]
autodoc_member_order = "bysource"
autodoc_typehints = "description"
intersphinx_mapping: dict[str, tuple[str, str | None]] = {}
html_theme = "alabaster"
exclude_patterns = ["_build"]
nitpicky = False
myst_heading_anchors = 2
suppress_warnings = ["myst.header"]
