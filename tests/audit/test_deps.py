"""Without the audit extra, the audit says how to install it."""

from __future__ import annotations

import sys

import pytest

from .conftest import Site


@pytest.mark.parametrize("module", ["protego", "lxml.etree", "lxml.html", "PIL.Image"])
def test_a_missing_library_names_the_extra(
    site: Site, monkeypatch: pytest.MonkeyPatch, module: str
) -> None:
    monkeypatch.setitem(sys.modules, module, None)  # import now fails
    with pytest.raises(ImportError, match=r'pip install "flask-marmeon\[audit\]"'):
        site.audit()


def test_the_cli_says_it_too(site: Site, monkeypatch: pytest.MonkeyPatch) -> None:
    from flask_marmeon import Marmeon

    app = site.app()
    Marmeon(app)
    monkeypatch.setitem(sys.modules, "protego", None)
    result = app.test_cli_runner().invoke(args=["marmeon", "audit"])
    assert result.exit_code == 1
    assert "flask-marmeon[audit]" in result.stderr
