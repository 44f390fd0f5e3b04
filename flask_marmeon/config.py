"""Read APP_URL, APP_LOCALES and the MARMEON_* keys once, into frozen Settings."""

from __future__ import annotations

import copy
import hashlib
import os
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import ada_url

from .config_images import (
    Colors,
    read_colors,
    read_draw,
    read_fonts,
    read_logo,
    read_memory,
)
from .errors import StartupError
from .locale_tags import LocaleTags, hyphenated

if TYPE_CHECKING:
    from werkzeug.routing import Map

#: Defaults that :func:`apply_defaults` writes into ``app.config`` so that
#: users can see them.
DEFAULTS: dict[str, Any] = {
    "MARMEON_SITEMAP_TTL": 300,
    "MARMEON_SITEMAP_RETRY_AFTER": 30,
    "MARMEON_SITEMAP_MAX_URLS": 50_000,
    "MARMEON_SITEMAP_INDEX": False,
    "MARMEON_CSP_NONCE": None,
    "MARMEON_BROWSER_SCRIPT": True,
    "MARMEON_SITEMAP_WAIT": 20,
    "MARMEON_INDEXABLE": True,
    "MARMEON_ROBOTS_RULES": [],
    "MARMEON_INDEXNOW_KEY": None,
    "MARMEON_INDEXNOW_ENDPOINT": "https://api.indexnow.org/indexnow",
    "MARMEON_DEFAULT_CANONICAL": False,
    "MARMEON_CACHE_PREFIX": None,
    "MARMEON_SITEMAP_MEMORY": 64 * 1024 * 1024,
    "MARMEON_SITEMAP_URL": None,
    "MARMEON_SITEMAP_SERVE": True,
    "MARMEON_OG_IMAGES": False,
    "MARMEON_OG_IMAGE_COLORS": {},
    "MARMEON_OG_IMAGE_LOGO": None,
    "MARMEON_OG_IMAGE_FONTS": {},
    "MARMEON_OG_IMAGE_DRAW": None,
    "MARMEON_OG_IMAGES_SHARED": False,
    "MARMEON_OG_IMAGES_MEMORY": 32 * 1024 * 1024,
}

# BCP 47 in the shape apps use: a primary language subtag, then script,
# region, variant or extension subtags. Enough to refuse typos such as "en_US"
# or "en-" without pretending to validate against the IANA registry.
_BCP47 = re.compile(r"^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{1,8})*$|^[A-Za-z]{4,8}$")


