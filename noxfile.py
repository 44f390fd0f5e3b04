"""The test suite on the oldest and the newest versions the package claims.

- ``lowest``: the oldest Python (3.10) with every dependency that
  pyproject.toml names pinned to its lower bound (``name>=X`` becomes
  ``name==X``, written to a constraints file made from pyproject.toml each
  run), so each bound is proven to install with the test dependencies and
  to pass.
- ``newest``: the newest Python (3.13) with the newest releases.
- ``python312``: Python 3.12 with the newest releases, so that every
  Python the classifiers name runs the tests (``make test`` runs them on
  the machine's ``python3``, 3.11 here).

Both skip the browser tests (``-m "not browser"``): ``make test`` runs them
once. Run ``.venv/bin/nox`` (``make versions``); the Pythons are pyenv's
when it has them, else ``python3.10`` and ``python3.13`` on the PATH.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import nox
from packaging.requirements import Requirement

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - nox itself on 3.10
    import tomli as tomllib

ROOT = Path(__file__).parent
#: The extras the tests import (bench is the benchmarks' peers; dev is tools).
EXTRAS = "test,babel,login,audit,og-images,cache,sqlalchemy"
#: pytest's arguments: the browser's tests run once, in ``make test``.
PYTEST = ("-m", "not browser", "-p", "no:cacheprovider", "-q")

nox.options.sessions = ["lowest", "python312", "newest"]
nox.options.reuse_existing_virtualenvs = False


def _python(version: str) -> str:
    """pyenv's newest ``version``.x, else ``python<version>`` on the PATH."""
    root = Path(os.environ.get("PYENV_ROOT", Path.home() / ".pyenv")) / "versions"
    found = sorted(
        (
            path
            for path in root.glob(f"{version}.*")
            if path.name[len(version) + 1 :].isdigit()
        ),
        key=lambda path: int(path.name.rsplit(".", 1)[1]),
    )
    for path in reversed(found):
        binary = path / "bin" / f"python{version}"
        if binary.exists():
            return str(binary)
    return version


def lowest_pins(pyproject: Path = ROOT / "pyproject.toml") -> list[str]:
    """``name==X`` for each requirement of pyproject.toml that says ``>=X``
    (the dependencies and every extra but the benchmarks'), each name once."""
    project = tomllib.loads(pyproject.read_text())["project"]
    texts = list(project["dependencies"])
    for extra, requirements in project["optional-dependencies"].items():
        if extra != "bench":
            texts += requirements
    pins: dict[str, str] = {}
    for text in texts:
        requirement = Requirement(text)
        bounds = [
            spec.version for spec in requirement.specifier if spec.operator == ">="
        ]
        if not bounds or requirement.name == "flask-marmeon":
            continue
        # A constraints file takes no extras: psycopg[binary]'s pin is
        # psycopg's (psycopg-binary follows it exactly).
        name = requirement.name.lower()
        marker = f"; {requirement.marker}" if requirement.marker else ""
        pin = f"{name}=={max(bounds)}{marker}"
        if pins.setdefault(name, pin) != pin:
            raise ValueError(f"pyproject.toml names {name} with two lower bounds")
    return sorted(pins.values())


@nox.session(python=_python("3.10"))
def lowest(session: nox.Session) -> None:
    """Python 3.10, every dependency at the lower bound pyproject.toml names."""
    pins = Path(session.create_tmp()) / "lowest.txt"
    pins.write_text("\n".join(lowest_pins()) + "\n")
    session.log(f"lower bounds ({pins}):\n{pins.read_text()}")
    session.install("-c", str(pins), "-e", f".[{EXTRAS}]")
    session.run("python", "-m", "pip", "check")
    session.run("python", "-m", "pytest", *PYTEST, *session.posargs)


def _newest(session: nox.Session) -> None:
    session.install("--upgrade", "-e", f".[{EXTRAS}]")
    session.run("python", "-m", "pytest", *PYTEST, *session.posargs)


@nox.session(python=_python("3.12"))
def python312(session: nox.Session) -> None:
    """Python 3.12, the newest release of every dependency."""
    _newest(session)


@nox.session(python=_python("3.13"))
def newest(session: nox.Session) -> None:
    """Python 3.13, the newest release of every dependency."""
    _newest(session)
