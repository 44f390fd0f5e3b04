"""The module stays under 4 KB minified and gzipped (benchmarks/browser_size.py)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

pytestmark = pytest.mark.browser

BENCHMARK = Path(__file__).parent.parent.parent / "benchmarks" / "browser_size.py"


def test_module_under_4_kb_minified_and_gzipped() -> None:
    spec = importlib.util.spec_from_file_location("browser_size", BENCHMARK)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    sizes = module.sizes()
    assert 0 < sizes["minified+gzip"] < 4096
    assert sizes["minified"] < sizes["source"]
