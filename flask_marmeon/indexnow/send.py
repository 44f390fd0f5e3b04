"""POST the changed addresses to the IndexNow endpoint, and read its answers.

One request carries at most :data:`MAX_URLS` addresses as JSON
(``{"host", "key", "keyLocation", "urlList"}``). 200 and 202 are accepted;
429 and 503 are retried after ``Retry-After`` (or a growing delay) a bounded
number of times; any other answer stops the run with what it means.
Python's own ``urllib`` sends them: one POST at a time needs nothing more.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from werkzeug.http import parse_date

#: URLs per request at most (the protocol's limit).
MAX_URLS = 10_000
#: Tries of one request when the endpoint answers 429 or 503.
TRIES = 5
#: Seconds of the first wait when no Retry-After is given; doubled each time.
FIRST_DELAY = 2.0
#: The longest wait a Retry-After may ask for; a longer one stops the run.
LONGEST_WAIT = 600.0
#: Seconds to wait for an answer.
TIMEOUT = 30.0

#: What each answer means, as IndexNow's documentation says.
MEANINGS = {
    200: "OK: the URLs were submitted",
    202: "Accepted: the URLs were received; the key is checked later",
    400: "Bad request: the request is not in IndexNow's format",
    403: "Forbidden: the key is not valid (no key file at keyLocation, or"
    " it does not hold the key)",
    422: "Unprocessable Entity: URLs of another host than APP_URL's, or a"
    " key that does not match the protocol's pattern",
    429: "Too Many Requests: the endpoint takes this as spam; send less often",
    503: "Service Unavailable: the endpoint is busy",
}
_RETRIED = (429, 503)


@dataclass(frozen=True)
class Answer:
    """How one request ended."""

    #: The HTTP status, or None when no answer came (connection refused).
    status: int | None
    #: One line for the person running it.
    message: str

    @property
    def accepted(self) -> bool:
        """Whether the endpoint took the URLs."""
        return self.status in (200, 202)


@dataclass(frozen=True)
class Sender:
    """Where and how the requests go: ``site`` is what each request's JSON
    holds besides its ``urlList`` (``host``, ``key``, ``keyLocation``);
    ``sleep`` and ``now`` are the clock (tests give their own, so they never
    wait)."""

    endpoint: str
    site: dict[str, str]
    sleep: Callable[[float], None]
    now: Callable[[], float]

    def send(self, urls: Sequence[str]) -> Answer:
        """POST ``urls`` (at most :data:`MAX_URLS`), retrying 429 and 503."""
        delay = FIRST_DELAY
        answer = Answer(None, "not sent")
        for attempt in range(1, TRIES + 1):
            answer, retry_after = self._post(urls)
            if answer.status not in _RETRIED or attempt == TRIES:
                break
            wait = delay if retry_after is None else retry_after
            if wait > LONGEST_WAIT:
                return Answer(
                    answer.status,
                    f"{answer.message}; it asks to wait {wait:.0f} s before"
                    " trying again: run the command again later",
                )
            self.sleep(max(0.0, wait))
            delay *= 2
        if answer.status in _RETRIED:
            return Answer(answer.status, f"{answer.message} (after {TRIES} tries)")
        return answer

    def _post(self, urls: Sequence[str]) -> tuple[Answer, float | None]:
        request = urllib.request.Request(
            self.endpoint,
            data=json.dumps({**self.site, "urlList": list(urls)}).encode(),
            headers={"Content-Type": "application/json; charset=utf-8"},
            method="POST",
        )
        try:
            with urllib.request.urlopen(request, timeout=TIMEOUT) as response:
                return self._answer(response.status), None
        except urllib.error.HTTPError as error:
            with error:
                retry_after = self._retry_after(error.headers.get("Retry-After"))
                return self._answer(error.code), retry_after
        except (urllib.error.URLError, OSError) as error:
            reason = getattr(error, "reason", error)
            return Answer(None, f"{self.endpoint} could not be reached: {reason}"), None

    def _answer(self, status: int) -> Answer:
        meaning = MEANINGS.get(status, "an answer IndexNow does not define")
        return Answer(status, f"{self.endpoint} answered {status}: {meaning}")

    def _retry_after(self, value: str | None) -> float | None:
        """Retry-After's seconds (a number, or an HTTP date)."""
        text = (value or "").strip()
        if text.isdigit():
            return float(text)
        moment = parse_date(text)
        return None if moment is None else max(0.0, moment.timestamp() - self.now())
