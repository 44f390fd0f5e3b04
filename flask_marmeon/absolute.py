"""``absolute_url()``: an address made absolute as the head makes its own.

For the addresses an app writes itself, in JSON-LD above all (``url``,
``image``, ``@id``, ``item``, ``logo``), where search engines want absolute
URLs and the extension writes the block exactly as given.
"""

from __future__ import annotations

from ._state import get_state
from .head.state import head_state
from .head.text import is_text
from .head.url_policy import explain


def absolute_url(url: str) -> str:
    """Return ``url`` made absolute against APP_URL's origin, as the head
    makes ``og:image`` or a canonical: ``absolute_url("/notes/1")`` is
    ``"https://notes.example/notes/1"``; an absolute http(s) URL on any host
    is kept (as the WHATWG parser writes it).

    Like a route's own path, ``url`` does not get the mount path
    (``APPLICATION_ROOT``): pass what ``url_for`` returns. Call it where the
    app is current (a view, a template, an app context). Raises
    :class:`ValueError` saying why for what the head would leave out: a
    relative URL without APP_URL, one that resolves to another origin, or
    a scheme other than http(s); :class:`TypeError` for anything but text
    (``None``, say: a page without a canonical address).
    """
    # A str, or a lazy string (Flask-Babel's), as the head takes text.
    if not is_text(url):
        raise TypeError(
            f"absolute_url() takes an address as text, such as '/notes/1',"
            f" not {type(url).__name__}."
        )
    policy = head_state(get_state()).policy
    text = str(url)
    found = policy(text)
    if found is None:
        raise ValueError(
            f"absolute_url({text!r}) cannot make it absolute:"
            f" {explain(text, policy.origin)}."
        )
    return found
