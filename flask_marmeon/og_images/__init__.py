"""Generated Open Graph images: a 1200x630 picture for pages that have none.

``value`` (``OgImage``) and ``card`` (what an app's drawing function gets)
import without Pillow; the rest needs the ``og-images`` extra.
"""

from .card import Colors as Colors
from .card import OgImageCard as OgImageCard
from .value import OgImage as OgImage

__all__ = ["Colors", "OgImage", "OgImageCard"]