@dataclass(frozen=True)
class Settings:
    """The extension's configuration for one app, read once in ``init_app``."""

    #: The origin of APP_URL (``"https://notes.example"``), or None when unset.
    app_url: str | None
    #: BCP 47 tags as configured; the first is the fallback locale.
    locales: tuple[str, ...]
    sitemap_ttl: float
    sitemap_retry_after: float
    sitemap_max_urls: int
    sitemap_index: bool
    #: Returns the response's CSP nonce, or None for no nonce attribute.
    csp_nonce: Callable[[], str | None] | None
    #: Whether ``render_head()`` includes the browser module.
    browser_script: bool
    #: The app's mount path from Flask's APPLICATION_ROOT, without a trailing
    #: slash: ``""`` at the root, ``"/blog"`` under a prefix. Every address the
    #: extension writes starts with it, never with the request's SCRIPT_NAME,
    #: which a client can set (ProxyFix's X-Forwarded-Prefix, gunicorn).
    root: str = ""
    #: False for a staging or preview deployment that must never be indexed.
    indexable: bool = True
    #: Seconds a request waits for a sitemap when no file has been built yet.
    sitemap_wait: float = 20
    #: MARMEON_ROBOTS_RULES as configured (a tuple when it is a list):
    #: robots.txt's groups per crawler, checked with the H10 checks
    #: (flask_marmeon.robots_txt.rules).
    robots_rules: Any = ()
    #: MARMEON_INDEXNOW_KEY as configured (None: no key); checked with the
    #: H10 checks (flask_marmeon.indexnow.checks).
    indexnow_key: Any = None
    #: MARMEON_INDEXNOW_ENDPOINT as configured, checked likewise.
    indexnow_endpoint: Any = DEFAULTS["MARMEON_INDEXNOW_ENDPOINT"]
    #: Whether a page that sets no canonical gets its route's own address.
    default_canonical: bool = False
    #: What the shared cache's keys name (MARMEON_CACHE_PREFIX), or None:
    #: APP_URL, the mount path and the app's import name.
    cache_prefix: str | None = None
    #: Bytes of built parts a process keeps without a shared cache.
    sitemap_memory: int = 64 * 1024 * 1024
    #: What robots.txt's Sitemap: line names (MARMEON_SITEMAP_URL: an
    #: export's index on a CDN), or None: the app's own /sitemap.xml.
    sitemap_url: str | None = None
    #: Whether the app serves its sitemap (MARMEON_SITEMAP_SERVE).
    sitemap_serve: bool = True
    #: MARMEON_OG_IMAGES: a generated image for every page that has none.
    og_images: bool = False
    og_image_colors: Colors = Colors()
    #: MARMEON_OG_IMAGE_LOGO: a path in the static folder, or None.
    og_image_logo: str | Path | None = None
    #: MARMEON_OG_IMAGE_FONTS: (script, regular, bold) in the order given,
    #: each path under the app's root path.
    og_image_fonts: tuple[tuple[str, str | Path, str | Path], ...] = ()
    #: MARMEON_OG_IMAGE_DRAW: the app's own drawing function, or None.
    og_image_draw: Callable[..., Any] | None = None
    #: MARMEON_OG_IMAGES_SHARED: keep drawn images in the shared
    #: sitemap_cache too (for a day).
    og_images_shared: bool = False
    #: MARMEON_OG_IMAGES_MEMORY: bytes of PNG a process keeps.
    og_images_memory: int = 32 * 1024 * 1024

    @property
    def site_base(self) -> str:
        """What every address the extension writes starts with: APP_URL's
        origin and the mount path (``"https://notes.example/blog"``), the
        mount path alone without APP_URL."""
        return f"{self.app_url or ''}{self.root}"

    def store_name(self, import_name: str) -> str:
        """What the shared cache's keys of the app name, hashed to a fixed
        length: MARMEON_CACHE_PREFIX, else APP_URL, the mount path and the
        app's import name (production and staging on one store apart)."""
        name = self.cache_prefix or f"{self.site_base} {import_name}"
        return hashlib.sha256(name.encode()).hexdigest()[:16]


def app_url_value(config: Mapping[str, Any], environ: Mapping[str, str]) -> Any:
    """APP_URL as configured, else the environment's (for
    :func:`parse_app_url`): the extension's and the audit's one rule."""
    value = config.get("APP_URL")
    return environ.get("APP_URL") or value if value in (None, "") else value


def apply_defaults(config: dict[str, Any], environ: Mapping[str, str]) -> None:
    """Fill in missing keys: APP_URL and APP_LOCALES from the environment."""
    if (url := app_url_value(config, environ)) not in (None, ""):
        config["APP_URL"] = url
    if config.get("APP_LOCALES") in (None, "", []) and environ.get("APP_LOCALES"):
        config["APP_LOCALES"] = environ["APP_LOCALES"]
    config.setdefault("APP_LOCALES", [])
    if "MARMEON_INDEXABLE" not in config and "MARMEON_INDEXABLE" in environ:
        config["MARMEON_INDEXABLE"] = environ["MARMEON_INDEXABLE"]
    for key, value in DEFAULTS.items():
        config.setdefault(key, value)


def parse_app_url(value: object) -> str | None:
    """Return the origin of APP_URL, None when unset or empty.

    Anything else that is not an http(s) URL with a host is H10: a sitemap or
    a canonical built on it would name addresses that do not work.
    """
    if value is None or value == "":
        return None
    if not isinstance(value, str):
        raise StartupError(
            f"APP_URL must be a string such as 'https://example.com', not"
            f" {type(value).__name__} {value!r}."
        )
    url = web_url(value.strip())
    if url is None:
        raise StartupError(
            f"APP_URL {value!r} is not an http or https address with a host."
            " Set it to the site's public address, such as 'https://example.com'."
        )
    return str(url.origin)


