"""submit_changed(): find what changed since the watermark, send it, move it."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timezone

from flask import Flask

from .._edge import raise_on_problems
from .._state import get_state
from ..config import web_url
from ..sitemap.changes import FindingFailed, changed_addresses
from ..sitemap.entries import utc
from .key_file import key_path
from .send import MAX_URLS, Answer, Sender
from .watermark import read_watermark, write_watermark


class IndexNowError(Exception):
    """The run cannot be made (a deployment that must not be indexed, no
    key, a provider that failed): the message says why. Nothing was sent
    and the watermark did not move."""


@dataclass(frozen=True)
class Submission:
    """What :func:`submit_changed` did."""

    #: The changed addresses: sent (or, for a dry run, that would be).
    urls: tuple[str, ...]
    #: The moment they changed after (None on the first run).
    since: datetime | None
    #: Each request's answer, in order (none for a dry run or nothing to send).
    answers: tuple[Answer, ...] = ()
    #: Whether the endpoint accepted every URL (a dry run accepts nothing).
    accepted: bool = False
    #: Whether the watermark moved (to the moment the run began).
    moved: bool = False
    dry_run: bool = False

    @property
    def first_run(self) -> bool:
        """Whether there was no watermark: nothing was sent, it was set."""
        return self.since is None


def submit_changed(
    app: Flask,
    since: datetime | None = None,
    dry_run: bool = False,
    *,
    sleep: Callable[[float], None] = time.sleep,
    now: Callable[[], float] = time.time,
) -> Submission:
    """Send IndexNow every address whose ``last_modified`` is later than the
    watermark (or ``since``, when given), at most 10,000 a request, and move
    the watermark to when the run began once everything was accepted.

    The first run (no watermark, no ``since``) sends nothing and sets the
    watermark. ``dry_run`` finds the addresses and sends nothing; the
    watermark stays. ``sleep`` and ``now`` are the clock the retries use.
    Raises :class:`IndexNowError` when it cannot run (the message says why).
    """
    settings = get_state(app).settings
    if not settings.indexable:
        raise IndexNowError(
            "MARMEON_INDEXABLE is False: this deployment must not be indexed,"
            " so nothing is sent to IndexNow (its key file answers 404)."
        )
    raise_on_problems(app)
    if settings.app_url is None:
        raise IndexNowError(
            "APP_URL is not set: the addresses sent, and IndexNow's host and"
            " keyLocation, are built from it. Set it to the site's public"
            " address, such as 'https://example.com'."
        )
    key = settings.indexnow_key
    if key is None and not dry_run:
        raise IndexNowError(
            "MARMEON_INDEXNOW_KEY is not set: set it to a key of your own"
            " (8 to 128 of A-Z, a-z, 0-9 and '-'), which the app serves at"
            " /<key>.txt."
        )
    began = datetime.fromtimestamp(now(), timezone.utc)
    since = utc(since) if since is not None else read_watermark(app)
    if since is None:
        if not dry_run:
            write_watermark(app, began)
        return Submission(
            (), None, accepted=not dry_run, moved=not dry_run, dry_run=dry_run
        )
    try:
        urls = tuple(changed_addresses(app, since))
    except FindingFailed as error:
        raise IndexNowError(str(error)) from error
    if dry_run:
        return Submission(urls, since, dry_run=True)
    assert key is not None
    # APP_URL's origin, read by config.py's rule (an H10 check made sure
    # there is one); IndexNow takes its host name, without the port.
    origin = web_url(settings.app_url)
    site = {
        "host": str(origin.hostname) if origin is not None else "",
        "key": key,
        "keyLocation": settings.site_base + key_path(key),
    }
    sender = Sender(settings.indexnow_endpoint, site, sleep, now)
    answers: list[Answer] = []
    for first in range(0, len(urls), MAX_URLS):
        answer = sender.send(urls[first : first + MAX_URLS])
        answers.append(answer)
        if not answer.accepted:
            # The rest would get the same answer: the next run sends all.
            break
    accepted = all(answer.accepted for answer in answers)
    if accepted:
        write_watermark(app, began)
    return Submission(urls, since, tuple(answers), accepted, accepted)
