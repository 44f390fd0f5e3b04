"""Generated Open Graph images: a 1200x630 picture for pages that have none.

``OgImage`` (the head's value, ``head/og_image.py``) and ``canvas`` (what an
app's drawing function gets) import without Pillow; the rest needs the
``og-images`` extra.
"""

from ..head.og_image import OgImage as OgImage
from .canvas import Colors as Colors
from .canvas import OgImageCard as OgImageCard

__all__ = ["Colors", "OgImage", "OgImageCard"]
