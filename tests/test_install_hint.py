"""Messages that suggest an install say how to install from a checkout or
a built wheel: the package is not on PyPI yet."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from flask import Flask

from flask_marmeon import Marmeon
from flask_marmeon.errors import install_hint


def test_the_hint_names_a_checkout_a_wheel_and_the_published_name() -> None:
    hint = install_hint("audit")
    assert 'pip install "/path/to/checkout[audit]"' in hint
    assert 'pip install "dist/flask_marmeon-<version>-py3-none-any.whl[audit]"' in hint
    assert 'pip install "flask-marmeon[audit]"' in hint
    assert 'pip install "/path/to/checkout"' in install_hint()


def test_the_audits_missing_library_says_it(monkeypatch: pytest.MonkeyPatch) -> None:
    from flask_marmeon.audit import _deps

    monkeypatch.setitem(sys.modules, "protego", None)
    with pytest.raises(ImportError, match=r"/path/to/checkout\[audit\]"):
        _deps.require("protego")


def test_generated_images_without_pillow_say_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from flask_marmeon._state import get_state
    from flask_marmeon.og_images import checks
    from flask_marmeon.og_images.settings import look_of

    app = Flask("images")
    app.config["MARMEON_OG_IMAGES"] = True
    Marmeon(app)  # writes every key's default into app.config
    settings = get_state(app).settings
    configured = look_of(settings, app.root_path, app.static_folder)
    monkeypatch.setitem(sys.modules, "PIL", None)
    found = checks.problems(configured, "secret")
    assert [problem.id for problem in found] == ["og_images.E002"]
    assert "/path/to/checkout[og-images]" in found[0].hint


ROOT = Path(__file__).parent.parent


def test_no_text_suggests_only_the_published_name() -> None:
    """The docs, the README and the package's own texts (messages,
    docstrings): an install of the published name comes after a checkout or
    a wheel, in a sentence that says it is not published yet."""
    texts = [ROOT / "README.md", *(ROOT / "docs").glob("*.rst")]
    texts += (ROOT / "flask_marmeon").rglob("*.py")
    for path in texts:
        text = re.sub(r"\s+", " ", path.read_text(encoding="utf-8"))
        for found in re.finditer(r"pip install \W*flask-marmeon", text):
            before = text[max(0, found.start() - 300) : found.start()]
            shown = (path.name, text[found.start() - 80 :][:160])
            assert "checkout" in before or ".whl" in before, shown
            assert "published" in before or "PyPI" in before, path.name
