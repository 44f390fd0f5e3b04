"""Which locales a page exists in: the route option ``locales=``.

A localized route answers under every locale of ``APP_LOCALES`` unless it
says otherwise::

    @notes.get("/notes/<int:note_id>", locales=note_locales)
    def show(note_id): ...

    def note_locales(note_id):          # the view's arguments, as keywords
        return Note.query.get_or_404(note_id).locales

:class:`~flask_marmeon.routing.rule.MarmeonRule` keeps the option as
``rule.marmeon_locales``: None (every locale), a tuple of tags, or a callable.
:func:`available_locales` answers for one page; the page object, the
redirect and the sitemap all ask it, so they never disagree.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from werkzeug.routing import Rule

from .._log import first_time, logger
from .._state import MarmeonState
from ..checks import Problem
from ..locale_tags import LocaleTags
from .urls import LOCALE_ARG, is_localized_rule

#: What ``locales=`` takes: tags, or a callable of the view's arguments
#: returning tags.
LocalesOption = Sequence[str] | Callable[..., Iterable[str]] | None


def available_locales(
    state: MarmeonState, rule: Rule, values: Mapping[str, Any]
) -> tuple[str, ...]:
    """The locales the page of ``rule`` with ``values`` exists in.

    The tags as configured, in the order of ``APP_LOCALES``. ``values`` are
    the URL's values; ``locale`` among them is ignored, and a callable
    ``locales=`` receives the others as keywords. A rule that is not
    localized has no locales: ``()``.

    Raises :class:`TypeError` when the callable returns something other than
    tags. A tag it returns that is not one of ``APP_LOCALES`` (``fr_FR``) is
    a mistake of the app's, logged at ERROR naming the route and the fix
    (once per tag); the page exists in the configured tags it returned, so
    one bad tag does not break the page in every locale. The sitemap leaves
    out the entries whose locales hold such a tag.
    """
    locales = state.settings.locales
    if not is_localized_rule(rule):
        return ()
    option: LocalesOption = getattr(rule, "marmeon_locales", None)
    if option is None:
        return locales
    if callable(option):
        arguments = {k: v for k, v in values.items() if k != LOCALE_ARG}
        option = tags_from(rule, option(**arguments))
    found, unknown = LocaleTags(locales).split(option)
    for tag in unknown:
        if first_time(state, ("locales= gave", rule.rule, tag)):
            logger.error("%s", stranger_tag(rule, tag, locales))
    return found


def stranger_tag(rule: Rule, tag: str, locales: Sequence[str]) -> str:
    """Why the tag ``tag`` that a callable ``locales=`` of ``rule`` gave is
    not used, and how to fix it."""
    return (
        f"locales= of the route {rule.rule!r} gave {tag!r}, which is not one"
        f" of APP_LOCALES {list(locales)!r}: the page does not exist in it."
        f"{LocaleTags(locales).did_you_mean(tag)}"
    )


def tags_from(rule: Rule, result: object) -> tuple[str, ...]:
    """What a callable ``locales=`` of ``rule`` returned, as a tuple of str.

    Raises :class:`TypeError` naming the route for anything else (a str
    too: ``"en"`` would be the locales ``"e"`` and ``"n"``).
    """
    # A string is iterable too: "en" would give "e" and "n".
    if isinstance(result, str) or not isinstance(result, Iterable):
        raise TypeError(
            f"locales= of the route {rule.rule!r} must return a list of"
            f" locale tags such as ['en', 'de-AT'], not {result!r}."
        )
    tags = tuple(result)
    for tag in tags:
        if not isinstance(tag, str):
            raise TypeError(
                f"locales= of the route {rule.rule!r} returned {tag!r}: each"
                " locale must be a tag (a str) of APP_LOCALES."
            )
    return tags


def locales_problems(rule: Rule, locales: Sequence[str]) -> list[Problem]:
    """Why the ``locales=`` of ``rule`` stops the start (H10), if it does: a
    tag that is not one of ``APP_LOCALES`` (i18n.E001), the option on a
    route that is not localized (i18n.E003), or no tag at all (i18n.E004).

    A callable is only called for a page, so only its place is checked here.
    """
    option: LocalesOption = getattr(rule, "marmeon_locales", None)
    if option is None:
        return []
    here = {"rule": rule.rule, "endpoint": str(rule.endpoint)}
    if not is_localized_rule(rule):
        return [
            Problem(
                "i18n.E003",
                "has locales=, but is not a localized route",
                "put it in a blueprint marked with localized(bp), or remove locales=",
                **here,
            )
        ]
    if callable(option):
        return []
    tags = LocaleTags(locales)
    found = [
        Problem(
            "i18n.E001",
            f"has locales= naming {tag!r}, which is not one of APP_LOCALES"
            f" {list(locales)!r}",
            "add it to APP_LOCALES, or remove it from"
            f" locales=.{tags.did_you_mean(tag)}",
            **here,
        )
        for tag in tags.strangers(option)
    ]
    if not option:
        found.append(
            Problem(
                "i18n.E004",
                "has locales=[] and so exists in no locale",
                "name at least one of APP_LOCALES, or remove the route",
                **here,
            )
        )
    return found