def parse_locales(value: object) -> tuple[str, ...]:
    """Return APP_LOCALES as a tuple of BCP 47 tags, in the configured order."""
    if value is None or value == "":
        return ()
    if isinstance(value, str):
        items: list[object] = [part.strip() for part in value.split(",")]
        items = [item for item in items if item]
    elif isinstance(value, (list, tuple)):
        items = list(value)
    else:
        raise TypeError(
            "APP_LOCALES must be a list of BCP 47 tags such as ['en', 'de-AT'] or"
            f" a comma-separated string, not {type(value).__name__}."
        )
    tags: list[str] = []
    for tag in items:
        if not isinstance(tag, str) or not _BCP47.match(tag):
            hint = ""
            if isinstance(tag, str) and "_" in tag:
                hint = f" Did you mean {hyphenated(tag)!r}?"
            raise ValueError(
                f"APP_LOCALES holds {tag!r}, which is not a BCP 47 tag such as"
                f" 'en' or 'de-AT'.{hint}"
            )
        # Locales are spelled in lower case in URLs, so two tags that differ
        # only in case would share one address.
        same = LocaleTags(tags).find(tag)
        if same is not None:
            raise ValueError(
                f"APP_LOCALES holds {same!r} and {tag!r}, which name"
                " the same locale. Keep one of them."
            )
        tags.append(tag)
    return tuple(tags)


# A mount path is plain path segments: nothing a browser would read as
# another host ("//x", "/\\x"), a query, a fragment, a dot segment or an escape.
_ROOT_SEGMENT = re.compile(r"^[A-Za-z0-9._~!$&'()*+,;=:@-]+$")


def parse_root(value: object) -> str:
    """Return APPLICATION_ROOT as the mount path: ``""`` for ``/``, else ``/a/b``."""
    if value is None or value == "" or value == "/":
        return ""
    if not isinstance(value, str):
        raise TypeError(
            "APPLICATION_ROOT must be a path such as '/' or '/blog', not"
            f" {type(value).__name__} {value!r}."
        )
    path = value[:-1] if value.endswith("/") else value
    segments = path[1:].split("/")
    if not value.startswith("/") or not all(
        _ROOT_SEGMENT.match(part) and part not in (".", "..") for part in segments
    ):
        raise ValueError(
            f"APPLICATION_ROOT {value!r} is not a mount path such as '/' or '/blog':"
            " it must start with '/' and hold plain path segments (no '//', '\\',"
            " '?', '#', '%', dot segments or spaces)."
        )
    return "/" + "/".join(segments)


_TRUE = ("1", "true", "yes", "on")
_FALSE = ("0", "false", "no", "off")


def parse_flag(key: str, value: object) -> bool:
    """A boolean setting: a bool, or its text as the environment gives it."""
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lower() in _TRUE + _FALSE:
        return value.strip().lower() in _TRUE
    raise ValueError(
        f"{key} must be True or False (or, from the environment, one of"
        f" {', '.join(_TRUE + _FALSE)}), not {value!r}."
    )


def _number(config: Mapping[str, Any], key: str, *, integer: bool = False) -> Any:
    value: Any = config[key]
    ok = isinstance(value, int) or (not integer and isinstance(value, float))
    if isinstance(value, bool) or not ok or value < 0:
        kind = "a whole number" if integer else "a number of seconds"
        raise ValueError(f"{key} must be {kind} of at least 0, not {value!r}.")
    return value


