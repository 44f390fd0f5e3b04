"""The head's HTML: every byte of it is written here.

Attribute values and the title are escaped with ``markupsafe.escape`` (which
escapes ``& < > " '``); a script's text is JSON from
:mod:`flask_marmeon.head.jsonld`, whose every ``<`` is ``\\u003c`` already.
Text was cleaned of what HTML cannot carry when ``head()`` took it, so the
output parses without a single error in an HTML5 parser.
"""

from __future__ import annotations

from collections.abc import Iterable

from markupsafe import Markup, escape

from .resolve import Element

#: The attribute that marks an element the browser module manages.
MANAGED = "data-marmeon"


def app_url_meta(origin: str | None) -> str:
    """``<meta name="marmeon:app-url">`` for the browser, "" without APP_URL."""
    if origin is None:
        return ""
    return f'<meta name="marmeon:app-url" content="{escape(origin)}">'


def nonce_attr(nonce: str | None) -> str:
    """`` nonce="..."`` or "" when there is no nonce."""
    return "" if nonce is None else f' nonce="{escape(nonce)}"'


def element_html(element: Element, nonce: str) -> str:
    """One managed element; ``nonce`` is the ready attribute text or ""."""
    tag = element.tag
    attrs = "".join(f' {name}="{escape(value)}"' for name, value in element.attrs)
    if tag == "title":
        return f"<title {MANAGED}>{escape(element.text)}</title>"
    if tag == "script":
        return f"<script{attrs}{nonce} {MANAGED}>{element.text}</script>"
    return f"<{tag}{attrs} {MANAGED}>"


def browser_scripts(data: str, module_src: str, nonce: str) -> str:
    """The data script and the module, both with the nonce attribute text."""
    return (
        f'<script type="application/json" id="marmeon-head" data-marmeon-data{nonce}>'
        f"{data}</script>"
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

    ``elements`` carry their final URLs (the policy has run); ``data`` is the
    browser data's JSON, or None to leave the scripts out.
    """
    nonce_text = nonce_attr(nonce)
    parts = [head_meta]
    parts.extend(element_html(element, nonce_text) for element in elements)
    if data is not None and module_src is not None:
        parts.append(browser_scripts(data, module_src, nonce_text))
    return Markup("\n".join(part for part in parts if part))
