"""What a build leaves out, said in one warning per route and one for the limits."""

from __future__ import annotations

from collections import Counter

from werkzeug.routing import Rule

from .._log import logger
from ..head.url_policy import explain
from .arguments import Refused
from .entries import shown
from .images import MAX_IMAGE_LENGTH, MAX_IMAGES, ImageReport


class RouteReport:
    """What one route's entries lost: entries left out (by reason), locale
    tags that APP_LOCALES does not hold, images. Logged once per build."""

    def __init__(self, rule: Rule) -> None:
        self.rule = rule
        self.reasons: Counter[str] = Counter()
        self.first: dict[str, str] = {}
        self.unknown_locales: dict[str, None] = {}
        #: Tags entries named that their route's ``locales=`` refuses (the
        #: page answers 404 in them).
        self.refused: dict[str, None] = {}
        self.images = ImageReport()

    def refuse(self, refused: Refused) -> None:
        """Count an entry left out."""
        self.reasons[refused.kind] += 1
        self.first.setdefault(refused.kind, str(refused))

    def refuse_unknown(self, message: str) -> None:
        """Count an entry left out for a parameter its route does not have."""
        self.refuse(Refused(message, "unknown"))

    def unknown(self, tags: tuple[str, ...]) -> None:
        """Note locale tags an entry or the route named that are not configured."""
        self.unknown_locales.update(dict.fromkeys(tags))

    def left_out(self) -> str | None:
        """How many entries were left out and why, or None when none was."""
        total = sum(self.reasons.values())
        if not total:
            return None
        reasons = "; ".join(self.first.values())
        return f"{total} entr{'y' if total == 1 else 'ies'} left out: {reasons}"

    def log(self, origin: str, *, dev: bool) -> None:
        """One warning, if anything was left out; refused image URLs only in
        development (as the head's)."""
        said: list[str] = []
        left_out = self.left_out()
        if left_out is not None:
            said.append(left_out)
        if self.unknown_locales:
            tags = ", ".join(repr(tag) for tag in list(self.unknown_locales)[:5])
            said.append(
                f"the locales {tags} left out, because APP_LOCALES does not hold"
                " them (name configured tags in locales=)"
            )
        if self.refused:
            tags = ", ".join(repr(tag) for tag in list(self.refused)[:5])
            said.append(
                f"the locales {tags} of entries left out, because the route's"
                " locales= does not name them and the page answers 404 there"
                " (name them in the route's locales= too)"
            )
        images = self.images
        if images.over:
            said.append(
                f"{images.over} image{'s' if images.over > 1 else ''} left out,"
                f" because a page lists at most {MAX_IMAGES}"
            )
        if images.too_long:
            said.append(
                f"{images.too_long} image URL{'s' if images.too_long > 1 else ''}"
                f" left out, because {'they are' if images.too_long > 1 else 'it is'}"
                f" longer than {MAX_IMAGE_LENGTH} characters"
            )
        first = images.first_refused
        if first is not None and dev:
            said.append(
                f"{images.refused} image URL{'s' if images.refused > 1 else ''}"
                f" left out, such as {shown(first)}: {explain(first, origin)}"
            )
        if said:
            logger.warning(
                "Sitemap: the route %r (endpoint %r): %s.",
                self.rule.rule,
                self.rule.endpoint,
                "; ".join(said),
            )


class Limits:
    """What did not fit, over all routes."""

    def __init__(self) -> None:
        self.entries = 0
        self.urls = 0
        #: Set when the entries past a part's could not be counted (then
        #: there are at least as many as were seen).
        self.counted_to = False

    def beyond(self, rest: int | None) -> None:
        """Count ``rest`` more entries that were not read (past a part's),
        each of at least one URL; None when they could not be counted."""
        self.entries += rest or 0
        self.urls += rest or 0
        self.counted_to = rest is None

    def left_out(self, urls: int) -> None:
        """Count an entry of ``urls`` URLs that did not fit."""
        self.entries += 1
        self.urls += urls

    def log(
        self, max_urls: int, max_bytes: int, *, split: bool, waiting: str | None = None
    ) -> None:
        """One warning, if anything did not fit; ``waiting`` names the range
        of a part, whose rest waits for the next ranges."""
        if not self.urls:
            return
        if waiting is not None:
            logger.warning(
                "Sitemap: %s%s of the part of %s left out, because"
                " a file holds at most %d URLs and %d bytes (rows added since its"
                " range was decided?); they wait for the next ranges, which are"
                " decided again now.",
                "at least " if self.counted_to else "",
                f"{self.entries:,} entr{'y' if self.entries == 1 else 'ies'}",
                waiting,
                max_urls,
                max_bytes,
            )
            return
        logger.warning(
            "Sitemap: %d URLs (%d entries) left out, because a file holds at"
            " most %d URLs and %d bytes.%s",
            self.urls,
            self.entries,
            max_urls,
            max_bytes,
            " Each of them is larger than a whole file may be."
            if split
            else " Set MARMEON_SITEMAP_INDEX = True to split the sitemap into"
            " several files.",
        )


# The attribute that carries, on an exception that ended a build, the route
# whose entries were being written (Python 3.10 has no add_note()).
_WHERE = "_marmeon_sitemap_route"


def failed_in(error: BaseException, where: str) -> None:
    """Mark ``error`` as raised while the entries of ``where`` were written."""
    if where not in str(error):
        setattr(error, _WHERE, where)


def failure(error: BaseException) -> str:
    """What the log says of an exception that ended a build: its type, its
    message and the route whose provider raised it."""
    where = getattr(error, _WHERE, None)
    said = f"{type(error).__name__}: {error}"
    return said if where is None else f"{said}, in the sitemap entries of {where}"
