"""Generated Open Graph images: a 1200x630 picture for pages that have none.

``og_image`` (``OgImage``) and ``canvas`` (what an app's drawing function
gets) import without Pillow; the rest needs the ``og-images`` extra.
"""

from .canvas import Colors as Colors
from .canvas import OgImageCard as OgImageCard
from .og_image import OgImage as OgImage

__all__ = ["Colors", "OgImage", "OgImageCard"]
