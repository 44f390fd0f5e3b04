"""Generated images for one app: each page's image address (signed, made once
per texts) and the PNG drawn for it.

The fonts and the logo are loaded at the first address or image (a CJK
font's characters take a moment to read), once per app and process.
"""

from __future__ import annotations

import hashlib
import io
import unicodedata
from typing import TYPE_CHECKING, Any

from .._log import logger, warn_once
from .address import MAX_ADDRESS, Texts, etag_of, fitted_path, serializer, token_of
from .canvas import OgImageCard
from .settings import Look
from .state import Loaded, OgImagesState

if TYPE_CHECKING:
    from itsdangerous import URLSafeSerializer
    from PIL import Image

#: Addresses remembered per app (then it starts again): a page's address is
#: made once, not at every request.
ADDRESSES_SIZE = 4096
#: Raise it when the default card's drawing changes: a new address for all.
DRAWING = "1"


def signer_of(
    og: OgImagesState, secret_key: Any, fallbacks: Any = ()
) -> URLSafeSerializer | None:
    """The signer for the app's SECRET_KEY (and SECRET_KEY_FALLBACKS, which
    it still reads); None without a key."""
    if not secret_key:
        return None
    return serializer(secret_key, og.scope, [key for key in fallbacks or () if key])


def _logo(look: Look) -> Image.Image | None:
    from PIL import Image

    if look.logo is None:
        return None
    with Image.open(look.logo) as image:
        logo: Image.Image = image.convert("RGBA")
    from .draw import LOGO_HEIGHT

    width = max(1, round(logo.width * LOGO_HEIGHT / logo.height))
    return logo.resize(
        (min(width, 4 * LOGO_HEIGHT), LOGO_HEIGHT), Image.Resampling.LANCZOS
    )


def loaded(og: OgImagesState) -> Loaded:
    """The fonts, logo and digest, loaded once (the start-up check has named
    any file that cannot be read)."""
    if og.loaded is not None:
        return og.loaded
    with og.lock:
        if og.loaded is None:
            og.loaded = _load(og.look)
        return og.loaded


def _load(look: Look) -> Loaded:
    import inspect

    import PIL

    from .fonts import Fonts, file_digest, raqm_available

    raqm = raqm_available()
    fonts = Fonts.load(look.fonts, raqm)
    digest = hashlib.sha256()
    for part in (DRAWING, PIL.__version__, str(raqm), repr(look.colors), fonts.digest):
        digest.update(part.encode() + b"\0")
    if look.logo is not None:
        digest.update(file_digest(look.logo))
    if look.draw is not None:
        try:
            source = inspect.getsource(look.draw)
        except (OSError, TypeError):
            source = getattr(look.draw, "__qualname__", repr(type(look.draw)))
        digest.update(source.encode())
    return Loaded(fonts, _logo(look), digest.hexdigest()[:12])


def texts_for(og: OgImagesState, texts: Texts, page_path: str) -> Texts | None:
    """The texts cut to what the default card draws; characters that no
    font has are left out, and named in a warning (once each). None when
    a letter or digit of the title has no font: a card is never drawn with
    its title missing (the page gets no generated image, and the warning
    says why)."""
    from .draw import lay_out

    layouts = lay_out(texts, loaded(og).fonts)
    # A letter or a digit left out of the title makes it unreadable (an
    # emoji or a symbol left out does not).
    unreadable = any(unicodedata.category(c)[0] in "LN" for c in layouts.title.missing)
    if og.look.draw is None and unreadable:
        _warn(
            "og-images.no-title",
            layouts.title.missing,
            "The page %s gets no generated image: no font draws its title's %s,"
            " among the package's fonts, MARMEON_OG_IMAGE_FONTS and the"
            " machine's fonts. Install fonts for the script (Debian:"
            " fonts-noto-core, fonts-noto-cjk) or give one in"
            " MARMEON_OG_IMAGE_FONTS (see the docs' generated images page).",
            page_path,
        )
        return None
    missing = layouts.title.missing + layouts.description.missing + layouts.site.missing
    if missing:
        _warn(
            "og-images.missing",
            missing,
            "A generated image leaves out %s: no font has them. Give a font for"
            " their script in MARMEON_OG_IMAGE_FONTS (see the docs' generated"
            " images page).",
        )
    return Texts(
        layouts.title.text, layouts.description.text, layouts.site.text, texts.square
    )


