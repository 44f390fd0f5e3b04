"""The head: ``head(**fields)`` -> merge -> resolve -> URL policy -> HTML."""

from __future__ import annotations

from .api import head as head
from .api import render_head as render_head
from .fragment import HeadFragment as HeadFragment
from .types import Facebook as Facebook
from .types import Feed as Feed
from .types import HeadFields as HeadFields
from .types import Icon as Icon
from .types import JsonLd as JsonLd
from .types import JsonLdGraph as JsonLdGraph
from .types import JsonLdNode as JsonLdNode
from .types import OpenGraph as OpenGraph
from .types import OpenGraphArticle as OpenGraphArticle
from .types import OpenGraphAudio as OpenGraphAudio
from .types import OpenGraphBook as OpenGraphBook
from .types import OpenGraphImage as OpenGraphImage
from .types import OpenGraphProduct as OpenGraphProduct
from .types import OpenGraphProfile as OpenGraphProfile
from .types import OpenGraphVideo as OpenGraphVideo
from .types import ProductPrice as ProductPrice
from .types import Robots as Robots
from .types import ThemeColor as ThemeColor
from .types import Twitter as Twitter
from .types import TwitterImage as TwitterImage
from .types import Verification as Verification

__all__ = [
    "OpenGraphVideo",
    "OpenGraphProfile",
    "OpenGraphBook",
    "OpenGraphAudio",
    "HeadFields",
    "HeadFragment",
    "JsonLd",
    "JsonLdGraph",
    "JsonLdNode",
    "OpenGraph",
    "OpenGraphArticle",
    "OpenGraphImage",
    "Robots",
    "Twitter",
    "TwitterImage",
    "Icon",
    "ThemeColor",
    "Feed",
    "Verification",
    "Facebook",
    "OpenGraphProduct",
    "ProductPrice",
    "head",
    "render_head",
]
