"""What a generated image shows: its size, colors, and the card an app's
own drawing function receives (no Pillow needed to import it)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..config_images import RGB as RGB
from ..config_images import Colors as Colors

if TYPE_CHECKING:
    from PIL import Image

#: The size every generated image has: Open Graph's recommended 1.91:1.
WIDTH = 1200
HEIGHT = 630
#: The side of the square image a Twitter ``summary`` card gets.
SQUARE_SIZE = 630
MIMETYPE = "image/png"


@dataclass(frozen=True)
class OgImageCard:
    """What an image shows, as an app's drawing function receives it.

    The texts are already cut to what the default card draws (the address
    carries them, so they are short); ``logo`` is the app's logo as an RGBA
    image, or None. The function returns a ``width`` x ``height`` image:
    1200x630, or 630x630 for the square image of a Twitter ``summary``.
    """

    title: str
    description: str
    site_name: str
    colors: Colors
    logo: Image.Image | None
    width: int = WIDTH
    height: int = HEIGHT


#: An app's own drawing: a card in, a ``width`` x ``height`` image out.
DrawFunction = Callable[[OgImageCard], "Image.Image"]
