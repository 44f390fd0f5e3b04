"""Compile the translations at start, so that no compiled file is committed.

The ``.po`` files under ``example_app/translations`` are the source; the
``.mo`` files Flask-Babel reads are written into the instance folder the
first time the app starts after a ``.po`` changed (the same work as
``pybabel compile``, through Babel's API).
"""

from __future__ import annotations

import os
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

#: The ``.po`` files: ``<locale>/LC_MESSAGES/messages.po``.
SOURCE = Path(__file__).parent / "translations"


def compile_translations(target: Path, source: Path = SOURCE) -> Path:
    """Write a ``.mo`` beside the path of each ``.po`` under ``target``.

    A ``.mo`` newer than its ``.po`` is kept. Each file is written under a
    temporary name and then renamed, so that several workers starting at
    once never read half a file. Returns ``target``, the directory for
    ``BABEL_TRANSLATION_DIRECTORIES``.
    """
    for po_path in sorted(source.glob("*/LC_MESSAGES/*.po")):
        mo_path = target / po_path.relative_to(source).with_suffix(".mo")
        if mo_path.exists() and mo_path.stat().st_mtime >= po_path.stat().st_mtime:
            continue
        mo_path.parent.mkdir(parents=True, exist_ok=True)
        with po_path.open("rb") as po_file:
            catalog = read_po(po_file, locale=po_path.parent.parent.name)
        partial = mo_path.with_name(f"{mo_path.name}.{os.getpid()}.tmp")
        with partial.open("wb") as mo_file:
            write_mo(mo_file, catalog)
        partial.replace(mo_path)
    return target
