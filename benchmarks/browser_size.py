"""The browser module's size: as shipped, minified, and minified then gzipped.

The module is served as written (no build step); the figure that matters is
what a minifying CDN or bundler would send, so it is minified with esbuild
from the browser tests' npm packages (``make browser-deps``) and gzipped at
level 9.

    python benchmarks/browser_size.py

Target: under 4 KB (4096 bytes) minified and gzipped. Exits 1 above it.
"""

from __future__ import annotations

import gzip
import subprocess
import sys
from importlib.resources import files
from pathlib import Path

LIMIT = 4096
ESBUILD = Path(__file__).parent.parent / "tests" / "browser" / "node_modules" / ".bin"


def minify(source: bytes) -> bytes:
    """The module minified by esbuild, as an ES module."""
    esbuild = ESBUILD / "esbuild"
    if not esbuild.exists():
        raise SystemExit(
            f"{esbuild} is missing: run `make browser-deps` (npm ci in tests/browser)."
        )
    result = subprocess.run(
        [str(esbuild), "--minify", "--format=esm", "--loader=js"],
        input=source,
        capture_output=True,
        check=True,
    )
    return result.stdout


def sizes() -> dict[str, int]:
    """Bytes as shipped, minified, and minified + gzipped."""
    source = (
        files("flask_marmeon").joinpath("static").joinpath("marmeon.js").read_bytes()
    )
    minified = minify(source)
    return {
        "source": len(source),
        "minified": len(minified),
        "minified+gzip": len(gzip.compress(minified, compresslevel=9, mtime=0)),
        "source+gzip": len(gzip.compress(source, compresslevel=9, mtime=0)),
    }


def main() -> int:
    result = sizes()
    print("flask_marmeon/static/marmeon.js")
    for name, size in result.items():
        print(f"  {name:<14} {size:>6} bytes")
    ok = result["minified+gzip"] < LIMIT
    print(f"  target: minified+gzip < {LIMIT} bytes: {'ok' if ok else 'OVER'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
