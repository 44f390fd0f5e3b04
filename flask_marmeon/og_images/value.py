"""``OgImage``: a generated image as a page names it."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class OgImage:
    """A generated 1200x630 image, accepted wherever the head takes an image.

    ::

        head(open_graph={"image": OgImage(title=note.title, subtitle="Notes")})

    Every text is optional: ``title`` defaults to the Open Graph title (the
    page's title by default), ``description`` to the page's description,
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
        for name in ("title", "description", "subtitle", "alt"):
            value = getattr(self, name)
            if value is not None and not isinstance(value, str):
                raise TypeError(
                    f"OgImage({name}=...) takes a str or None, not"
                    f" {type(value).__name__} {value!r}."
                )
