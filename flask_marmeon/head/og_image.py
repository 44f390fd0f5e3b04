"""``OgImage``: a generated image as a page names it, a value ``head()``
takes wherever an image goes. The head keeps it as given; ``og_images``
names its address, size and alt at the head's ``before resolve`` stage
(``og_images/head_step.py``), so the head imports nothing of ``og_images``."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from flask import Flask, current_app

from .text import is_text

_NAMES = ("title", "description", "subtitle", "alt")


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
            if value is not None and not is_text(value):
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


def check_secret_key(app: Flask) -> None:
    """Refuse an ``OgImage`` in an app without ``SECRET_KEY``, like a bad value."""
    if not app.secret_key:
        raise ValueError(
            "OgImage(...) needs the app's SECRET_KEY, which signs the image's"
            " address: set app.config['SECRET_KEY'] (the same in every"
            " process)."
        )


def for_head(value: OgImage, path: str) -> OgImage:
    """An OgImage as ``head()`` keeps it (its lazy strings made text now, in
    the request's language): ``og_images`` names it when the head is
    written, with the page's texts."""
    check_secret_key(current_app._get_current_object())  # type: ignore[attr-defined]
    return as_text(value)


#: The other kinds of value an image takes in ``head()``: a generated image.
IMAGE_KINDS: tuple[tuple[type, Any], ...] = ((OgImage, for_head),)