def load_settings(config: Mapping[str, Any]) -> Settings:
    """Validate the app's config (after :func:`apply_defaults`) into Settings."""
    nonce = config["MARMEON_CSP_NONCE"]
    if nonce is not None and not callable(nonce):
        raise TypeError(
            "MARMEON_CSP_NONCE must be a function that takes no arguments and"
            f" returns the response's nonce or None, not {nonce!r}."
        )
    max_urls = _number(config, "MARMEON_SITEMAP_MAX_URLS", integer=True)
    if not 1 <= max_urls <= 50_000:
        # 50 000 URLs is the limit of the sitemap format.
        raise ValueError(
            "MARMEON_SITEMAP_MAX_URLS must be from 1 to 50000 (the sitemap"
            f" format's limit), not {max_urls}."
        )
    return Settings(
        app_url=parse_app_url(config.get("APP_URL")),
        locales=parse_locales(config.get("APP_LOCALES")),
        sitemap_ttl=_number(config, "MARMEON_SITEMAP_TTL"),
        sitemap_retry_after=_number(config, "MARMEON_SITEMAP_RETRY_AFTER"),
        sitemap_max_urls=max_urls,
        sitemap_index=bool(config["MARMEON_SITEMAP_INDEX"]),
        csp_nonce=nonce,
        browser_script=bool(config["MARMEON_BROWSER_SCRIPT"]),
        root=parse_root(config.get("APPLICATION_ROOT")),
        indexable=parse_flag("MARMEON_INDEXABLE", config["MARMEON_INDEXABLE"]),
        sitemap_wait=_number(config, "MARMEON_SITEMAP_WAIT"),
        robots_rules=_rules(config.get("MARMEON_ROBOTS_RULES")),
        indexnow_key=config["MARMEON_INDEXNOW_KEY"],
        indexnow_endpoint=config["MARMEON_INDEXNOW_ENDPOINT"],
        default_canonical=parse_flag(
            "MARMEON_DEFAULT_CANONICAL", config["MARMEON_DEFAULT_CANONICAL"]
        ),
        cache_prefix=_prefix(config["MARMEON_CACHE_PREFIX"]),
        sitemap_memory=_number(config, "MARMEON_SITEMAP_MEMORY", integer=True),
        sitemap_url=_sitemap_url(config["MARMEON_SITEMAP_URL"]),
        sitemap_serve=parse_flag(
            "MARMEON_SITEMAP_SERVE", config["MARMEON_SITEMAP_SERVE"]
        ),
        og_images=parse_flag("MARMEON_OG_IMAGES", config["MARMEON_OG_IMAGES"]),
        og_image_colors=read_colors(config["MARMEON_OG_IMAGE_COLORS"]),
        og_image_logo=read_logo(config["MARMEON_OG_IMAGE_LOGO"]),
        og_image_fonts=read_fonts(config["MARMEON_OG_IMAGE_FONTS"]),
        og_image_draw=read_draw(config["MARMEON_OG_IMAGE_DRAW"]),
        og_images_shared=parse_flag(
            "MARMEON_OG_IMAGES_SHARED", config["MARMEON_OG_IMAGES_SHARED"]
        ),
        og_images_memory=read_memory(config["MARMEON_OG_IMAGES_MEMORY"]),
    )


def _sitemap_url(value: Any) -> str | None:
    """MARMEON_SITEMAP_URL: None, or an absolute http(s) address."""
    if value is None:
        return None
    if not isinstance(value, str):
        raise TypeError(
            "MARMEON_SITEMAP_URL must be the sitemap's address as a string, such"
            f" as 'https://cdn.example/sitemaps/sitemap.xml', not {value!r}."
        )
    url = web_url(value.strip())
    if url is None:
        raise ValueError(
            f"MARMEON_SITEMAP_URL {value!r} is not an http or https address with"
            " a host: give the address of the sitemap's index, such as"
            " 'https://cdn.example/sitemaps/sitemap.xml'."
        )
    return str(url.href)


def _prefix(value: Any) -> str | None:
    """MARMEON_CACHE_PREFIX: None, or a non-empty text."""
    if value is None:
        return None
    if not isinstance(value, str) or not value.strip():
        raise TypeError(
            "MARMEON_CACHE_PREFIX must be a non-empty string that names the app"
            f" in the shared cache's keys, such as 'shop-production', not {value!r}."
        )
    return value


def _rules(value: Any) -> Any:
    """MARMEON_ROBOTS_RULES, copied so that the app's list can change no
    more; what is wrong with it is an H10 problem, said with the others."""
    if isinstance(value, list | tuple):
        return tuple(copy.deepcopy(list(value)))
    return value


def web_url(text: str) -> ada_url.URL | None:
    """``text`` parsed as the browser does, when it is an http or https
    address with a host; else None."""
    try:
        url = ada_url.URL(text)
    except ValueError:
        return None
    if url.protocol not in ("http:", "https:") or not url.hostname:
        return None
    return url


def origin_host(origin: str) -> str:
    """The host (and port) of an origin :func:`parse_app_url` gave, as a
    URL map matches hosts: ``"https://notes.example:8443"`` ->
    ``"notes.example:8443"``."""
    url = web_url(origin)
    return str(url.host) if url is not None else ""


def own_host(url_map: Map, origin: str | None) -> str:
    """The host to match the app's own addresses on, from configuration
    (never the request's): APP_URL's in an app that matches hosts (a rule
    without a host would answer none), else any."""
    if url_map.host_matching and origin:
        return origin_host(origin)
    return "localhost"


def environ() -> Mapping[str, str]:
    """The process environment, read in one place so tests can reason about it."""
    return os.environ
