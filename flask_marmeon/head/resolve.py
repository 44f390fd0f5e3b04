"""From the merged head to the elements of the page, final, in output order:
the ``resolve`` stage's steps, then the table's writers into a
:class:`~.builder.Builder`, which decides every URL (the HTML writer only
writes)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import NamedTuple

from ..page import Page
from . import defaults, json_ld_blocks, own_addresses
from .builder import Builder, Missing
from .elements import Element, Slot
from .locales import og_locale
from .merge import MergedHead
from .stages import StageContext, Step
from .table import HEAD
from .url_policy import UrlPolicy
from .writers import write_keys


class ResolvedHead(NamedTuple):
    """The head of one page, ready to write."""

    #: The elements to write, in output order, URLs final.
    elements: list[Element]
    #: What the browser module adds back (only without APP_URL).
    missing: list[Missing]
    #: (slot, raw URL) of every URL left out, for development warnings.
    left_out: list[tuple[Slot, str]]


def head_steps(og_locales: Callable[[str], str]) -> tuple[Step, ...]:
    """The head's own steps at ``resolve``, in order (:mod:`.install`
    registers them): the cards' title and description, og:locale, the
    page's own canonical, the JSON-LD texts."""
    return (
        defaults.card_defaults,
        defaults.og_locale_default(og_locales),
        own_addresses.page_canonical,
        json_ld_blocks.placed,
    )


def resolve(
    merged: MergedHead,
    page: Page | None,
    policy: UrlPolicy,
    json_ld: Sequence[str] = (),
    *,
    indexable: bool = True,
    og_locales: Callable[[str], str] = og_locale,
    steps: tuple[Step, ...] | None = None,
    context: StageContext | None = None,
) -> ResolvedHead:
    """Return the head's elements in output order, URLs decided.

    ``steps`` are the app's at the ``resolve`` stage (the head's own,
    :func:`head_steps`, when None), run with ``context`` (the one of
    ``before resolve``, whose page and JSON-LD texts then stand for
    ``page`` and ``json_ld``; a new one when None). ``json_ld`` holds the
    blocks' texts (:func:`~.jsonld.dumps`). ``og_locales`` is
    :func:`og_locale` or the app's table of it (:class:`~.locales.OgLocales`).
    """
    if context is None:
        context = StageContext(None, None, page)
        context.json_ld = json_ld
    for step in head_steps(og_locales) if steps is None else steps:
        merged = step(merged, context)
    out = Builder(policy, context.page, indexable, og_locales)
    write_keys(out, _WRITERS, merged)
    return ResolvedHead(out.elements, out.missing, out.left_out)


_WRITERS = HEAD.writers
