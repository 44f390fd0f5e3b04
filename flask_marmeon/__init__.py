"""flask_marmeon: search engines and link previews for Flask."""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError as _PackageNotFoundError
from importlib.metadata import version as _version

from ._edge import check_routes as check_routes
from ._edge import raise_on_problems as raise_on_problems
from .absolute import absolute_url as absolute_url
from .checks import Problem as Problem
from .checks import Problem as RouteProblem
from .errors import StartupError as StartupError
from .extension import Marmeon as Marmeon
from .head import Facebook as Facebook
from .head import Feed as Feed
from .head import HeadFields as HeadFields
from .head import HeadFragment as HeadFragment
from .head import Icon as Icon
from .head import JsonLd as JsonLd
from .head import JsonLdGraph as JsonLdGraph
from .head import JsonLdNode as JsonLdNode
from .head import OpenGraph as OpenGraph
from .head import OpenGraphArticle as OpenGraphArticle
from .head import OpenGraphAudio as OpenGraphAudio
from .head import OpenGraphBook as OpenGraphBook
from .head import OpenGraphImage as OpenGraphImage
from .head import OpenGraphProduct as OpenGraphProduct
from .head import OpenGraphProfile as OpenGraphProfile
from .head import OpenGraphVideo as OpenGraphVideo
from .head import ProductPrice as ProductPrice
from .head import Robots as Robots
from .head import ThemeColor as ThemeColor
from .head import Twitter as Twitter
from .head import TwitterImage as TwitterImage
from .head import Verification as Verification
from .head import head as head
from .head import render_head as render_head
from .i18n import current_page as current_page
from .i18n import localized as localized
from .indexnow import IndexNowError as IndexNowError
from .indexnow import submit_changed as submit_changed
from .og_images import OgImage as OgImage
from .og_images import OgImageCard as OgImageCard
from .page import Alternate as Alternate
from .page import Page as Page
from .routing.marks import api as api
from .routing.marks import authenticate as authenticate
from .routing.marks import authorize as authorize
from .routing.marks import everyone as everyone
from .sitemap.entries import SitemapEntry as SitemapEntry
from .sitemap.paged import PagedProvider as PagedProvider

try:
    __version__ = _version("flask-marmeon")
except _PackageNotFoundError:  # pragma: no cover - running from a bare checkout
    __version__ = "0.0.0"

__all__ = [
    "Alternate",
    "HeadFragment",
    "OpenGraphVideo",
    "OpenGraphProfile",
    "OpenGraphBook",
    "OpenGraphAudio",
    "HeadFields",
    "IndexNowError",
    "JsonLd",
    "JsonLdGraph",
    "JsonLdNode",
    "Marmeon",
    "OgImage",
    "OgImageCard",
    "OpenGraph",
    "OpenGraphArticle",
    "OpenGraphImage",
    "Page",
    "PagedProvider",
    "Problem",
    "Robots",
    "RouteProblem",
    "SitemapEntry",
    "StartupError",
    "Twitter",
    "TwitterImage",
    "Icon",
    "ThemeColor",
    "Feed",
    "Verification",
    "Facebook",
    "OpenGraphProduct",
    "ProductPrice",
    "absolute_url",
    "api",
    "authenticate",
    "authorize",
    "check_routes",
    "current_page",
    "everyone",
    "head",
    "localized",
    "raise_on_problems",
    "render_head",
    "submit_changed",
]
