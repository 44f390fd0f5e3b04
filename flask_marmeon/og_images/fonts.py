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
import unicodedata
from dataclasses import dataclass, field
from importlib.resources import as_file, files
from pathlib import Path

from PIL import ImageFont, features

from .clusters import is_emoji
from .face import WIDTHS_SIZE, Face
from .settings import FontFile
from .system_fonts import SystemFonts

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
        emoji = is_emoji(cluster)
        if previous is not None and unicodedata.category(cluster[0])[0] != "L":
            face = faces[previous]
            # Not after an emoji: a bitmap emoji font's space is wide.
            if face.has(cluster) and face.script != "emoji" and not emoji:
                return previous
        # An emoji font's faces first for an emoji, last for anything else.
        for emoji_face in (emoji, not emoji):
            for index, face in enumerate(faces):
                if (face.script == "emoji") == emoji_face and face.has(cluster):
                    return index
        return self._found(cluster)

    def _found(self, cluster: str) -> int | None:
        """A face of the machine's for ``cluster``, added to the set (the
        indices of the faces before it stay as they are)."""
        if self.system is None or cluster in self.unfound:
            return None
        face = self.system.face_for(cluster, self.bold)
        with self.lock:
            if face is None:
                if len(self.unfound) >= WIDTHS_SIZE:
                    self.unfound.clear()
                self.unfound.add(cluster)
                return None
            if face not in self.faces:
                self.faces = (*self.faces, face)
            return self.faces.index(face)


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
        chosen = {font.script for font in configured}
        # The app's font for a script replaces the shipped one.
        latin = FontFile(
            "latin", shipped_path(SHIPPED_REGULAR), shipped_path(SHIPPED_BOLD)
        )
        files = [
            *([] if "latin" in chosen else [latin]),
            *configured,
            *(
                FontFile(script, shipped_path(regular), shipped_path(bold))
                for script, (regular, bold) in SHIPPED_SCRIPTS.items()
                if script not in chosen
            ),
        ]
        regular = [Face.load(font.regular, font.script, layout) for font in files]
        bold = [Face.load(font.bold, font.script, layout) for font in files]
        digest = hashlib.sha256()
        for face in (*regular, *bold):
            digest.update(face.path.name.encode())
            digest.update(file_digest(face.path))
        found = SystemFonts(layout) if system else None
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
