"""The checks across the crawl: links, redirects, orphans, canonicals.

Pure functions over the crawl's link graph (crawl.py): none fetches. Each
finding names the page, the link and the fix; an address from a page is
quoted by :func:`~.findings.quoted`, at most 100 characters of it.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator

from .crawl import Chain, Crawl
from .findings import Finding, finding, quoted, shorten


def link_findings(crawl: Crawl) -> Iterator[Finding]:
    """``link-broken`` and ``link-redirect``: one per page and link."""
    for page, links in crawl.links.items():
        for link in links:
            chain = crawl.chain(link)
            broken = _broken(chain)
            if broken is not None:
                yield finding("link-broken", page, link=quoted(link), broken=broken)
            elif chain.redirects and link not in crawl.x_default:
                target = quoted(chain.target)
                yield finding("link-redirect", page, link=quoted(link), target=target)


def _broken(chain: Chain) -> str | None:
    """How the chain fails (for a message), or None when it answers."""
    if chain.loops:
        return f"redirects in a loop ({_path(chain)})"
    if chain.too_long:
        return f"redirects more than {len(chain.hops) - 1} times ({_path(chain)})"
    end = chain.end
    if end is None or end.status < 400:
        return None
    raised = f" ({shorten(end.error)})" if end.error else ""
    if chain.redirects:
        return (
            f"redirects to {quoted(chain.target)}, which answers {end.status}{raised}"
        )
    return f"answers {end.status}{raised}"


def _path(chain: Chain, shown: int = 4) -> str:
    hops = [quoted(url) for url in chain.hops[:shown]]
    more = len(chain.hops) - shown
    return " -> ".join(hops) + (f" -> ... ({more} more)" if more > 0 else "")


def chain_findings(crawl: Crawl) -> Iterator[Finding]:
    """``redirect-chain``: an address that redirects more than once."""
    for url, node in crawl.nodes.items():
        if node.location is None or url in crawl.x_default:
            continue
        chain = crawl.chain(url)
        if chain.loops or chain.too_long or chain.redirects > 1 and chain.end:
            yield finding(
                "redirect-chain",
                url,
                "redirect-chain/loop" if chain.loops else "",
                count=chain.redirects,
                path=_path(chain),
                target=quoted(chain.target),
            )


def orphan_findings(crawl: Crawl, listed: Collection[str]) -> Iterator[Finding]:
    """``page-orphan``: a listed page that no fetched page links to.

    Only said when the crawl read the whole site (a page the cap left out
    may link it), and never of the home page, where a crawl starts.
    """
    if crawl.left_out:
        return
    reached = set()
    for links in crawl.links.values():
        for link in links:
            reached.add(link)
            reached.add(crawl.chain(link).target)
    for url in listed:
        node = crawl.nodes.get(url)
        if node is None or node.status != 200 or url in reached or url == crawl.home:
            continue
        yield finding("page-orphan", url)


def unlisted_findings(crawl: Crawl, listed: Collection[str]) -> Iterator[Finding]:
    """``page-not-listed``: an indexable page reached by links, not listed."""
    linked_from: dict[str, str] = {}
    for page, links in crawl.links.items():
        for link in links:
            linked_from.setdefault(link, page)
    for url, page in linked_from.items():
        node = crawl.nodes.get(url)
        if node is None or not node.indexable or url in listed:
            continue
        yield finding("page-not-listed", url, page=quoted(page))


def canonical_findings(crawl: Crawl) -> Iterator[Finding]:
    """``canonical-not-ok``: a canonical that names a page that is not one."""
    for page, canonical in crawl.canonicals.items():
        chain = crawl.chain(canonical)
        end = chain.end
        if chain.loops or chain.too_long:
            what = f"redirects without end ({_path(chain)})"
        elif end is None:
            continue  # not fetched: another origin, robots.txt, the cap
        elif chain.redirects:
            what = f"redirects to {quoted(chain.target)}"
        elif end.status != 200:
            what = f"answers {end.status}"
        elif end.noindex:
            what = "says noindex"
        else:
            continue
        yield finding("canonical-not-ok", page, canonical=quoted(canonical), what=what)
