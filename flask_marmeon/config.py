"""Read APP_URL, APP_LOCALES and the MARMEON_* keys once, into frozen Settings."""

from __future__ import annotations

import copy
import hashlib
import os
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

import ada_url

from .config_images import (
    Colors,
    read_colors,
    read_fonts,
    read_memory,
)
from .errors import StartupError
from .locale_tags import LocaleTags, hyphenated

if TYPE_CHECKING:
    from werkzeug.routing import Map

#: What reads a MARMEON_* key: its name and value in, its Settings value out.
Reader = Callable[[str, Any], Any]

# BCP 47 in the shape apps use: a primary language subtag, then script,
# region, variant or extension subtags. Enough to refuse typos such as "en_US"
# or "en-" without pretending to validate against the IANA registry.
_BCP47 = re.compile(r"^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{1,8})*$|^[A-Za-z]{4,8}$")


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


def _as_given(key: str, value: Any) -> Any:
    return value


def _truth(key: str, value: Any) -> bool:
    return bool(value)


def _number(key: str, value: Any, *, integer: bool = False) -> Any:
    ok = isinstance(value, int) or (not integer and isinstance(value, float))
    if isinstance(value, bool) or not ok or value < 0:
        kind = "a whole number" if integer else "a number of seconds"
        raise ValueError(f"{key} must be {kind} of at least 0, not {value!r}.")
    return value


_whole = partial(_number, integer=True)


def _max_urls(key: str, value: Any) -> Any:
    # 50 000 URLs is the limit of the sitemap format.
    if not 1 <= _whole(key, value) <= 50_000:
        raise ValueError(
            f"{key} must be from 1 to 50000 (the sitemap format's limit), not {value}."
        )
    return value


def _optional(what: str, *kinds: Any) -> Reader:
    """A key that is None or of one of ``kinds`` (classes, ABCs such as
    Callable), else TypeError."""

    def read(key: str, value: Any) -> Any:
        if value is not None and not isinstance(value, kinds):
            raise TypeError(f"{key} must be {what}, not {value!r}.")
        return value

    return read


def _prefix(key: str, value: Any) -> str | None:
    if value is not None and not (isinstance(value, str) and value.strip()):
        raise TypeError(
            f"{key} must be a non-empty string that names the app in the shared"
            f" cache's keys, such as 'shop-production', not {value!r}."
        )
    return value


def _sitemap_url(key: str, value: Any) -> str | None:
    """MARMEON_SITEMAP_URL: None, or an absolute http(s) address."""
    if value is None:
        return None
    if not isinstance(value, str):
        raise TypeError(
            f"{key} must be the sitemap's address as a string, such as {_CDN},"
            f" not {value!r}."
        )
    url = web_url(value.strip())
    if url is None:
        raise ValueError(
            f"{key} {value!r} is not an http or https address with a host:"
            f" give the address of the sitemap's index, such as {_CDN}."
        )
    return str(url.href)


def _rules(key: str, value: Any) -> Any:
    """MARMEON_ROBOTS_RULES, copied so that the app's list can change no
    more; what is wrong with it is an H10 problem, said with the others."""
    if isinstance(value, list | tuple):
        return tuple(copy.deepcopy(list(value)))
    return value


_CDN = "'https://cdn.example/sitemaps/sitemap.xml'"
_NONCE = "a function that takes no arguments and returns the response's nonce or None"
_DRAW = "a function that takes an OgImageCard and returns a 1200x630 PIL image"
_LOGO = "the path of an image in the static folder, such as 'img/logo.png'"

