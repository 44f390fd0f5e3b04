"""Fonts found among the machine's own, for what no other font draws.

When a cluster has no face among the shipped fonts and the app's
(``MARMEON_OG_IMAGE_FONTS``), the machine's fonts are looked through once
for its script: first Noto's files by name (``NotoSans<Script>-Bold.ttf``,
``NotoSansCJK-Bold.ttc``, ``NotoColorEmoji.ttf``: Debian's fonts-noto-core,
fonts-noto-cjk and fonts-noto-color-emoji install them) in the usual font
folders and wherever fontconfig knows of fonts, then what fontconfig's
``fc-match`` picks for the character. A file is taken only when it has
every character of the cluster. The script is the first word of the
character's Unicode name (``DEVANAGARI LETTER KA``), so every script that
Noto names after itself is found without a table.

What is found is the same in every process of one machine, so the address
(which carries the texts as they are drawn) is drawn alike by any of them.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import threading
import unicodedata
from collections.abc import Iterable
from pathlib import Path

from PIL import ImageFont

from .._log import logger
from .clusters import is_emoji
from .face import Face

#: Where fonts are installed when fontconfig does not say.
FONT_DIRS = (
    "/usr/share/fonts",
    "/usr/local/share/fonts",
    "~/.local/share/fonts",
    "~/.fonts",
    "/Library/Fonts",
    "/System/Library/Fonts",
)
#: The first words of the Unicode names that Noto's CJK fonts draw.
_CJK = frozenset(
    (
        "CJK",
        "HIRAGANA",
        "KATAKANA",
        "HANGUL",
        "BOPOMOFO",
        "IDEOGRAPHIC",
        "KANGXI",
        "HALFWIDTH",
        "FULLWIDTH",
    )
)
#: At most this many fc-match calls a process makes (a text of many rare
#: characters costs a bounded number of them).
FC_MATCH_CALLS = 64


def script_of(cluster: str) -> str | None:
    """The script a cluster is looked up by: ``emoji``, ``cjk``, or the first
    word of its first character's Unicode name (None for a nameless one)."""
    if is_emoji(cluster):
        return "emoji"
    word = unicodedata.name(cluster[0], "").split(" ", 1)[0]
    if not word:
        return None
    return "cjk" if word in _CJK else word.lower()


def file_names(script: str, bold: bool) -> list[str]:
    """The Noto files that draw ``script``, the weight asked for first."""
    if script == "emoji":
        return ["NotoColorEmoji.ttf"]
    names: tuple[str, ...]
    if script == "cjk":
        names = ("NotoSansCJK-{}.ttc", "NotoSansCJKjp-{}.otf", "NotoSansCJKsc-{}.otf")
    else:
        family = script.capitalize()
        names = (
            f"NotoSans{family}-{{}}.ttf",
            f"NotoSans{family}-{{}}.otf",
            f"NotoSans{family}UI-{{}}.ttf",
            f"NotoSerif{family}-{{}}.ttf",
        )
    weights = ("Bold", "Regular") if bold else ("Regular",)
    return [name.format(weight) for weight in weights for name in names]


def _walk(folders: Iterable[str]) -> dict[str, Path]:
    found: dict[str, Path] = {}
    for folder in folders:
        for root, _dirs, files in os.walk(os.path.expanduser(folder)):
            for name in sorted(files):
                found.setdefault(name, Path(root) / name)
    return found


def _fontconfig(*command: str, timeout: float) -> str:
    """What a fontconfig tool prints ("" without fontconfig, or on failure)."""
    tool = shutil.which(command[0])
    if tool is None:
        return ""
    try:
        done = subprocess.run(
            [tool, *command[1:]],
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return ""
    return done.stdout


def _fontconfig_files() -> list[str]:
    """The folders of every font fontconfig knows ([] without fontconfig)."""
    files = _fontconfig("fc-list", "--format", "%{file}\n", timeout=10)
    return sorted({os.path.dirname(line) for line in files.splitlines() if line})


def _fc_match(char: str, bold: bool) -> Path | None:
    query = f":charset={ord(char):x}:weight={200 if bold else 80}"
    found = _fontconfig("fc-match", "--format", "%{file}", query, timeout=5)
    return Path(found) if found else None


class SystemFonts:
    """The machine's font files, looked through once, and the faces found
    (drawn with ``layout``); a file that cannot be read is passed over.
    Safe across threads."""

    def __init__(self, layout: ImageFont.Layout) -> None:
        self.layout = layout
        self.lock = threading.Lock()
        self.files: dict[str, Path] | None = None
        #: (script, bold) -> the faces tried for it, in order.
        self.by_script: dict[tuple[str, bool], list[Face]] = {}
        self.fc_calls = 0

    def _load(self, path: Path, script: str) -> Face | None:
        try:
            return Face.load(path, script, self.layout)
        except Exception:  # noqa: BLE001 - fontTools and Pillow raise many kinds
            logger.debug("The font %s cannot be read; passed over.", path)
            return None

    def face_for(self, cluster: str, bold: bool) -> Face | None:
        """A face that has every character of ``cluster``: Noto's for its
        script, else what fontconfig picks for its first character."""
        script = script_of(cluster)
        if script is not None:
            for face in self._candidates(script, bold):
                if face.has(cluster):
                    return face
        matched = self._matched(cluster[0], script or "other", bold)
        return matched if matched is not None and matched.has(cluster) else None

    def _candidates(self, script: str, bold: bool) -> list[Face]:
        """The faces found for ``script`` (loaded once each)."""
        with self.lock:
            known = self.by_script.get((script, bold))
            if known is None:
                if self.files is None:
                    self.files = _walk((*FONT_DIRS, *_fontconfig_files()))
                paths = [self.files.get(name) for name in file_names(script, bold)]
                loaded = [self._load(path, script) for path in paths if path]
                known = [face for face in loaded if face is not None]
                self.by_script[(script, bold)] = known
            return list(known)

    def _matched(self, char: str, script: str, bold: bool) -> Face | None:
        """What fontconfig picks for ``char`` (a bounded number of calls a
        process)."""
        with self.lock:
            if self.fc_calls >= FC_MATCH_CALLS:
                return None
            self.fc_calls += 1
        path = _fc_match(char, bold)
        face = self._load(path, script) if path and path.is_file() else None
        if face is not None:
            with self.lock:
                self.by_script.setdefault((script, bold), []).append(face)
        return face
