"""The package as published: the sdist builds and tests from itself, and
both files pass ``twine check`` with their licenses and metadata."""

from __future__ import annotations

import email
import os
import subprocess
import sys
import tarfile
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent
#: What the sdist leaves out of the folders it carries (MANIFEST.in).
LEFT_OUT = {"node_modules", "__pycache__", "_build", "instance", "vendor"}

pytest.importorskip("build", reason="the dev extra's build makes the sdist")
pytest.importorskip("twine", reason="the dev extra's twine checks it")

if sys.version_info >= (3, 11):
    import tomllib
else:
    import tomli as tomllib


@pytest.fixture(scope="module")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sdist, and the wheel built from it (as ``python -m build`` does)."""
    out = tmp_path_factory.mktemp("dist")
    subprocess.run(
        [sys.executable, "-m", "build", "--outdir", str(out), str(ROOT)],
        check=True,
        capture_output=True,
    )
    return out


@pytest.fixture(scope="module")
def sdist(dist: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sdist, unpacked: the root folder it holds."""
    (archive,) = dist.glob("*.tar.gz")
    where = tmp_path_factory.mktemp("sdist")
    with tarfile.open(archive) as tar:
        tar.extractall(where, filter="data")
    (root,) = where.iterdir()
    return root


def _files(root: Path, folder: str) -> Iterator[str]:
    for path in (root / folder).rglob("*"):
        parts = set(path.relative_to(root).parts)
        if (
            path.is_file()
            and not parts & LEFT_OUT
            and path.suffix not in {".pyc", ".mo"}
        ):
            yield str(path.relative_to(root))


def test_the_sdist_holds_the_docs_the_changes_the_license_and_every_test(
    sdist: Path,
) -> None:
    for name in ("LICENSE", "README.md", "CHANGES.md", "pyproject.toml", "noxfile.py"):
        assert (sdist / name).is_file(), name
    # The fonts' license stays beside them.
    fonts = sdist / "flask_marmeon" / "og_images" / "fonts"
    assert (fonts / "OFL.txt").is_file() and any(fonts.glob("*.ttf"))
    for folder in ("tests", "docs", "example_app"):
        missing = set(_files(ROOT, folder)) - set(_files(sdist, folder))
        assert missing == set(), f"MANIFEST.in leaves out {sorted(missing)}"
    assert not (sdist / "tests" / "browser" / "node_modules").exists()


def test_the_sdist_runs_its_own_tests(sdist: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(sdist)}
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"]
        + ["tests/test_config.py", "tests/test_layers.py"],
        cwd=sdist,
        env=env,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    # Its own code, not the checkout's.
    where = subprocess.run(
        [sys.executable, "-c", "import flask_marmeon; print(flask_marmeon.__file__)"],
        cwd=sdist,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    assert where.stdout.startswith(str(sdist))


def test_twine_check_passes(dist: Path) -> None:
    files = sorted(str(path) for path in dist.iterdir())
    assert len(files) == 2
    subprocess.run(
        [sys.executable, "-m", "twine", "check", "--strict", *files],
        check=True,
        capture_output=True,
    )


def test_the_wheel_names_its_licenses_pythons_and_version(dist: Path) -> None:
    (wheel,) = dist.glob("*.whl")
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        (metadata_name,) = [n for n in names if n.endswith(".dist-info/METADATA")]
        metadata = email.message_from_bytes(archive.read(metadata_name))
    assert "flask_marmeon/og_images/fonts/OFL.txt" in names
    assert metadata["License-Expression"] == "BSD-3-Clause"
    assert set(metadata.get_all("License-File") or []) == {
        "LICENSE",
        "flask_marmeon/og_images/fonts/OFL.txt",
    }
    classifiers = set(metadata.get_all("Classifier") or [])
    for minor in (10, 11, 12, 13):
        assert f"Programming Language :: Python :: 3.{minor}" in classifiers
    assert metadata["Requires-Python"] == ">=3.10"
    assert metadata.get_all("Project-URL")
    assert not any(name.startswith("tests/") for name in names)
    # The version is written once, in pyproject.toml; CHANGES.md's newest
    # heading is the same release.
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert metadata["Version"] == project["version"]
    changes = (ROOT / "CHANGES.md").read_text()
    heading = next(line for line in changes.splitlines() if line.startswith("## "))
    release = project["version"].split(".dev")[0]
    assert heading == f"## Version {release}"
