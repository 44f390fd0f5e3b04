"""The crawl: every internal address the pages link, fetched once each.

The audit starts from the sitemap's pages and the home page; each fetched
page's ``<a href>`` links, its redirect's ``Location`` and its canonical
add the addresses not yet seen. What it keeps of each address is a
:class:`Node` (a few fields, never the answer nor the document) and the
link graph (which address links which), so that its memory grows with the
number of addresses, not with the pages' size. ``max_pages`` bounds the
addresses fetched; what it leaves out is counted and reported.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from urllib.parse import urljoin

from ..locale_tags import X_DEFAULT
from .document import Document
from .fetch import Fetched
from .findings import Finding, finding, quoted
from .page_checks import noindex_reason

#: Redirects followed before an address counts as broken (Googlebot
#: follows 10; browsers give up after 20).
MAX_HOPS = 10


@dataclass(frozen=True, slots=True)
class Node:
    """What the audit keeps of one fetched address."""

    status: int
    #: Where a redirect goes (absolute, no fragment), else None.
    location: str | None = None
    #: Why there was no real answer (the view raised, a timeout), else None.
    error: str | None = None
    #: The page says noindex (header or meta).
    noindex: bool = False
    #: 200 HTML, not noindex, and its one canonical is its own address.
    indexable: bool = False
    #: An HTML page (read for its links).
    html: bool = False


@dataclass
class Chain:
    """Where an address ends after its redirects."""

    #: The addresses it redirects through, the first one included.
    hops: list[str]
    #: The answer it ends at: None when the end was not fetched (another
    #: origin, robots.txt, the cap) or the redirects loop or go on too long.
    end: Node | None
    #: The address the chain ends at (the last Location).
    target: str
    loops: bool = False
    too_long: bool = False

    @property
    def redirects(self) -> int:
        """How many redirects come before the answer."""
        return len(self.hops) - 1


@dataclass
class Crawl:
    """The addresses to fetch, what each answered, and who links what.

    ``own(url)`` says whether an address is the app's (its origin, under
    its mount path); ``allowed(url)`` whether robots.txt lets the crawler
    fetch it. A link to a disallowed address is kept in the graph (it
    links the page) but not fetched, as a crawler does.
    """

    own: Callable[[str], bool]
    allowed: Callable[[str], bool]
    #: The most addresses fetched (the audit's max_pages).
    budget: int
    #: The home page's address, where a crawl starts.
    home: str = ""
    nodes: dict[str, Node] = field(default_factory=dict)
    #: page -> the internal addresses it links (itself left out), in order.
    links: dict[str, tuple[str, ...]] = field(default_factory=dict)
    #: page -> the other internal address its one canonical names.
    canonicals: dict[str, str] = field(default_factory=dict)
    #: Addresses a page names as its hreflang x-default (they may redirect
    #: by language: that is no finding).
    x_default: set[str] = field(default_factory=set)
    #: page -> the addresses its hreflang links name (for the return checks).
    hreflang: dict[str, frozenset[str]] = field(default_factory=dict)
    #: Hashes of the addresses left out by the cap (each counted once).
    left_out: set[int] = field(default_factory=set)
    _queue: deque[str] = field(default_factory=deque)
    _queued: set[str] = field(default_factory=set)

    def add(self, url: str, *, listed: bool = False) -> None:
        """Fetch ``url`` later, unless it was seen or the cap is reached (a
        listed address is fetched even where robots.txt disallows it: that
        is a finding of its own)."""
        if url in self._queued or not self.own(url):
            return
        if not (listed or self.allowed(url)):
            return
        if len(self._queued) >= self.budget:
            self.left_out.add(hash(url))
            return
        self._queued.add(url)
        self._queue.append(url)

    def __iter__(self) -> Iterator[str]:
        """The addresses to fetch, in the order they were found (the queue
        grows while it is read)."""
        while self._queue:
            yield self._queue.popleft()

    def record(self, url: str, answer: Fetched, doc: Document | None) -> None:
        """Keep what ``url`` answered, and queue what it points to."""
        if doc is None:
            location = None
            if 300 <= answer.status < 400 and "Location" in answer.headers:
                location = _join(url, answer.headers["Location"])
            self.nodes[url] = Node(answer.status, location, answer.error)
            if location is not None:
                self.add(location)
            return
        noindex = noindex_reason(answer.headers, doc.robots) is not None
        own = doc.canonicals == (url,)
        self.nodes[url] = Node(
            answer.status, None, None, noindex, own and not noindex, html=True
        )
        links = tuple(link for link in doc.links if link != url and self.own(link))
        self.links[url] = links
        for link in links:
            self.add(link)
        if len(doc.canonicals) == 1 and doc.canonicals[0] != url:
            canonical = doc.canonicals[0]
            if self.own(canonical):
                self.canonicals[url] = canonical
                self.add(canonical)
        if doc.hreflang:
            self.hreflang[url] = frozenset(href for _, href in doc.hreflang)
        for lang, target in doc.hreflang:
            if lang == X_DEFAULT:
                self.x_default.add(target)
            elif target != url:
                # Its return link is checked: fetched within the cap.
                self.add(target)

    def answer(self, url: str) -> str:
        """What ``url`` answers, as the preview says it: ``200``, ``301 ->
        https://...``, or ``not fetched``."""
        chain = self.chain(url)
        if chain.loops or chain.too_long:
            return "redirects without end"
        if chain.end is None:
            return "not fetched"
        if chain.redirects:
            return f"redirects to {quoted(chain.target)} ({chain.end.status})"
        return str(chain.end.status)

    def chain(self, url: str) -> Chain:
        """Follow ``url``'s redirects through the answers fetched."""
        hops = [url]
        node = self.nodes.get(url)
        while node is not None and node.location is not None:
            target = node.location
            if target in hops:
                return Chain(hops, None, target, loops=True)
            if len(hops) > MAX_HOPS:
                return Chain(hops, None, target, too_long=True)
            hops.append(target)
            node = self.nodes.get(target)
        return Chain(hops, node, hops[-1])

    def capped(self, found: list[Finding], robots_url: str) -> list[Finding]:
        """``found`` with the one ``audit-capped`` finding saying what the cap
        left out of the crawl (added, or the sitemap's made longer)."""
        if not self.left_out:
            return found
        said = (
            f"The crawl fetched {self.budget:,} addresses and left out"
            f" {len(self.left_out):,} more that pages link (max_pages), so that"
            " a site of endless addresses (a calendar, a link loop) cannot keep"
            " it running for hours."
        )
        for number, item in enumerate(found):
            if item.code == "audit-capped":
                found[number] = replace(item, message=f"{item.message} {said}")
                return found
        return [
            *found,
            finding("audit-capped", robots_url, "audit-capped/crawl", crawl=said),
        ]


def _join(base: str, location: str) -> str | None:
    """A redirect's Location made absolute, without its fragment (None when
    it is no URL)."""
    try:
        return urljoin(base, location.strip()).partition("#")[0]
    except ValueError:
        return None
