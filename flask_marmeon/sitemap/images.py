"""An entry's images: absolute like the head's URLs, at most 1,000 per page.

Google's image sitemap extension lists a page's images as
``<image:image><image:loc>URL</image:loc></image:image>``. The URLs go
through the head's URL policy (:func:`flask_marmeon.head.url_policy.decide`): a
path is made absolute against APP_URL's origin, a full http(s) URL keeps its
host, and a relative one that a browser would resolve to another host, or a
URL of another scheme, is left out.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

#: The most images one ``<url>`` may list (Google's limit).
MAX_IMAGES = 1000
#: A "%" that two hex digits do not follow: a browser keeps it as it is (the
#: head writes it so), but it makes no URI (xsd:anyURI), so the sitemap
#: writes it as "%25".
_LONE_PERCENT = re.compile("%(?![0-9A-Fa-f]{2})")
#: The longest ``<image:loc>``, as for ``<loc>`` (sitemaps 0.9): a longer one
#: makes the file invalid (the audit's image.xsd).
MAX_IMAGE_LENGTH = 2048


@dataclass
class ImageReport:
    """What one route's entries lost of their images, for its warning."""

    #: Images past the first MAX_IMAGES of an entry.
    over: int = 0
    #: Images whose written URL is longer than MAX_IMAGE_LENGTH.
    too_long: int = 0
    #: Images the URL policy left out, and the first of them.
    refused: int = 0
    first_refused: str | None = None


def absolute_images(
    images: tuple[str, ...],
    policy: Callable[[str], str | None],
    report: ImageReport,
) -> tuple[str, ...]:
    """The entry's image URLs to write, in order: each as the policy writes
    it, the ones it leaves out or that it writes longer than
    :data:`MAX_IMAGE_LENGTH` dropped, at most :data:`MAX_IMAGES`."""
    kept: list[str] = []
    for position, image in enumerate(images):
        if len(kept) == MAX_IMAGES:
            report.over += len(images) - position
            break
        url = policy(image)
        if url is None:
            report.refused += 1
            if report.first_refused is None:
                report.first_refused = image
            continue
        if "%" in url:
            url = _LONE_PERCENT.sub("%25", url)
        if len(url) > MAX_IMAGE_LENGTH:
            report.too_long += 1
            continue
        kept.append(url)
    return tuple(kept)
