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
from collections.abc import Callable, Sequence

from markupsafe import escape

from .builder import Missing
from .elements import JSON_LD, Slot
from .resolve import ResolvedHead
from .speedups import escape_text as escape_text
from .table import ALL_SLOTS

#: markupsafe's escape of a str as a str (speedups.py: the probed C function
#: or its plain twin); kept equal to markupsafe.escape by the tests.
_escape_str: Callable[[str], str] = escape_text

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


#: A plain dict, read only: the interpreter specializes a dict's [] (a
#: mappingproxy's goes the generic way, once per element of every head).
_PIECES: dict[Slot, tuple[str, str, str]] = {slot: _pieces(slot) for slot in ALL_SLOTS}
#: A JSON-LD block, before the nonce attribute. Turbo moves an element with
#: data-turbo-eval="false" rather than re-creating it by setting its text
#: (which Trusted Types refuses).
_JSON_LD_OPEN = (
    f'\n<script type="application/ld+json" {MANAGED} data-turbo-eval="false"'
)


def _extras(slot: Slot, values: tuple[str | None, ...]) -> str:
    """`` name="value"`` for each of ``slot.extras`` that has a value."""
    return "".join(
        f' {name}="{_escape_str(value)}"'
        for name, value in zip(slot.extras, values, strict=True)
        if value is not None
    )


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
    # Safe inside <script>: ASCII only (nothing an HTML parser reports as
    # an error), every "<" as \u003c.
    data = json.dumps({"v": VERSION, "missing": items}, separators=(",", ":"))
    return data.replace("<", "\\u003c")


def nonce_attribute(nonce: str | None) -> str:
    """`` nonce="..."``, or "" without a nonce."""
    return "" if nonce is None else f' nonce="{escape_text(nonce)}"'


def write_head(
    head: ResolvedHead,
    *,
    app_url: str | None,
    nonce_attr: str,
    module_src: str | None,
    dev: bool,
) -> str:
    """The whole head as HTML (see the module's docstring).

    ``nonce_attr`` is :func:`nonce_attribute`'s, written on every script;
    ``module_src`` the browser module's path, None for no module; ``dev``
    marks it ``data-marmeon-dev`` so that it warns.
    """
    out: list[str] = []
    if app_url is not None:
        out.append(f'\n<meta name="marmeon:app-url" content="{escape_text(app_url)}">')
    escape = _escape_str
    pieces = _PIECES
    append = out.append
    for slot, value, extra in head.elements:
        if slot is JSON_LD:
            append(f"{_JSON_LD_OPEN}{nonce_attr}>{value}</script>")
            continue
        before, between, after = pieces[slot]
        if extra is None:
            append(f"{before}{escape(value)}{after}")
        elif isinstance(extra, tuple):
            # Optional attributes after the value (an icon's sizes): few.
            append(f'{before}{escape(value)}"{_extras(slot, extra)} {MANAGED}>')
        else:
            append(f"{before}{escape(extra)}{between}{escape(value)}{after}")
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
            f'\n<script type="module" src="{escape_text(module_src)}"'
            f"{nonce_attr}{dev_attr}></script>"
        )
    return "".join(out)[1:]
