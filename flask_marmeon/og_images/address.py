"""The images' addresses: what is drawn, signed with the app's SECRET_KEY.

``/marmeon-og/<token>.png`` below the mount path (outside ``/_marmeon/``,
which robots.txt disallows, since a link preview's fetcher obeys it). The
token is itsdangerous' URL-safe signed form (Flask signs its session the
same way) of ``[format, look digest, title, description, site name]``
(and ``"square"`` for the square card of a Twitter ``summary``), the
texts cut to what is drawn; zlib-compressed when that is shorter. The salt
names APP_URL's origin and the mount path: the address is the app's own. So any
process that has the key can draw an image from its address alone, and an
address the app did not write fails the signature: 404, nothing drawn.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from itsdangerous import URLSafeSerializer

PREFIX = "/marmeon-og/"
#: The token's characters (URL-safe base64 and the separator), bounded so
#: that a long made-up address costs no more than a regular expression.
_PATH = re.compile(r"/marmeon-og/([A-Za-z0-9_\-.]{8,4000})\.png")
_SALT = "flask_marmeon.og-image"
#: The payload's last item for a square card.
_SQUARE = "square"
#: Raise it when the payload's shape changes.
FORMAT = 1


@dataclass(frozen=True)
class Texts:
    """What an image draws, cut to what is drawn."""

    title: str
    description: str
    site: str
    #: The square 630x630 card (a Twitter ``summary``), not the wide one.
    square: bool = False


def serializer(
    secret_key: str | bytes,
    scope: str = "",
    fallbacks: Sequence[str | bytes] = (),
) -> URLSafeSerializer:
    """The signer of the app's image addresses.

    ``scope`` (APP_URL's origin and the mount path) is part of what is
    signed, so another app with the same key, or the app under another
    mount path, finds no address of this one valid. It signs with
    ``secret_key`` and still reads what a key of ``fallbacks``
    (``SECRET_KEY_FALLBACKS``) signed, as Flask's session does.
    """
    keys = [k.encode() if isinstance(k, str) else k for k in (*fallbacks, secret_key)]
    return URLSafeSerializer(keys, salt=f"{_SALT}\0{scope}")


def path_for(signer: URLSafeSerializer, texts: Texts, digest: str) -> str:
    """The image's path below the mount path."""
    payload = [FORMAT, digest, texts.title, texts.description, texts.site]
    token = signer.dumps(payload + ([_SQUARE] if texts.square else []))
    return f"{PREFIX}{token}.png"


#: The longest absolute address the head writes: under what crawlers,
#: proxies and servers take (gunicorn refuses a request line over 4,094).
MAX_ADDRESS = 2000
_ELLIPSIS = "\u2026"


def fitted_path(
    signer: URLSafeSerializer, texts: Texts, digest: str, max_length: int
) -> tuple[Texts, str] | None:
    """The texts cut further until their path is shorter than ``max_length``
    characters (the longest text loses a third of its clusters each time,
    ending with an ellipsis), and that path; None when even no text does
    not fit."""
    for _ in range(16):
        path = path_for(signer, texts, digest)
        if len(path) < max_length:
            return texts, path
        texts = _shorter(texts)
    return None


def _shorter(texts: Texts) -> Texts:
    from .clusters import clusters

    name = max(("description", "title", "site"), key=lambda n: len(getattr(texts, n)))
    parts = clusters(getattr(texts, name).removesuffix(_ELLIPSIS))
    kept = "".join(parts[: len(parts) * 2 // 3]).rstrip()
    shorter: dict[str, Any] = {name: kept + _ELLIPSIS if kept else ""}
    return replace(texts, **shorter)


def token_of(path: str) -> str | None:
    """The token of an image path (WSGI's PATH_INFO), None for another path."""
    match = _PATH.fullmatch(path)
    return match.group(1) if match else None


def texts_of(signer: URLSafeSerializer, token: str) -> Texts | None:
    """The texts a token carries, None unless the app signed it."""
    read = payload_of(signer, token)
    return read[1] if read is not None else None


def payload_of(signer: URLSafeSerializer, token: str) -> tuple[str, Texts] | None:
    """The look's digest and the texts a token carries, None unless the
    app signed it."""
    try:
        payload = signer.loads(token)
    except Exception:  # noqa: BLE001 - forged, or signed and undecodable
        return None
    if (
        not isinstance(payload, list)
        or len(payload) not in (5, 6)
        or payload[0] != FORMAT
        or not all(isinstance(item, str) for item in payload[1:])
        or payload[5:] not in ([], [_SQUARE])
    ):
        return None
    return payload[1], Texts(payload[2], payload[3], payload[4], len(payload) == 6)


def etag_of(token: str, digest: str) -> str:
    """The image's entity tag: its address and the look it is drawn with."""
    return hashlib.sha256(f"{token}\0{digest}".encode()).hexdigest()[:32]
