"""The head's HTML: every byte of it is written here.

Attribute values and the title are escaped with markupsafe (``& < > " '``);
a JSON-LD block's text is JSON from :mod:`flask_marmeon.head.jsonld`, whose
every ``<`` is ``\\u003c`` already, and so is the browser data's. Text was
cleaned of what HTML cannot carry when ``head()`` took it, so the output
parses without a single error in an HTML5 parser.

The output (ARCHITECTURE.md, "The head's output"): APP_URL's meta, the
managed elements (each with ``data-marmeon``), the browser data only when
something was left out for the browser to resolve, then the module.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType

from markupsafe import Markup, escape

from .elements import ALL_SLOTS, JSON_LD, Element, Slot
from .resolve import Missing, ResolvedHead

#: The attribute that marks an element the browser module manages.
MANAGED = "data-marmeon"
#: The browser data's format version.
VERSION = 2


def _pieces(slot: Slot) -> tuple[str, str, str]:
    """(before the extra attribute or the value, between them, after the value),
    the first starting with the newline that separates elements."""
    fixed = "".join(f' {name}="{escape(value)}"' for name, value in slot.attrs)
    if slot.value_attr is None:
        return f"\n<{slot.tag}{fixed} {MANAGED}>", "", f"</{slot.tag}>"
    if slot.extra_attr is not None:
        return (
            f'\n<{slot.tag}{fixed} {slot.extra_attr}="',
            f'" {slot.value_attr}="',
            f'" {MANAGED}>',
        )
    return f'\n<{slot.tag}{fixed} {slot.value_attr}="', "", f'" {MANAGED}>'


_PIECES: Mapping[Slot, tuple[str, str, str]] = MappingProxyType(
    {slot: _pieces(slot) for slot in ALL_SLOTS}
)
#: A JSON-LD block, before the nonce attribute. Turbo moves an element with
#: data-turbo-eval="false" rather than re-creating it by setting its text
#: (which Trusted Types refuses).
_JSON_LD_OPEN = (
    f'\n<script type="application/ld+json" {MANAGED} data-turbo-eval="false"'
)


def escape_text(value: str) -> str:
    """markupsafe's escape of ``value``, as a plain ``str``.

    Most values (URLs, numbers, choices, plain words) hold none of the five
    characters it replaces: they are taken as they are, without the call and
    the Markup it makes.
    """
    if "&" in value or "<" in value or ">" in value or '"' in value or "'" in value:
        return str.__str__(escape(value))
    return value


def element_html(element: Element, nonce_attr: str = "") -> str:
    """One element's HTML, starting with the newline that separates elements."""
    slot, value, extra = element
    if slot is JSON_LD:
        return f"{_JSON_LD_OPEN}{nonce_attr}>{value}</script>"
    before, between, after = _PIECES[slot]
    if extra is None:
        return before + escape_text(value) + after
    return before + escape_text(extra) + between + escape_text(value) + after


class HtmlMemo:
    """:func:`element_html` with a memo: the one speed trick of the writer.

    Most elements repeat from request to request (a layout's, a page visited
    again), so their HTML is kept, keyed on the element (its slot, which is
    compared by identity, and its plain ``str`` values): at most ``size``
    elements with values of at most ``longest`` characters, the memo starting
    again when full. JSON-LD blocks, which carry the request's nonce, are
    written each time. ``tests/head/test_write.py`` keeps it equal to
    :func:`element_html`.
    """

    __slots__ = ("known", "longest", "size")

    def __init__(self, size: int = 4096, longest: int = 2048) -> None:
        self.size = size
        self.longest = longest
        self.known: dict[Element, str] = {}

    def __call__(self, element: Element, nonce_attr: str = "") -> str:
        """The element's HTML, as :func:`element_html` writes it."""
        known = self.known
        try:
            return known[element]
        except KeyError:
            pass
        html = element_html(element, nonce_attr)
        if element[0] is not JSON_LD and len(element[1]) <= self.longest:
            if len(known) >= self.size:
                known.clear()
            known[element] = html
        return html


def script_json(value: object) -> str:
    """``value`` as JSON that is safe inside ``<script>``: ASCII only (so
    nothing an HTML parser reports as an error), every ``<`` as ``\\u003c``."""
    return json.dumps(value, separators=(",", ":")).replace("<", "\\u003c")


def missing_data(missing: Sequence[Missing]) -> str:
    """The browser data's JSON: ``{"v":2,"missing":[ITEM,...]}``."""
    items = []
    for at, (slot, value, extra), group in missing:
        item: dict[str, object] = {
            "at": at,
            "tag": slot.tag,
            "attrs": slot.attributes(value, extra),
        }
        if slot.field is not None:
            item["url"] = slot.value_attr
        item["group"] = group
        items.append(item)
    return script_json({"v": VERSION, "missing": items})


def write_head(
    head: ResolvedHead,
    *,
    app_url: str | None,
    nonce: str | None,
    module_src: str | None,
    dev: bool,
    html: Callable[[Element, str], str] = element_html,
) -> Markup:
    """The whole head as HTML (see the module's docstring).

    ``module_src`` is the browser module's path, None for no module;
    ``dev`` marks it ``data-marmeon-dev`` so that it warns. ``html`` writes
    one element (an :class:`HtmlMemo` gives the same text, faster).
    """
    nonce_attr = "" if nonce is None else f' nonce="{escape(nonce)}"'
    out: list[str] = []
    if app_url is not None:
        out.append(f'\n<meta name="marmeon:app-url" content="{escape(app_url)}">')
    for element in head.elements:
        out.append(html(element, nonce_attr))
    if head.missing:
        out += (
            # data-turbo-eval="false", as on JSON-LD: Turbo copies a script
            # it has not seen by setting its text, which Trusted Types refuses.
            '\n<script type="application/json" data-marmeon-data'
            ' data-turbo-eval="false"',
            nonce_attr,
            ">",
            missing_data(head.missing),
            "</script>",
        )
    if module_src is not None:
        dev_attr = " data-marmeon-dev" if dev else ""
        out.append(
            f'\n<script type="module" src="{escape(module_src)}"'
            f"{nonce_attr}{dev_attr}></script>"
        )
    return Markup("".join(out)[1:])
