"""``OgImage``: a generated image as a page names it."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

_NAMES = ("title", "description", "subtitle", "alt")


def _is_text(value: object) -> bool:
    """A str, or a lazy string (Flask-Babel's ``lazy_gettext``, anything
    with ``__html__``), as the head takes text everywhere."""
    return isinstance(value, str) or (
        not isinstance(value, type) and hasattr(type(value), "__html__")
    )


@dataclass(frozen=True)
class OgImage:
    """A generated 1200x630 image, accepted wherever the head takes an image.

    ::

        head(open_graph={"image": OgImage(title=note.title, subtitle="Notes")})

    Every text is optional, a str or a lazy string (``lazy_gettext``):
    ``title`` defaults to the Open Graph title (the page's title by
    default), ``description`` to the page's description,
    ``subtitle`` (the small line above the title) to the site name, and
    ``alt`` to the title. The image's address carries the texts as they are
    drawn, signed with the app's ``SECRET_KEY``; an app without one refuses
    an ``OgImage`` like a bad value.
    """

    title: str | None = None
    description: str | None = None
    subtitle: str | None = None
    alt: str | None = None

    def __post_init__(self) -> None:
        for name in _NAMES:
            value = getattr(self, name)
            if value is not None and not _is_text(value):
                raise TypeError(
                    f"OgImage({name}=...) takes text (a str or a lazy string)"
                    f" or None, not {type(value).__name__} {value!r}."
                )


def as_text(value: OgImage) -> OgImage:
    """``value`` with its lazy strings made text, in the language of the
    request that gives it to ``head()`` (as every text of the head is)."""
    lazy: dict[str, Any] = {
        name: str(getattr(value, name))
        for name in _NAMES
        if getattr(value, name) is not None and type(getattr(value, name)) is not str
    }
    return replace(value, **lazy) if lazy else value
