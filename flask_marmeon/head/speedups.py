"""The head's speed tricks, each beside its plain twin.

- :data:`escape_text`: the one use of another library's private API.
- :func:`template_vars`: a template context's first variables, copied
  from Jinja's globals map quicker than Jinja copies them.


:data:`escape_text` is chosen once, when this module is imported (the app's
start): a probe calls ``markupsafe._escape_inner`` on sample texts and
compares its answers with the escaping MarkupSafe documents. Only when all
are equal, and plain ``str``, is the private function used; a MarkupSafe
that renamed it, changed its arguments or its answers gets the public way,
:func:`plain_escape`, with the same output. ``tests/head/test_speedups.py``
keeps the two equal on a corpus, feeds the probe functions that answer
otherwise, and writes whole heads both ways.

Why: MarkupSafe 3's ``escape()`` wraps the answer of that C function in a
``Markup``, which costs three times the escaping; it runs for every value
of a head written (a page never written before: 9% of its instructions,
benchmarks/README.md).

Measured and dropped (each under 1% of a page): CPython's
``json.encoder.c_make_encoder`` for JSON-LD (a ``JSONEncoder`` made once is
used), ``str.__new__(Markup, text)`` for the head's ``Markup``.
"""

from __future__ import annotations

from collections import ChainMap
from collections.abc import Callable, Mapping
from typing import Any

import markupsafe

#: Text with everything escape() changes and what it leaves alone, and its
#: escape as MarkupSafe documents it (written here: the public escape() calls
#: the same private function).
_ESCAPE_PROBES = (
    ("", ""),
    ("plain é😀\n\t", "plain é😀\n\t"),
    (
        "<a href=\"x\">'&amp;'</a>",
        "&lt;a href=&#34;x&#34;&gt;&#39;&amp;amp;&#39;&lt;/a&gt;",
    ),
)


def plain_escape(value: str) -> str:
    """markupsafe's ``escape(value)`` as a plain ``str`` (the public way)."""
    return str.__str__(markupsafe.escape(value))


def probed_escape() -> Callable[[str], str] | None:
    """``markupsafe._escape_inner`` when it is there and escapes the probes
    as MarkupSafe documents, to a plain ``str``; else None."""
    inner = getattr(markupsafe, "_escape_inner", None)
    if not callable(inner):
        return None
    try:
        for text, escaped in _ESCAPE_PROBES:
            answer = inner(text)
            if type(answer) is not str or answer != escaped:
                return None
    except Exception:  # any other signature or behaviour: the public way
        return None
    return inner  # type: ignore[no-any-return]


#: markupsafe's escape of a ``str``, as a plain ``str``: the probed C
#: function, or its plain twin.
escape_text: Callable[[str], str] = probed_escape() or plain_escape


def plain_template_vars(
    globals_: Mapping[str, Any], vars_: Mapping[str, Any]
) -> dict[str, Any]:
    """The variables a template's context starts with, as Jinja makes them
    (``jinja2.runtime.new_context``): its globals, ``vars_`` over them."""
    return dict(globals_, **vars_)


def template_vars(
    globals_: Mapping[str, Any], vars_: Mapping[str, Any]
) -> dict[str, Any]:
    """:func:`plain_template_vars`, the same dict (keys in the same order),
    made quicker from the ``ChainMap`` of dicts that Jinja documents as a
    template's globals (``Environment.make_globals``); anything else goes
    the plain way.

    Why: ``dict(chain_map)`` reads each key through ``ChainMap.__getitem__``
    in Python, which raises and catches a ``KeyError`` in every map before
    the one holding the key (the template's own globals, empty, come
    first): about 4k instructions for each global on every render, the
    app's, Jinja's, Flask's and the extension's three alike. Here each map
    is copied once, the last first, so that the first map's value wins as
    in the ``ChainMap``.
    """
    if type(globals_) is not ChainMap:
        return plain_template_vars(globals_, vars_)
    maps = globals_.maps
    for mapping in maps:
        if type(mapping) is not dict:  # a __missing__ or a view: the plain way
            return plain_template_vars(globals_, vars_)
    flat: dict[str, Any] = {}
    for mapping in reversed(maps):
        flat.update(mapping)
    # Keywords, as in Jinja's own dict(globals, **vars): a key that is not
    # a str raises the same TypeError.
    flat.update(**vars_)
    return flat
