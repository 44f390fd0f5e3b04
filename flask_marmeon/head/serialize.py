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

from collections.abc import Iterable
from typing import Any

from .jsonld import dumps_trusted
from .resolve import Element

#: The format's version, ``"v"``.
VERSION = 1


def element_data(element: Element) -> dict[str, Any]:
    """One ELEMENT of the browser data."""
    item: dict[str, Any] = {"tag": element.tag, "attrs": dict(element.attrs)}
    if element.text is not None:
        item["text"] = element.text
    if element.url_attr is not None:
        item["url"] = element.url_attr
        item["field"] = element.field
    if element.group is not None:
        item["group"] = element.group
    return item


def browser_data(elements: Iterable[Element], *, dev: bool, app_url: str | None) -> str:
    """The browser data's JSON text, safe inside ``<script>``."""
    return dumps_trusted(
        {
            "v": VERSION,
            "dev": dev,
            "appUrl": app_url,
            "head": [element_data(element) for element in elements],
        }
    )
