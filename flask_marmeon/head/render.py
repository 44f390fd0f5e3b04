"""The head's HTML: every byte of it is written here.

Attribute values and the title are escaped (``& < > "``, the characters that
can end or change the meaning of a double-quoted attribute or of a title's
text); a script's text is JSON from :mod:`flask_marmeon.head.jsonld`, whose
every ``<`` is ``\\u003c`` already. Text was cleaned of what HTML cannot
carry when ``head()`` took it, so the output parses without a single error
in an HTML5 parser.

The constant parts of each element (tag, fixed attributes) are prepared once
at import, and those of each list of elements (a layout) once per app, since
the head is written on every request; the browser data
(:mod:`flask_marmeon.head.serialize`) is written with the HTML, from the
same values, and the URL policy is applied there too.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from functools import partial
from json.encoder import encode_basestring
from types import MappingProxyType

from markupsafe import Markup

from . import serialize
from ._chars import escape_for_script, needs_script_escape
from .resolve import ALL_SLOTS, JSON_LD, Place, Slot
from .urls import PLAIN_PATH_CHARS

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


#: The parts of a group: none, the URL, an element that goes with the URL.
_ALONE, _URL, _FOLLOWER = 0, 1, 2
#: Between the values when they are escaped and written as JSON together:
#: DEL, which neither the HTML escape nor JSON changes, and which text that
#: head() cleaned never holds (a raw URL may: the values are then taken one
#: by one).
_SEP = "\x7f"
#: The heads kept per app, the most text kept for one, and how many hashes
#: of heads written once are remembered (see HeadWriter.render).
PAGES_SIZE = 256
PAGE_TEXT = 32_768
SEEN_SIZE = 4096
#: The layouts kept per app (see _Layout).
LAYOUTS_SIZE = 256
#: A Markup of a str that is known to be the HTML: the same as Markup(text)
#: without the check for __html__, a call the head would make per request.
_markup: Callable[[str], Markup] = partial(str.__new__, Markup)


class _Layout:
    """What a list of elements is written as, but for their values.

    It depends on the elements' places only (see
    :mod:`flask_marmeon.head.resolve`), so the pages of one kind share it
    whatever their values: each is then written with a few calls for the
    whole list (see :meth:`HeadWriter._write_all`) rather than a few per
    element.
    """

    __slots__ = ("data", "html", "parts", "urls")

    def __init__(self, places: tuple[Place, ...]) -> None:
        #: The HTML and the browser data with a place for each value: the
        #: constant text at even positions, the values go at odd ones. The
        #: data's constant text is safe inside <script> (serialize.finish).
        self.html: list[str] = []
        self.data: list[str] = []
        #: Per element, for a head whose URLs the policy leaves out some of:
        #: its slot, the HTML before and after its value, its part in its
        #: group and its group.
        self.parts: list[tuple[Slot, str, str, int, int | None]] = []
        #: The positions of the URLs, for the policy to decide on.
        self.urls: list[int] = []
        html_after = data_after = ""
        for i, place in enumerate(places):
            if isinstance(place, Slot):
                slot, group, extra = place, None, None
            else:
                slot, group, extra = place
            is_url, before, between, after, j_before, j_between, j_close, j_group = (
                _PIECES[slot]
            )
            if group is None:
                part = _ALONE
                j_after = '"' + j_close
            else:
                part = _URL if is_url else _FOLLOWER
                if extra is not None:
                    j_before += serialize.finish(encode_basestring(extra)) + j_between
                    if is_url:
                        before += escape(extra) + between
                j_after = f'"{j_group}{group}}}'
            if is_url:
                self.urls.append(i)
            self.html += (html_after + ("\n" if i else "") + before, "")
            self.data += (data_after + ("," if i else "") + j_before + '"', "")
            self.parts.append((slot, before, after, part, group))
            html_after, data_after = after, j_after
        self.html.append(html_after)
        self.data.append(data_after)


class HeadWriter:
    """Writes one app's heads: its URL policy, and a memo of what it wrote.

    Most heads repeat from request to request (a page visited again), so each
    is kept whole, keyed on everything that goes into it: its elements' places
    and values (exact ``str``, which ``head()`` makes them), its JSON-LD texts,
    the module's path and the data's opening; not the nonce, which goes in
    where the kept head is cut (a new nonce per request finds the head
    kept). A head is kept the second time it is written (the hashes of those
    written once are remembered, up to ``SEEN_SIZE``), so that pages never
    visited again take no room; at most ``PAGES_SIZE`` heads of up to
    ``PAGE_TEXT`` characters, and the memo starts again when full. A head
    written for the first time is written from its layout (see
    :class:`_Layout`), also kept, at most ``LAYOUTS_SIZE`` of them.

    ``origin`` is the policy's origin (APP_URL's): a plain path
    (:func:`~flask_marmeon.head.urls.is_plain_path`) is written as origin +
    path without asking the policy, which answers the same.
    """

    def __init__(
        self, policy: Callable[[str], str | None], origin: str | None = None
    ) -> None:
        self.policy = policy
        self.origin = origin
        self.html_origin = escape(origin or "")
        #: Whole heads by their key's hash: the key, the Markup without a
        #: nonce, and its text cut where the nonce attribute goes.
        self.pages: dict[int, tuple[tuple[object, ...], Markup, tuple[str, ...]]] = {}
        #: The hashes of the heads written once: a head is kept the second time.
        self.seen: set[int] = set()
        self.layouts: dict[tuple[Place, ...], _Layout] = {}

    def render(
        self,
        places: Iterable[Place],
        values: Iterable[str],
        json_ld: Iterable[str] = (),
        *,
        head_meta: str,
        nonce: str | None,
        data_opening: str | None = None,
        module_src: str | None = None,
        left_out: Callable[[Slot, str], None] | None = None,
    ) -> Markup:
        """The whole head: APP_URL's meta, the elements, then the browser scripts.

        ``places`` and ``values`` are the resolved head (see
        :func:`~flask_marmeon.head.resolve.resolve`) with raw URLs, its other
        values text as ``head()`` cleaned it (see :meth:`_write_all`);
        ``json_ld`` the JSON-LD blocks' texts as :func:`jsonld.dumps` writes
        them, which follow them. Each URL goes through the policy (the
        absolute URL to write, or None to leave it out with the rest of its
        group, telling ``left_out``); the browser data, when ``data_opening``
        (:func:`serialize.opening`) and ``module_src`` are given, carries
        every element with its raw value.
        """
        page = (
            tuple(places),
            tuple(values),
            tuple(json_ld),
            head_meta,
            data_opening,
            module_src,
        )
        if left_out is not None:
            # Development warns for each URL left out, on every page.
            pieces, left = self._page(*page)
            for slot, raw in left:
                left_out(slot, raw)
            return _markup(nonce_attr(nonce).join(pieces))
        # The key's hash is taken once: it finds a kept head, and it is what
        # is remembered of a head written once.
        code = hash(page)
        found = self.pages.get(code)
        if found is None or found[0] != page:
            pieces = self._page(*page)[0]
            found = (page, _markup("".join(pieces)), pieces)
            if len(found[1]) <= PAGE_TEXT:
                seen = self.seen
                if code in seen:
                    if len(self.pages) >= PAGES_SIZE:
                        self.pages.clear()
                    self.pages[code] = found
                else:
                    if len(seen) >= SEEN_SIZE:
                        seen.clear()
                    seen.add(code)
        if nonce is None:
            return found[1]
        return _markup(nonce_attr(nonce).join(found[2]))

    def _page(
        self,
        places: tuple[Place, ...],
        values: tuple[str, ...],
        json_ld: tuple[str, ...],
        head_meta: str,
        data_opening: str | None,
        module_src: str | None,
    ) -> tuple[tuple[str, ...], tuple[tuple[Slot, str], ...]]:
        """The head's text cut where the nonce attribute goes, and the
        (slot, raw URL) of each URL left out."""
        html, data, left = self._write_all(places, values)
        if head_meta and html:
            text = f"{head_meta}\n{html}"
        else:
            text = head_meta or html
        pieces: list[str] = []
        if json_ld:
            # The nonce goes on each script. The text is JSON as jsonld.dumps
            # writes it, safe inside <script> already (no "<", what HTML
            # reports as an error escaped), and so is its JSON string.
            before, _, close, _ = serialize.PIECES[JSON_LD]
            items = [data] if data else []
            for block in json_ld:
                items.append(before + encode_basestring(block) + close)
                if text:
                    text += "\n"
                pieces.append(text + '<script type="application/ld+json"')
                text = f" {MANAGED}>{block}</script>"
            data = ",".join(items)
        if data_opening is not None and module_src is not None:
            if text:
                text += "\n"
            pieces += (
                text + '<script type="application/json" id="marmeon-head"'
                " data-marmeon-data",
                f">{data_opening}{data}{serialize.CLOSING}</script>\n"
                f'<script type="module" src="{escape(module_src)}"',
            )
            text = "></script>"
        pieces.append(text)
        return tuple(pieces), left

    def _write_all(
        self, places: tuple[Place, ...], values: tuple[str, ...]
    ) -> tuple[str, str, tuple[tuple[Slot, str], ...]]:
        """The elements' HTML, their browser data (safe inside <script>), and
        the (slot, raw URL) of each URL the policy leaves out.

        The values other than URLs must be text as ``head()`` cleaned it
        (:func:`flask_marmeon.head.fields.clean_text`): nothing in it is
        escaped for ``<script>`` (DEL, C1 controls), as nothing needs to be.
        """
        if not values:
            return "", "", ()
        layout = self.layouts.get(places)
        if layout is None:
            if len(self.layouts) >= LAYOUTS_SIZE:
                self.layouts.clear()
            layout = self.layouts[places] = _Layout(places)
        # All the values at once: one escape, one JSON encoding, each split
        # at the DELs between them.
        joined = _SEP.join(values)
        html_values = escape(joined).split(_SEP)
        if len(html_values) == len(values):
            # No DEL in a value, so none is escaped for <script> but a URL.
            text = encode_basestring(joined)[1:-1]
            if "<" in text:
                text = serialize.finish(text)
            data_values = text.split(_SEP)
            check = True
        else:
            html_values = [escape(value) for value in values]
            data_values = [
                serialize.finish(encode_basestring(value)[1:-1]) for value in values
            ]
            for i, value in enumerate(values):
                if needs_script_escape(value):
                    data_values[i] = escape_for_script(data_values[i])
            check = False
        origin = self.origin
        html_origin = self.html_origin
        dropped: list[int] = []
        for i in layout.urls:
            value = values[i]
            if check and not value.isascii() and not value.isprintable():
                # What HTML reports as an error (a C1 control in a raw URL,
                # say): JSON itself escapes only the C0 controls.
                data_values[i] = escape_for_script(data_values[i])
            if (
                origin is not None
                and value[:1] == "/"
                and value[1:2] != "/"
                and "/." not in value
                and not value.strip(PLAIN_PATH_CHARS)
            ):
                # urls.is_plain_path(), inline: origin + path, where only
                # "&" needs escaping (the origin is escaped once).
                if "&" in value:
                    value = value.replace("&", "&amp;")
                html_values[i] = html_origin + value
                continue
            href = self.policy(value)
            if href is None:
                dropped.append(i)
            else:
                html_values[i] = escape(href)
        parts = layout.data.copy()
        parts[1::2] = data_values
        data = "".join(parts)
        if not dropped:
            parts = layout.html.copy()
            parts[1::2] = html_values
            return "".join(parts), data, ()
        # A URL left out takes the elements of its group with it.
        gone: set[int | None] = set()
        lines: list[str] = []
        left: list[tuple[Slot, str]] = []
        for i, (slot, before, after, part, group) in enumerate(layout.parts):
            if part == _URL and i in dropped:
                gone.add(group)
                left.append((slot, values[i]))
            elif part != _FOLLOWER or group not in gone:
                lines.append(before + html_values[i] + after)
        return "\n".join(lines), data, tuple(left)