def _warn(kind: str, missing: str, message: str, *args: object) -> None:
    """Warn once per kind and first character left out (a bounded memo,
    whatever texts a crawler walks through), naming the characters last."""
    from flask import current_app

    from .._state import get_state

    named = list(dict.fromkeys(missing))
    chars = ", ".join(f"{c!r} (U+{ord(c[0]):04X})" for c in named[:8])
    if len(named) > 8:
        chars += f" and {len(named) - 8} more"
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    warn_once(get_state(app), (kind, missing[:1]), message, *args, chars)


def image_path(
    og: OgImagesState,
    secret_key: Any,
    texts: tuple[str, str, str],
    *,
    page_path: str,
    square: bool = False,
) -> str | None:
    """The image's path below the mount path, made once per texts; None when
    the app's drawing function fails for them (logged with the page's path:
    the page keeps no image rather than a broken one)."""
    # Keyed by the texts' digest: the memo keeps no page's whole texts (a
    # 100 KB description), only the cut ones in the addresses it holds.
    digest = hashlib.blake2b(repr(texts).encode(), digest_size=16).digest()
    key = (digest, secret_key, square)
    known = og.addresses.get(key, False)
    if known is not False:
        return known  # type: ignore[return-value]
    signer = signer_of(og, secret_key)
    if signer is None:
        raise ValueError(
            "A generated image (OgImage) needs the app's SECRET_KEY, which signs"
            " its address: set app.config['SECRET_KEY']."
        )
    cut = texts_for(og, Texts(*texts, square), page_path)
    path = None if cut is None else _drawable_path(og, signer, cut, page_path)
    if len(og.addresses) >= ADDRESSES_SIZE:
        og.addresses.clear()
    og.addresses[key] = path
    return path


def _drawable_path(
    og: OgImagesState, signer: URLSafeSerializer, cut: Texts, page_path: str
) -> str | None:
    """The address of ``cut`` (cut further when it would be too long); None
    when the app's drawing function fails."""
    digest = loaded(og).digest
    fitted = fitted_path(signer, cut, digest, MAX_ADDRESS - len(og.scope))
    if fitted is None:
        return None
    cut, path = fitted
    if og.look.draw is None:
        return path
    # The app's function runs now, so that a page never names an image that
    # cannot be drawn; the image is kept for its first request.
    token = token_of(path) or ""
    try:
        og.store.get(etag_of(token, digest), lambda: render_png(og, cut))
    except Exception:
        logger.exception(
            "MARMEON_OG_IMAGE_DRAW failed for the page %s; the page names"
            " no generated image.",
            page_path,
        )
        return None
    return path


def render_png(og: OgImagesState, texts: Texts) -> bytes:
    """Draw the image for ``texts`` and encode it as PNG."""
    from PIL import Image

    from .draw import SQUARE, WIDE, draw_card, lay_out

    parts = loaded(og)
    look = og.look
    if look.draw is not None:
        frame = SQUARE if texts.square else WIDE
        card = OgImageCard(
            texts.title,
            texts.description,
            texts.site,
            look.colors,
            parts.logo.copy() if parts.logo is not None else None,
            frame.width,
            frame.height,
        )
        image = look.draw(card)
        size = (frame.width, frame.height)
        if not isinstance(image, Image.Image) or image.size != size:
            raise TypeError(
                f"MARMEON_OG_IMAGE_DRAW returned {image!r}; it must return a"
                f" {frame.width}x{frame.height} PIL image (the card's width"
                " and height)."
            )
        if image.mode not in ("RGB", "RGBA", "P", "L"):
            image = image.convert("RGB")
    else:
        layouts = lay_out(texts, parts.fonts)
        image = draw_card(layouts, parts.fonts, look.colors, parts.logo)
    out = io.BytesIO()
    # The fastest zlib level: a quarter of the time of the default for a few
    # kilobytes more (flat colors compress well at any level).
    image.save(out, "PNG", compress_level=1)
    return out.getvalue()
