"""The head's HTML: every byte of it is written here.

Attribute values and the title are escaped (``& < > "``, the characters that
can end or change the meaning of a double-quoted attribute or of a title's
text); a script's text is JSON from :mod:`flask_marmeon.head.jsonld`, whose
every ``<`` is ``\\u003c`` already. Text was cleaned of what HTML cannot
carry when ``head()`` took it, so the output parses without a single error
in an HTML5 parser.

The constant parts of each element (tag, fixed attributes) are prepared once
at import, since the head is written on every request; the browser data
(:mod:`flask_marmeon.head.serialize`) is written in the same pass over the
elements, and the URL policy is applied in it too.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from json.encoder import encode_basestring
from types import MappingProxyType
from typing import TypeVar

from markupsafe import Markup

from . import serialize
from ._chars import escape_for_script, needs_script_escape
from .resolve import ALL_SLOTS, JSON_LD, Element, Slot

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


#: Per slot: whether its value is a URL, the HTML pieces (see _parts), then
#: the browser data's pieces (see serialize.PIECES).
_Pieces = tuple[bool, str, str, str, str, str, str, str]
_PIECES: Mapping[Slot, _Pieces] = MappingProxyType(
    {slot: (slot.is_url, *_parts(slot), *serialize.PIECES[slot]) for slot in ALL_SLOTS}
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


#: What the writer keeps of one element: its HTML (None for a URL that the
#: policy leaves out), its browser data, and its part in its group.
_Written = tuple["str | None", str, int]
#: The parts in a group: none, the URL, an element that goes with the URL.
_ALONE, _URL, _FOLLOWER = 0, 1, 2
#: What the writer keeps of a whole list of elements: the HTML, the browser
#: data (safe inside <script> already), and the (slot, raw URL) it left out.
_Written_all = tuple[str, str, tuple[tuple[Slot, str], ...]]
_K = TypeVar("_K")
_V = TypeVar("_V")
#: The elements kept per app, and the longest value kept (the memo's bound).
MEMO_SIZE = 1024
MEMO_TEXT = 512
#: The lists of elements kept per app, and the most text kept for one.
HEADS_SIZE = 256
HEADS_TEXT = 16_384


def _keep(memo: dict[_K, _V], seen: set[int], key: _K, value: _V, size: int) -> None:
    """Keep ``value`` at ``key`` if ``key`` was written before (its hash is in
    ``seen``): what is written once only (a page never visited again, a new
    note's title) takes no room and pushes nothing out. A full memo or
    ``seen`` starts again."""
    # Two keys of one hash only make one of them kept sooner: what is kept
    # is found by the key itself.
    code = hash(key)
    if code in seen:
        if len(memo) >= size:
            memo.clear()
        memo[key] = value
        return
    if len(seen) >= 4 * MEMO_SIZE:
        seen.clear()
    seen.add(code)


class HeadWriter:
    """Writes one app's heads: its URL policy, and memos of what it wrote.

    Most elements repeat from request to request (a layout's twitter:site,
    robots and image, a page's title on each visit), and so do whole heads
    (a page visited again), so what is written is kept, keyed on the
    elements themselves: each element's slot (one object per kind of tag),
    its value and extra as exact ``str`` (``head()`` makes them so) and its
    group number. What is written depends on nothing else but the app's
    policy, whose writer this is. A whole head is kept too, keyed on its
    elements, its JSON-LD texts, the nonce (a new one per request makes a
    new head), the module's path and the data's opening. Something is kept
    the second time it is written (see :func:`_keep`). Each memo starts
    again when full: at most ``MEMO_SIZE`` elements with values up to
    ``MEMO_TEXT`` characters, ``HEADS_SIZE`` lists whose HTML and data take
    up to ``HEADS_TEXT`` characters, and as many heads of up to twice that.
    """

    def __init__(self, policy: Callable[[str], str | None]) -> None:
        self.policy = policy
        self.memo: dict[Element, _Written] = {}
        self.heads: dict[tuple[Element, ...], _Written_all] = {}
        #: Whole heads, keyed on everything that goes into one (not in
        #: development, which warns on every page).
        self.pages: dict[tuple[object, ...], Markup] = {}
        #: The hashes of the keys written once: a key is kept the second time.
        self.seen: set[int] = set()

    def _write(self, element: Element) -> _Written:
        slot, value, group, extra = element
        is_url, before, between, after, j_before, j_between, j_close, j_group = _PIECES[
            slot
        ]
        # The browser data: the value raw, as a JSON string literal.
        piece = encode_basestring(value)
        if needs_script_escape(value):
            # What HTML reports as an error (a C1 control in a raw URL, say):
            # JSON itself escapes only the C0 controls.
            piece = escape_for_script(piece)
        if group is None:
            # The commonest element: no URL, no extra attribute (hreflang
            # links have a group), its value escaped here.
            if "&" in value or "<" in value or ">" in value or '"' in value:
                value = escape(value)
            return before + value + after, j_before + piece + j_close, _ALONE
        if extra is not None:
            piece = encode_basestring(extra) + j_between + piece
        data = f"{j_before}{piece}{j_group}{group}}}"
        if not is_url:
            return before + escape(value) + after, data, _FOLLOWER
        href = self.policy(value)
        if href is None:
            return None, data, _URL
        if extra is None:
            return before + escape(href) + after, data, _URL
        return before + escape(extra) + between + escape(href) + after, data, _URL

    def _write_all(self, elements: tuple[Element, ...]) -> _Written_all:
        memo = self.memo
        known = memo.get
        parts: list[str] = []
        append = parts.append
        items: list[str] = []
        item = items.append
        dropped: set[int | None] = set()
        left: list[tuple[Slot, str]] = []
        for element in elements:
            written = known(element)
            if written is None:
                written = self._write(element)
                if len(element[1]) <= MEMO_TEXT:
                    _keep(memo, self.seen, element, written, MEMO_SIZE)
            html, data, part = written
            item(data)
            if part:
                if part == _URL:
                    if html is None:
                        dropped.add(element[2])
                        left.append((element[0], element[1]))
                        continue
                elif element[2] in dropped:
                    continue
            append(html)  # type: ignore[arg-type]
        return "\n".join(parts), serialize.finish(",".join(items)), tuple(left)

    def render(
        self,
        elements: Iterable[Element],
        json_ld: Iterable[str] = (),
        *,
        head_meta: str,
        nonce: str | None,
        data_opening: str | None = None,
        module_src: str | None = None,
        left_out: Callable[[Slot, str], None] | None = None,
    ) -> Markup:
        """The whole head: APP_URL's meta, the elements, then the browser scripts.

        ``elements`` are the resolved head with raw URLs; ``json_ld`` the
        JSON-LD blocks' texts, which follow them. Each URL goes through the
        policy (the absolute URL to write, or None to leave it out with the
        rest of its group, telling ``left_out``); the browser data, when
        ``data_opening`` (:func:`serialize.opening`) and ``module_src`` are
        given, carries every element with its raw value.
        """
        key = tuple(elements)
        texts = tuple(json_ld)
        if left_out is not None or (nonce is not None and type(nonce) is not str):
            # Development warns for each URL left out, on every page; a
            # nonce of a str subclass is no key.
            return self._render(
                key, texts, head_meta, nonce, data_opening, module_src, left_out
            )
        page = (key, texts, nonce, head_meta, data_opening, module_src)
        pages = self.pages
        found = pages.get(page)
        if found is None:
            found = self._render(
                key, texts, head_meta, nonce, data_opening, module_src, None
            )
            if len(found) <= HEADS_TEXT * 2:
                _keep(pages, self.seen, page, found, HEADS_SIZE)
        return found

    def _render(
        self,
        key: tuple[Element, ...],
        json_ld: tuple[str, ...],
        head_meta: str,
        nonce: str | None,
        data_opening: str | None,
        module_src: str | None,
        left_out: Callable[[Slot, str], None] | None,
    ) -> Markup:
        heads = self.heads
        written = heads.get(key)
        if written is None:
            written = self._write_all(key)
            if len(written[0]) + len(written[1]) <= HEADS_TEXT:
                _keep(heads, self.seen, key, written, HEADS_SIZE)
        html, data, left = written
        if left_out is not None:
            for slot, raw in left:
                left_out(slot, raw)
        nonce_text = nonce_attr(nonce)
        parts = [head_meta] if head_meta else []
        if html:
            parts.append(html)
        items = [data] if data else []
        if json_ld:
            # The nonce goes on the script; the text is safe JSON already.
            script = f'<script type="application/ld+json"{nonce_text} {MANAGED}>'
            before, _, close, _ = serialize.PIECES[JSON_LD]
            for text in json_ld:
                piece = encode_basestring(text)
                if needs_script_escape(text):
                    piece = escape_for_script(piece)
                items.append(serialize.finish(before + piece + close))
                parts.append(script + text + "</script>")
        if data_opening is not None and module_src is not None:
            data = f"{data_opening}{','.join(items)}{serialize.CLOSING}"
            parts.append(browser_scripts(data, module_src, nonce_text))
        return Markup("\n".join(parts))
