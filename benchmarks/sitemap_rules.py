"""What the number of an app's routes costs a sitemap build.

An app of 2N routes: N with an int argument (every other one in a
localized blueprint, APP_LOCALES en and de), M of those marked with a
one-entry provider, and N plain pages. A build compiles each marked rule
against every route that could take its addresses (sitemap/overlaps.py),
so its cost grows with routes x marked rules; this prints the CPU time of
one /sitemap.xml build (median of the rounds, the cache cleared each time).

    python benchmarks/sitemap_rules.py [--routes N] [--marked M] [--rounds R]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

from flask import Blueprint, Flask

from flask_marmeon import Marmeon, SitemapEntry, everyone, localized
from flask_marmeon.sitemap.state import sitemap_of


def site(routes: int, marked: int) -> Callable[[], None]:
    """The app's build, as a call: the cache cleared, /sitemap.xml asked."""
    app = Flask("sitemap_rules_bench")
    app.config["APP_URL"] = "https://notes.example"
    app.config["APP_LOCALES"] = ["en", "de"]
    # A loaded machine must not turn a slow build into a 503.
    app.config["MARMEON_SITEMAP_WAIT"] = 600
    Marmeon(app)
    docs = localized(Blueprint("docs", __name__))

    def one() -> list[SitemapEntry]:
        return [SitemapEntry(params={"x": 1})]

    for n in range(routes):
        options = {"sitemap": one, "authorize": everyone} if n < marked else {}
        (docs if n % 2 else app).get(f"/s{n}/<int:x>", endpoint=f"s{n}", **options)(
            lambda x: ""
        )
        app.get(f"/plain{n}/about", endpoint=f"p{n}")(lambda: "")
    app.register_blueprint(docs)
    client = app.test_client()
    client.get("/robots.txt")  # the start-up checks, once
    cache = sitemap_of(app).cache

    def run() -> None:
        # The last build's thread may still be ending: a clear() before it
        # ends leaves the next request without files and without a build.
        cache.join(600)
        cache.clear()
        assert client.get("/sitemap.xml").status_code == 200

    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--routes", type=int, default=200)
    parser.add_argument("--marked", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    run = site(args.routes, args.marked)
    run()  # warm-up
    times = []
    for _ in range(args.rounds):
        start = time.process_time()
        run()
        times.append(time.process_time() - start)
    print(
        f"{2 * args.routes} routes, {args.marked} marked: a build takes"
        f" {statistics.median(times) * 1000:.0f} ms of CPU time"
        f" (median of {args.rounds})"
    )


if __name__ == "__main__":
    main()