#: Each MARMEON_* key: its default (which :func:`apply_defaults` writes into
#: ``app.config`` so that users can see it) and what reads it into its
#: Settings field (the key without ``MARMEON_``, in lower case).
KEYS: dict[str, tuple[Any, Reader]] = {
    "MARMEON_SITEMAP_TTL": (300, _number),
    "MARMEON_SITEMAP_RETRY_AFTER": (30, _number),
    "MARMEON_SITEMAP_MAX_URLS": (50_000, _max_urls),
    "MARMEON_SITEMAP_INDEX": (False, _truth),
    "MARMEON_CSP_NONCE": (None, _optional(_NONCE, Callable)),
    "MARMEON_BROWSER_SCRIPT": (True, _truth),
    "MARMEON_SITEMAP_WAIT": (20, _number),
    "MARMEON_INDEXABLE": (True, parse_flag),
    # The robots rules and IndexNow keys are checked with the H10 checks.
    "MARMEON_ROBOTS_RULES": ([], _rules),
    "MARMEON_INDEXNOW_KEY": (None, _as_given),
    "MARMEON_INDEXNOW_ENDPOINT": ("https://api.indexnow.org/indexnow", _as_given),
    "MARMEON_DEFAULT_CANONICAL": (False, parse_flag),
    "MARMEON_CACHE_PREFIX": (None, _prefix),
    "MARMEON_SITEMAP_MEMORY": (64 * 1024 * 1024, _whole),
    "MARMEON_SITEMAP_URL": (None, _sitemap_url),
    "MARMEON_SITEMAP_SERVE": (True, parse_flag),
    "MARMEON_OG_IMAGES": (False, parse_flag),
    "MARMEON_OG_IMAGE_COLORS": ({}, read_colors),
    "MARMEON_OG_IMAGE_LOGO": (None, _optional(_LOGO, str, Path)),
    "MARMEON_OG_IMAGE_FONTS": ({}, read_fonts),
    "MARMEON_OG_IMAGE_DRAW": (None, _optional(_DRAW, Callable)),
    "MARMEON_OG_IMAGES_SHARED": (False, parse_flag),
    "MARMEON_OG_IMAGES_MEMORY": (32 * 1024 * 1024, read_memory),
}
#: The defaults alone.
DEFAULTS: dict[str, Any] = {key: default for key, (default, _) in KEYS.items()}


@dataclass(frozen=True)
class Settings:
    """The extension's configuration for one app, read once in ``init_app``
    (each MARMEON_* key's default is in :data:`KEYS`)."""

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
    root: str
    #: False for a staging or preview deployment that must never be indexed.
    indexable: bool
    #: Seconds a request waits for a sitemap when no file has been built yet.
    sitemap_wait: float
    #: MARMEON_ROBOTS_RULES as configured (a tuple when it is a list):
    #: robots.txt's groups per crawler, checked with the H10 checks
    #: (flask_marmeon.robots_txt.rules).
    robots_rules: Any
    #: MARMEON_INDEXNOW_KEY as configured (None: no key); checked with the
    #: H10 checks (flask_marmeon.indexnow.checks).
    indexnow_key: Any
    #: MARMEON_INDEXNOW_ENDPOINT as configured, checked likewise.
    indexnow_endpoint: Any
    #: Whether a page that sets no canonical gets its route's own address.
    default_canonical: bool
    #: What the shared cache's keys name (MARMEON_CACHE_PREFIX), or None:
    #: APP_URL, the mount path and the app's import name.
    cache_prefix: str | None
    #: Bytes of built parts a process keeps without a shared cache.
    sitemap_memory: int
    #: What robots.txt's Sitemap: line names (MARMEON_SITEMAP_URL: an
    #: export's index on a CDN), or None: the app's own /sitemap.xml.
    sitemap_url: str | None
    #: Whether the app serves its sitemap (MARMEON_SITEMAP_SERVE).
    sitemap_serve: bool
    #: MARMEON_OG_IMAGES: a generated image for every page that has none.
    og_images: bool
    og_image_colors: Colors
    #: MARMEON_OG_IMAGE_LOGO: a path in the static folder, or None.
    og_image_logo: str | Path | None
    #: MARMEON_OG_IMAGE_FONTS: (script, regular, bold) in the order given,
    #: each path under the app's root path.
    og_image_fonts: tuple[tuple[str, str | Path, str | Path], ...]
    #: MARMEON_OG_IMAGE_DRAW: the app's own drawing function, or None.
    og_image_draw: Callable[..., Any] | None
    #: MARMEON_OG_IMAGES_SHARED: keep drawn images in the shared
    #: sitemap_cache too (for a day).
    og_images_shared: bool
    #: MARMEON_OG_IMAGES_MEMORY: bytes of PNG a process keeps.
    og_images_memory: int

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


def load_settings(config: Mapping[str, Any]) -> Settings:
    """Validate the app's config (after :func:`apply_defaults`) into Settings."""
    return Settings(
        app_url=parse_app_url(config.get("APP_URL")),
        locales=parse_locales(config.get("APP_LOCALES")),
        root=parse_root(config.get("APPLICATION_ROOT")),
        **{
            key.removeprefix("MARMEON_").lower(): read(key, config[key])
            for key, (_, read) in KEYS.items()
        },
    )


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
