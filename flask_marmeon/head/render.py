"""The head's HTML: every byte of it is written here.

Attribute values and the title are escaped (``& < > "``, the characters that
can end or change the meaning of a double-quoted attribute or of a title's
text); a script's text is JSON from :mod:`flask_marmeon.head.jsonld`, whose
every ``<`` is ``\\u003c`` already. Text was cleaned of what HTML cannot
carry when ``head()`` took it, so the output parses without a single error
in an HTML5 parser.

The constant parts of each element (tag, fixed attributes) are prepared once
at import, since the head is written on every request.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from types import MappingProxyType

from markupsafe import Markup

from .resolve import ALL_SLOTS, JSON_LD, TITLE, Element, Slot

#: The attribute that marks an element the browser module manages.
MANAGED = "data-marmeon"


def escape(value: str) -> str:
    """Escape ``value`` for a double-quoted attribute or a title's text."""
    if "&" in value:
        value = value.replace("&", "&amp;")
    if "<" in value:
        value = value.replace("<", "&lt;")
    if ">" in value:
        value = value.replace(">", "&gt;")
    if '"' in value:
        value = value.replace('"', "&#34;")
    return value


def _parts(slot: Slot) -> tuple[str, str, str]:
    """(before the extra attribute or the value, between them, after the value)."""
    fixed = "".join(f' {name}="{escape(value)}"' for name, value in slot.attrs)
    if slot.value_attr is None:
        return f"<{slot.tag}{fixed} {MANAGED}>", "", f"</{slot.tag}>"
    if slot.extra_attr is not None:
        return (
            f'<{slot.tag}{fixed} {slot.extra_attr}="',
            f'" {slot.value_attr}="',
            f'" {MANAGED}>',
        )
    return f'<{slot.tag}{fixed} {slot.value_attr}="', "", f'" {MANAGED}>'


_HTML: Mapping[Slot, tuple[str, str, str]] = MappingProxyType(
    {slot: _parts(slot) for slot in ALL_SLOTS}
)


def app_url_meta(origin: str | None) -> str:
    """``<meta name="marmeon:app-url">`` for the browser, "" without APP_URL."""
    if origin is None:
        return ""
    return f'<meta name="marmeon:app-url" content="{escape(origin)}">'


def nonce_attr(nonce: str | None) -> str:
    """`` nonce="..."`` or "" when there is no nonce."""
    return "" if nonce is None else f' nonce="{escape(nonce)}"'


def browser_scripts(data: str, module_src: str, nonce: str) -> str:
    """The data script and the module, both with the nonce attribute text."""
    return (
        '<script type="application/json" id="marmeon-head" data-marmeon-data'
        f"{nonce}>{data}</script>\n"
        f'<script type="module" src="{escape(module_src)}"{nonce}></script>'
    )


def render(
    elements: Iterable[Element],
    *,
    head_meta: str,
    nonce: str | None,
    data: str | None = None,
    module_src: str | None = None,
) -> Markup:
    """The whole head: APP_URL's meta, the elements, then the browser scripts.

    ``elements`` carry their final URLs (the policy has run) and JSON-LD
    texts; ``data`` is the browser data's JSON, or None to leave the scripts
    out.
    """
    nonce_text = nonce_attr(nonce)
    html = _HTML
    parts = [head_meta] if head_meta else []
    append = parts.append
    for slot, value, _group, extra in elements:
        before, between, after = html[slot]
        if slot is JSON_LD:
            # The nonce goes on the script; the text is safe JSON already.
            append(
                f'<script type="application/ld+json"{nonce_text} {MANAGED}>'
                + value
                + after
            )
        elif slot is TITLE or extra is None:
            append(before + escape(value) + after)
        else:
            append(before + escape(extra) + between + escape(value) + after)
    if data is not None and module_src is not None:
        append(browser_scripts(data, module_src, nonce_text))
    return Markup("\n".join(parts))
