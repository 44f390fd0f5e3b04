"""The head: ``head(**fields)`` -> merge -> resolve -> URL policy -> HTML."""

from __future__ import annotations

from .api import head as head
from .api import render_head as render_head
from .fields import HeadFragment as HeadFragment
from .fields import JsonLd as JsonLd
from .fields import JsonLdGraph as JsonLdGraph
from .fields import JsonLdNode as JsonLdNode
from .fields import OpenGraph as OpenGraph
from .fields import OpenGraphArticle as OpenGraphArticle
from .fields import OpenGraphImage as OpenGraphImage
from .fields import Robots as Robots
from .fields import Twitter as Twitter
from .fields import TwitterImage as TwitterImage

__all__ = [
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
    "head",
    "render_head",
]
