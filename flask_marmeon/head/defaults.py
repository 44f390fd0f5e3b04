"""The og and twitter defaults, as unhead infers tags: a card (Open Graph's,
Twitter's) without a title or description takes the page's, and
``og:locale`` the page's locale in Open Graph's form.

Steps at the head's ``resolve`` stage (:mod:`.stages`), which the head
registers for itself (:mod:`.install`). The keys are the ones the table
declares so (:mod:`.roles`): no field is named here.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from . import roles
from .merge import MergedHead
from .stages import StageContext, Step
from .table import HEAD

#: (a card's key, its key of a text, the page's key of the same text): the
#: title and the description of each card (a role the table declares).
_TEXTS = tuple(
    (name, key, page_key)
    for name, row in HEAD.keys.items()
    if row.role == roles.CARD and row.table is not None
    for role in (roles.TITLE, roles.DESCRIPTION)
    if (key := row.table.named(role)) and (page_key := HEAD.named(role))
)
#: (a card's key, its key of a locale).
_LOCALES = tuple(
    (name, key)
    for name, row in HEAD.keys.items()
    if row.role == roles.CARD
    and row.table is not None
    and (key := row.table.named(roles.LOCALE))
)


def card_defaults(merged: MergedHead, context: StageContext) -> MergedHead:
    """Each card's title and description, the page's when it sets none."""
    # Plain loops, and each dict copied once: this runs for every head
    # written (benchmarks/head.py, a new page).
    out: dict[str, Any] | None = None
    for name, key, page_key in _TEXTS:
        card = merged.get(name)
        if card is None or card.get(key) is not None:
            continue
        value = merged.get(page_key)
        if value is None:
            continue
        if out is None:
            out = {**merged}
        if out[name] is card:
            out[name] = {**card}
        out[name][key] = value
    return merged if out is None else out


def og_locale_default(og_locales: Callable[[str], str]) -> Step:
    """The step giving a card's locale (``og:locale``) the page's, as
    ``og_locales`` spells it (:class:`~.locales.OgLocales`)."""

    def step(merged: MergedHead, context: StageContext) -> MergedHead:
        page = context.page
        if page is None or page.locale is None:
            return merged
        changes: dict[str, Any] = {}
        for name, key in _LOCALES:
            card = merged.get(name)
            if card is not None and card.get(key) is None:
                changes[name] = {**card, key: og_locales(page.locale)}
        return {**merged, **changes} if changes else merged

    return step
