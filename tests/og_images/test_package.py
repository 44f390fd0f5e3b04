"""The shipped font and its license are in the wheel."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

from tests.processes import ROOT


def test_the_wheel_holds_the_fonts_and_their_license(tmp_path: Path) -> None:
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "-q",
            "-w",
            str(tmp_path),
            str(ROOT),
        ],
        check=True,
        capture_output=True,
    )
    [wheel] = tmp_path.glob("flask_marmeon-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    for name in (
        "NotoSans-Regular.ttf",
        "NotoSans-Bold.ttf",
        "NotoSansArabic-Regular.ttf",
        "NotoSansArabic-Bold.ttf",
        "NotoSansHebrew-Regular.ttf",
        "NotoSansHebrew-Bold.ttf",
        "OFL.txt",
    ):
        assert f"flask_marmeon/og_images/fonts/{name}" in names
