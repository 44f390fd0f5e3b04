"""The browser data: the resolved head as JSON for ``static/marmeon.js``.

``render_head()`` writes it into
``<script type="application/json" id="marmeon-head" data-marmeon-data>``
(with the CSP nonce when there is one), followed by
``<script type="module" src="/_marmeon/marmeon.<hash>.js">``, only when
``MARMEON_BROWSER_SCRIPT`` is true. The text is JSON with every ``<``
written ``\\u003c``. Its exact fields::

    {
      "v": 1,                     # the format's version
      "dev": true | false,        # current_app.debug: development warnings
      "appUrl": "https://origin" | null,   # APP_URL's origin
      "head": [ELEMENT, ...]      # the managed elements, in output order
    }

    ELEMENT = {
      "tag": "title" | "meta" | "link" | "script",
      "attrs": {"name": "value", ...},  # every attribute in output order,
                                        # without data-marmeon and nonce
      "text": "...",        # only for "title" (the final title) and "script"
                            # (the JSON-LD text, "<" written \\u003c)
      "url": "href" | "content",  # only on an element with a URL: the
                                  # attribute that holds it, raw
      "field": "canonical" | "open_graph.url" | "open_graph.image"
               | "twitter.image" | "hreflang",  # only with "url"
      "group": 3            # on an element with a URL and on the elements
                            # that go with it (og:image:width, og:image:height,
                            # og:image:alt, twitter:image:alt): drop them all
                            # when the URL is left out
    }

In ``attrs``, the attribute named by ``url`` holds the raw value the app gave
(or, for the default canonical and hreflang of a localized page, the page's
own path), *before* the URL policy: the module applies the same policy
against ``appUrl`` (else ``location.origin``) and drops the element, with its
group, when the URL is left out. Elements the server itself left out for
their URL are in the list; a JSON-LD block the server could not write is not.
Every managed element in the document carries the attribute
``data-marmeon``; ``<meta name="marmeon:app-url">`` is not a managed element.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from json.encoder import encode_basestring
from types import MappingProxyType
from typing import Any

from .resolve import ALL_SLOTS, Slot

#: The format's version, ``"v"``.
VERSION = 1

# The data is built from prepared pieces and JSON string literals (written
# by the json module's C encoder) rather than through dicts and json.dumps:
# it is written on every request, in the same pass as the HTML
# (render.render), from the pieces below.


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _parts(slot: Slot) -> tuple[str, str, str, str]:
    """(before the extra or the value, between them, closing, closing with group).

    The closing with group ends in ``"group":`` for the group number to follow.
    """
    attrs = ",".join(f"{_dumps(name)}:{_dumps(value)}" for name, value in slot.attrs)
    head = f'{{"tag":{_dumps(slot.tag)},"attrs":{{{attrs}'
    sep = "," if attrs else ""
    if slot.value_attr is None:
        # The value is the element's text.
        return head + '},"text":', "", "}", '},"group":'
    if slot.extra_attr is not None:
        before = f"{head}{sep}{_dumps(slot.extra_attr)}:"
        between = f",{_dumps(slot.value_attr)}:"
    else:
        before, between = f"{head}{sep}{_dumps(slot.value_attr)}:", ""
    if slot.field is not None:
        url = f',"url":{_dumps(slot.value_attr)},"field":{_dumps(slot.field)}'
        return before, between, "}" + url + "}", "}" + url + ',"group":'
    return before, between, "}}", '},"group":'


#: Each slot's constant pieces: an element is ``before + value`` (or
#: ``before + extra + between + value``), then ``closing``, or ``closing
#: with group`` + the group number + ``}``; the values are JSON string
#: literals, what HTML reports as an error in them escaped as ``\uXXXX``.
PIECES: Mapping[Slot, tuple[str, str, str, str]] = MappingProxyType(
    {slot: _parts(slot) for slot in ALL_SLOTS}
)


def opening(*, dev: bool, app_url: str | None) -> str:
    """The data's text up to the first element, ``{"v":1,...,"head":[``, safe
    inside ``<script>`` (see :func:`finish`)."""
    app = "null" if app_url is None else encode_basestring(app_url)
    dev_text = "true" if dev else "false"
    return finish(f'{{"v":{VERSION},"dev":{dev_text},"appUrl":{app},"head":[')


#: The data's text after the last element.
CLOSING = "]}"


def finish(text: str) -> str:
    """Make the data's text safe inside ``<script>``.

    It may be applied to each part apart: it replaces single characters.
    """
    # "<" can only be inside a string here, where \u003c means the same.
    return text.replace("<", "\\u003c")
