"""The fonts an image is drawn with: the shipped Noto Sans, then the app's.

Each font file is a :class:`~.face.Face` (face.py): the characters it has
(its ``cmap``, read with fontTools), and its Pillow fonts by size. A cluster
is drawn with the first face that has every character of it, the shipped
font first, so the app's fonts for Arabic, Hebrew, CJK, Devanagari or emoji
take what the shipped one lacks. A color emoji font made of bitmaps (Noto
Color Emoji) has one size; its glyphs are drawn at that size and scaled.

Pillow lays text out with libraqm (shaping, right to left) when it can load
it (its wheels load FriBiDi from the system); without it, the basic layout
draws each character's own glyph, and right-to-left runs are reversed
cluster by cluster (readable Hebrew, unjoined Arabic) with a warning.
"""

from __future__ import annotations

import hashlib
import threading
from dataclasses import dataclass, field
from importlib.resources import as_file, files
from pathlib import Path

from PIL import ImageFont, features

from .face import WIDTHS_SIZE, Face
from .settings import FontFile
from .system_fonts import SystemFonts, quiet_load

_SHIPPED = files("flask_marmeon.og_images").joinpath("fonts")
SHIPPED_REGULAR = "NotoSans-Regular.ttf"
SHIPPED_BOLD = "NotoSans-Bold.ttf"
#: The other scripts' fonts shipped with the package (small enough to
#: ship): script -> (regular, bold). An app's font for the script replaces
#: them.
SHIPPED_SCRIPTS = {
    "arabic": ("NotoSansArabic-Regular.ttf", "NotoSansArabic-Bold.ttf"),
    "hebrew": ("NotoSansHebrew-Regular.ttf", "NotoSansHebrew-Bold.ttf"),
}


def shipped_path(name: str) -> Path:
    """The path of a font shipped in the package (a real file in a wheel)."""
    with as_file(_SHIPPED.joinpath(name)) as path:
        return Path(path)


def raqm_available() -> bool:
    """Whether Pillow can shape text with libraqm (and right to left)."""
    return bool(features.check("raqm"))


def _is_emoji(cluster: str) -> bool:
    code = ord(cluster[0])
    return "\ufe0f" in cluster or code >= 0x1F000 or "\u200d" in cluster


@dataclass(eq=False)
class FontSet:
    """The faces of one weight, the shipped one first; then, as they are
    needed, faces found among the machine's fonts (system_fonts.py)."""

    faces: tuple[Face, ...]
    raqm: bool
    #: The machine's fonts, looked through for a cluster no face has.
    system: SystemFonts | None = None
    bold: bool = False

    #: Whether the first face draws all of printable ASCII (the fast way
    #: of layout.fit).
    ascii: bool = field(init=False)
    lock: threading.Lock = field(init=False, default_factory=threading.Lock)
    #: Clusters that no face, not even the machine's, draws.
    unfound: set[str] = field(init=False, default_factory=set)

    def __post_init__(self) -> None:
        first = self.faces[0]
        self.ascii = first.bitmap_size is None and all(
            code in first.covers for code in range(0x20, 0x7F)
        )

    def face_for(self, cluster: str, previous: int | None) -> int | None:
        """The index of the face that draws ``cluster``, None when none can.

        A neutral cluster (space, digit, punctuation) stays with the face of
        the cluster before it when that face has it, so a right-to-left run
        is not split at each space; an emoji goes to an emoji font first.
        """
        faces = self.faces
        if previous is not None and not _letter(cluster):
            face = faces[previous]
            # Not after an emoji: a bitmap emoji font's space is wide.
            if face.has(cluster) and face.script != "emoji" and not _is_emoji(cluster):
                return previous
        if _is_emoji(cluster):
            for index, face in enumerate(faces):
                if face.script == "emoji" and face.has(cluster):
                    return index
        for index, face in enumerate(faces):
            if face.has(cluster) and (face.script != "emoji" or _is_emoji(cluster)):
                return index
        for index, face in enumerate(faces):
            if face.has(cluster):
                return index
        return self._found(cluster)

    def _found(self, cluster: str) -> int | None:
        """A face of the machine's for ``cluster``, added to the set (the
        indices of the faces before it stay as they are)."""
        system = self.system
        if system is None or cluster in self.unfound:
            return None
        for face in system.candidates(cluster, self.bold):
            if face.has(cluster):
                return self._add(face)
        matched = system.matched(cluster, self.bold)
        if matched is not None and matched.has(cluster):
            return self._add(matched)
        with self.lock:
            if len(self.unfound) >= WIDTHS_SIZE:
                self.unfound.clear()
            self.unfound.add(cluster)
        return None

    def _add(self, face: Face) -> int:
        with self.lock:
            for index, known in enumerate(self.faces):
                if known is face:
                    return index
            self.faces = (*self.faces, face)
            return len(self.faces) - 1


def _letter(cluster: str) -> bool:
    import unicodedata

    return unicodedata.category(cluster[0])[0] == "L"


@dataclass(eq=False)
class Fonts:
    """The regular and bold font sets an image is drawn with."""

    regular: FontSet
    bold: FontSet
    #: A digest of every font file's content, for the look's digest.
    digest: str

    @classmethod
    def load(
        cls, configured: tuple[FontFile, ...], raqm: bool, *, system: bool = True
    ) -> Fonts:
        """Load the shipped fonts and the app's (raises OSError naming none:
        the start-up check names a file that cannot be read). ``system``:
        look among the machine's fonts for what none of them draws."""
        layout = ImageFont.Layout.RAQM if raqm else ImageFont.Layout.BASIC
        digest = hashlib.sha256()
        regular = [Face.load(shipped_path(SHIPPED_REGULAR), "latin", layout)]
        bold = [Face.load(shipped_path(SHIPPED_BOLD), "latin", layout)]
        if any(font.script == "latin" for font in configured):
            # The app's own Latin font replaces the shipped one.
            regular, bold = [], []
        for font in configured:
            regular.append(Face.load(font.regular, font.script, layout))
            bold.append(Face.load(font.bold, font.script, layout))
        chosen = {font.script for font in configured}
        for script, (regular_name, bold_name) in SHIPPED_SCRIPTS.items():
            if script not in chosen:
                regular.append(Face.load(shipped_path(regular_name), script, layout))
                bold.append(Face.load(shipped_path(bold_name), script, layout))
        for face in (*regular, *bold):
            digest.update(face.path.name.encode())
            digest.update(file_digest(face.path))
        found = None
        if system:

            def load(path: Path, script: str) -> Face:
                return Face.load(path, script, layout)

            found = SystemFonts(quiet_load(load))
        return cls(
            FontSet(tuple(regular), raqm, found),
            FontSet(tuple(bold), raqm, found, bold=True),
            digest.hexdigest(),
        )


def file_digest(path: Path) -> bytes:
    """The SHA-256 of a file's content (fonts and the logo are in the look's
    digest, so a new file is a new address)."""
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for chunk in iter(lambda: handle.read(1 << 20), b""):
            digest.update(chunk)
    return digest.digest()
