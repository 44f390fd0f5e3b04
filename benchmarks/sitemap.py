"""What a 50,000-URL /sitemap.xml costs, against Django, Flask-Sitemap and
flask-sitemapper on the same URLs.

Every contender serves ``/sitemap.xml`` for one parametrized route
(``/notes/<int:note_id>``) whose provider yields 50,000 entries, each with a
date, through its framework's test client, with a fresh cache every round.
flask_marmeon's time includes its 404 checks of every address. Each file is
checked: it must hold every one of the 50,000 URLs, each with its own date,
and nothing else. The rounds take turns (one of each contender, then the
next), so a busy moment of the machine falls on all of them alike.

A pure-Python floor runs right after flask_marmeon in every turn: the same
file from one f-string per URL, joined and encoded, with no framework,
request or check. flask_marmeon's time over the floor's, taken turn by turn
(the two a few milliseconds apart, so a slow moment of the machine falls on
both), says what all the rest costs; a second flask_marmeon, whose provider
hands over the same 50,000 entries made beforehand, says how much of that is
the provider's own ``SitemapEntry(...)`` calls, which the floor does not
make. Each one's page faults per round are printed beside it: the floor's
time moves with them (a fresh 4 MB from the system costs about as much as
writing it), and they depend on what ran before in the process.

Peak memory of flask_marmeon's build is measured apart (tracemalloc slows
Python down), against the size of the file.

    pip install -e '.[dev,bench]'
    python benchmarks/sitemap.py [--urls N] [--rounds N]

Targets: at least 5 times faster than the fastest of the others, and a peak
under 3 times the size of the file.
"""

from __future__ import annotations

import argparse
import re
import resource
import statistics
import sys
import time
import tracemalloc
import types
from collections.abc import Callable, Iterator
from datetime import date, timedelta
from typing import Any, NamedTuple

from flask import Flask

from flask_marmeon import Marmeon, SitemapEntry, everyone
from flask_marmeon.sitemap.state import sitemap_of

ORIGIN = "https://notes.example"
# One <url>: its loc, its lastmod if any, and its links (the contenders lay
# their XML out differently; all of them write the elements in this order).
_URL = re.compile(
    rb"<url>\s*<loc>\s*([^<\s]+)\s*</loc>\s*"
    rb"(?:<lastmod>\s*([^<\s]+)\s*</lastmod>\s*)?"
    rb"((?:<xhtml:link\b[^>]*/>\s*)*)</url>"
)
_HREFLANG = re.compile(rb'\bhreflang="([^"]*)"')
_HREF = re.compile(rb'\bhref="([^"]*)"')


#: Django's settings for its sitemaps, in every Django app measured here.
DJANGO: dict[str, object] = {
    "DEBUG": False,
    "ALLOWED_HOSTS": ["notes.example"],
    "INSTALLED_APPS": ["django.contrib.sitemaps"],
    "TEMPLATES": [
        {
            "BACKEND": "django.template.backends.django.DjangoTemplates",
            "APP_DIRS": True,
        }
    ],
    "USE_TZ": True,
    "DATABASES": {},
}


def cold_sitemap(app: Flask) -> Callable[[], bytes]:
    """GET /sitemap.xml through the test client with the sitemap's cache
    emptied first: a build each call (the start-up checks done once before,
    as in production)."""
    client = app.test_client()
    client.get("/robots.txt")
    cache = sitemap_of(app).cache

    def run() -> bytes:
        cache.clear()
        return client.get("/sitemap.xml").data

    return run


def note_dates(count: int) -> list[date]:
    start = date(2024, 1, 1)
    return [start + timedelta(days=n % 700) for n in range(count)]


def fail(
    name: str, body: bytes, found: list[Any], expected: list[Any], what: str
) -> None:
    """Stop the benchmark: ``name``'s file is not the expected one."""
    wrong = next(
        (
            f"; wrote {a!r} where {b!r} was expected"
            for a, b in zip(found, expected, strict=False)
            if a != b
        ),
        "",
    )
    raise SystemExit(
        f"{name} wrote {body.count(b'<url>')} URLs; expected exactly"
        f" {len(expected)}, {what}{wrong}"
    )


def check(name: str, body: bytes, dates: list[date]) -> None:
    """Fail unless ``body`` names /notes/1 ... /notes/<count> at ORIGIN, each
    once with its date, and nothing else."""
    found = sorted((loc, day) for loc, day, _ in _URL.findall(body))
    expected = sorted(
        (f"{ORIGIN}/notes/{n}".encode(), day.isoformat().encode())
        for n, day in enumerate(dates, start=1)
    )
    if found != expected or body.count(b"<url>") != len(expected):
        fail(name, body, found, expected, "each with its date")


# -- flask_marmeon -------------------------------------------------------------


def marmeon(
    count: int, dates: list[date], *, index: bool = False, made: bool = False
) -> tuple[Callable[[], bytes], Flask]:
    """flask_marmeon's /sitemap.xml; ``made``: the provider returns entries
    made once, beforehand, instead of making them on each build."""
    app = Flask("marmeon_bench")
    app.config["APP_URL"] = ORIGIN
    app.config["MARMEON_SITEMAP_MAX_URLS"] = 50_000 if index else max(count, 50_000)
    app.config["MARMEON_SITEMAP_INDEX"] = index
    Marmeon(app)

    def note_pages() -> Iterator[SitemapEntry]:
        for note_id in range(1, count + 1):
            yield SitemapEntry(
                params={"note_id": note_id}, last_modified=dates[note_id - 1]
            )

    entries = list(note_pages()) if made else []

    @app.get(
        "/notes/<int:note_id>",
        sitemap=(lambda: entries) if made else note_pages,
        authorize=everyone,
    )
    def show(note_id: int) -> str:
        return f"note {note_id}"

    return cold_sitemap(app), app


#: flask_marmeon again, its provider's entries made once, beforehand.
MADE = "  made beforehand"
FLOOR = "pure-Python floor"


# -- the floor -----------------------------------------------------------------


def floor(count: int, dates: list[date]) -> Callable[[], bytes]:
    """The same file written by the least pure Python can do: one f-string
    per URL, joined and encoded, no framework, no request and no checks.
    flask_marmeon's time over this one says what everything else costs."""

    def run() -> bytes:
        urls = [
            f"<url><loc>{ORIGIN}/notes/{n}</loc><lastmod>{day.isoformat()}"
            "</lastmod></url>"
            for n, day in enumerate(dates[:count], start=1)
        ]
        return (
            '<?xml version="1.0" encoding="UTF-8"?>\n<urlset'
            ' xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
            + "".join(urls)
            + "</urlset>\n"
        ).encode()

    return run


# -- Flask-Sitemap -------------------------------------------------------------


def flask_sitemap(count: int, dates: list[date]) -> Callable[[], bytes]:
    from flask_sitemap import Sitemap

    app = Flask("flask_sitemap_bench")
    # One file: Flask-Sitemap writes an index once a file would be full.
    app.config["SITEMAP_MAX_URL_COUNT"] = count + 1
    app.config["SERVER_NAME"] = "notes.example"
    app.config["SITEMAP_URL_SCHEME"] = "https"
    sitemap = Sitemap(app=app)

    @app.get("/notes/<int:note_id>")
    def show(note_id: int) -> str:
        return f"note {note_id}"

    @sitemap.register_generator
    def notes() -> Iterator[tuple[str, dict[str, Any], str]]:
        for note_id in range(1, count + 1):
            yield "show", {"note_id": note_id}, dates[note_id - 1].isoformat()

    client = app.test_client()
    return lambda: client.get("/sitemap.xml").data


# -- flask-sitemapper ----------------------------------------------------------


def flask_sitemapper(count: int, dates: list[date]) -> Callable[[], bytes]:
    from flask_sitemapper import Sitemapper

    app = Flask("flask_sitemapper_bench")
    app.config["SERVER_NAME"] = "notes.example"
    sitemapper = Sitemapper(app=app)

    # Callables: flask-sitemapper then builds the file on every request.
    @sitemapper.include(
        url_variables=lambda: {"note_id": list(range(1, count + 1))},
        lastmod=lambda: [d.isoformat() for d in dates[:count]],
    )
    @app.get("/notes/<int:note_id>")
    def show(note_id: int) -> str:
        return f"note {note_id}"

    @app.get("/sitemap.xml")
    def sitemap() -> Any:
        return sitemapper.generate()

    client = app.test_client()
    return lambda: client.get("/sitemap.xml").data


# -- Django --------------------------------------------------------------------


def django_sitemaps(count: int, dates: list[date]) -> Callable[[], bytes]:
    import django
    from django.conf import settings
    from django.contrib.sitemaps import Sitemap
    from django.contrib.sitemaps.views import sitemap
    from django.test import Client
    from django.urls import path

    class NoteSitemap(Sitemap):  # type: ignore[type-arg]
        limit = max(count, 50_000)
        protocol = "https"

        def items(self) -> list[int]:
            return list(range(1, count + 1))

        def location(self, item: int) -> str:
            return f"/notes/{item}"

        def lastmod(self, item: int) -> date:
            return dates[item - 1]

    urls = types.ModuleType("sitemap_bench_urls")
    urls.urlpatterns = [  # type: ignore[attr-defined]
        path("sitemap.xml", sitemap, {"sitemaps": {"notes": NoteSitemap}}),
    ]
    sys.modules[urls.__name__] = urls
    if not settings.configured:
        settings.configure(**DJANGO, ROOT_URLCONF=urls.__name__)
        django.setup()
    client = Client(HTTP_HOST="notes.example")
    return lambda: client.get("/sitemap.xml").content


# -- running -------------------------------------------------------------------


class Timed(NamedTuple):
    """A contender's rounds: seconds and page faults of each, its last body."""

    times: list[float]
    faults: list[int]
    body: bytes


def timed(contenders: dict[str, tuple[Callable[[], bytes], int]]) -> dict[str, Timed]:
    """Each contender's times and page faults (``rounds`` of its own) and
    last body; the rounds take turns in the order given, after one warm-up
    each (imports, templates, first-request work)."""
    results = {name: Timed([], [], run()) for name, (run, _) in contenders.items()}
    for turn in range(max(rounds for _, rounds in contenders.values())):
        for name, (run, rounds) in contenders.items():
            if turn < rounds:
                faults = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
                start = time.perf_counter()
                body = run()
                results[name].times.append(time.perf_counter() - start)
                results[name].faults.append(
                    resource.getrusage(resource.RUSAGE_SELF).ru_minflt - faults
                )
                results[name] = results[name]._replace(body=body)
    return results


def report(results: dict[str, Timed], urls: int) -> float:
    """Print each contender's median, its ratio to flask_marmeon's (see
    :func:`paired`) and its page faults per round; return flask_marmeon's
    median."""
    ours = statistics.median(results["flask_marmeon"].times)
    for name, (times, faults, body) in results.items():
        median = statistics.median(times)
        print(
            f"  {name:<18} {median:8.3f} s  {median / urls * 1e6:6.2f} us/URL"
            f"  {paired(results, name, 'flask_marmeon'):6.2f}x  (min"
            f" {min(times):.3f} s, {len(times)} round{'s' if len(times) > 1 else ''},"
            f" {len(body):,} bytes, {statistics.median(faults):,.0f} page faults"
            " a round)"
        )
    return ours


def paired(results: dict[str, Timed], name: str, base: str) -> float:
    """The median, over the turns, of ``name``'s time over ``base``'s in the
    same turn: a slow moment of the machine, which falls on one turn, moves
    a ratio of medians taken over different moments, not this one."""
    return statistics.median(
        mine / theirs
        for mine, theirs in zip(results[name].times, results[base].times, strict=False)
    )


def peak_memory(run: Callable[[], bytes]) -> tuple[int, int]:
    run()  # warm-up outside the measurement
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        body = run()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return peak, len(body)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--urls", type=int, default=50_000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument(
        "--localized",
        action="store_true",
        help="the localized variant: entries x 2 locales, against Django's i18n",
    )
    parser.add_argument(
        "--index",
        type=int,
        metavar="URLS",
        help="flask_marmeon alone: URLS (say 1000000) in index mode, time and memory",
    )
    args = parser.parse_args()
    if args.localized:
        main_localized(args.urls // 2, args.rounds)
        return
    if args.index:
        main_index(args.index, args.rounds)
        return
    count: int = args.urls
    dates = note_dates(count)

    run_marmeon, _ = marmeon(count, dates)
    run_made, _ = marmeon(count, dates, made=True)
    # The floor right after flask_marmeon, each turn: see paired().
    contenders = {
        "flask_marmeon": (run_marmeon, args.rounds),
        FLOOR: (floor(count, dates), args.rounds),
        MADE: (run_made, args.rounds),
    }
    for name, make in (
        ("Django sitemaps", django_sitemaps),
        ("Flask-Sitemap", flask_sitemap),
        ("flask-sitemapper", flask_sitemapper),
    ):
        contenders[name] = (make(count, dates), args.rounds)

    print(
        f"{count} URLs, {args.rounds} rounds taking turns, median seconds per"
        " /sitemap.xml and its ratio to flask_marmeon's"
    )
    results = timed(contenders)
    for name, result in results.items():
        check(name, result.body, dates)
    report(results, count)
    print(
        f"flask_marmeon takes {paired(results, 'flask_marmeon', FLOOR):.2f} times the"
        " pure-Python floor's time (the same file from one f-string per URL, no"
        " framework; the median of the turns' ratios, as every ratio here)"
    )
    made = paired(results, MADE, FLOOR)
    print(
        f"  with its provider's entries made beforehand, {made:.2f} times:"
        " the rest is the provider's own SitemapEntry(...) calls"
    )
    others = {
        name: paired(results, name, "flask_marmeon")
        for name in results
        if name not in ("flask_marmeon", FLOOR, MADE)
    }
    fastest_name = min(others, key=others.__getitem__)
    speedup = others[fastest_name]
    print(
        f"flask_marmeon is {speedup:.1f} times faster than the fastest other"
        f" ({fastest_name}); target at least 5: {'met' if speedup >= 5 else 'MISSED'}"
    )
    peak, size = peak_memory(run_marmeon)
    ratio = peak / size
    print(
        f"flask_marmeon peak memory {peak / 2**20:.1f} MiB for a file of"
        f" {size / 2**20:.1f} MiB: {ratio:.2f} times; target under 3:"
        f" {'met' if ratio < 3 else 'MISSED'}"
    )


# -- the localized variant -----------------------------------------------------
#
# python benchmarks/sitemap.py --localized [--urls N]: N/2 entries (25,000 by
# default) of a localized route in two locales, so N <url> elements with three
# links each (both versions and x-default), against Django's sitemaps with
# i18n, alternates and x_default on the same URLs, the only peer that writes
# alternates. Targets: at least 30 times faster than Django, and a peak under
# 3 times the size of the file. Django runs once after a warm-up (a round
# takes seconds); flask_marmeon's time is the median of --rounds.

LOCALES = ["en", "de-AT"]
_LINK = re.compile(rb"<xhtml:link\b[^>]*/>")


def check_localized(name: str, body: bytes, dates: list[date]) -> None:
    """Fail unless ``body`` names every note in each locale, each with its date
    and the links to both versions and x-default (hreflang in any case), and
    nothing else."""
    found = []
    for loc, day, links in _URL.findall(body):
        versions = frozenset(
            (_HREFLANG.findall(link)[0].lower(), _HREF.findall(link)[0])
            for link in _LINK.findall(links)
        )
        found.append((loc, day, versions, links.count(b"<xhtml:link")))
    expected = []
    for n, day in enumerate(dates, start=1):
        versions = frozenset(
            [
                *(
                    (tag.lower().encode(), f"{ORIGIN}/{tag.lower()}/notes/{n}".encode())
                    for tag in LOCALES
                ),
                (b"x-default", f"{ORIGIN}/notes/{n}".encode()),
            ]
        )
        for tag in LOCALES:
            loc = f"{ORIGIN}/{tag.lower()}/notes/{n}".encode()
            expected.append((loc, day.isoformat().encode(), versions, 3))
    found.sort()
    expected.sort()
    if found != expected or body.count(b"<url>") != len(expected):
        fail(name, body, found, expected, "each with its date and three links")


def marmeon_localized(count: int, dates: list[date]) -> Callable[[], bytes]:
    from flask import Blueprint

    from flask_marmeon import localized

    app = Flask("marmeon_localized_bench")
    app.config["APP_URL"] = ORIGIN
    app.config["APP_LOCALES"] = LOCALES
    app.config["MARMEON_SITEMAP_MAX_URLS"] = max(2 * count, 50_000)
    Marmeon(app)
    notes = localized(Blueprint("notes", __name__))

    def note_pages() -> Iterator[SitemapEntry]:
        for note_id in range(1, count + 1):
            yield SitemapEntry(
                params={"note_id": note_id}, last_modified=dates[note_id - 1]
            )

    @notes.get("/notes/<int:note_id>", sitemap=note_pages, authorize=everyone)
    def show(note_id: int) -> str:
        return f"note {note_id}"

    app.register_blueprint(notes)
    return cold_sitemap(app)


def django_localized(count: int, dates: list[date]) -> Callable[[], bytes]:
    import django
    from django.conf import settings
    from django.conf.urls.i18n import i18n_patterns
    from django.contrib.sitemaps import Sitemap
    from django.contrib.sitemaps.views import sitemap
    from django.http import HttpRequest, HttpResponse
    from django.test import Client
    from django.urls import path, reverse

    class NoteSitemap(Sitemap):  # type: ignore[type-arg]
        limit = max(2 * count, 50_000)
        protocol = "https"
        i18n = True
        languages = [locale.lower() for locale in LOCALES]
        alternates = True
        x_default = True

        def items(self) -> list[int]:
            return list(range(1, count + 1))

        def location(self, item: int) -> str:
            return reverse("show", args=[item])

        def lastmod(self, item: int) -> date:
            return dates[item - 1]

    def show(request: HttpRequest, note_id: int) -> HttpResponse:
        return HttpResponse(f"note {note_id}")

    urls = types.ModuleType("sitemap_bench_i18n_urls")
    sys.modules[urls.__name__] = urls
    # i18n_patterns reads the settings, so they come first.
    settings.configure(
        **DJANGO,
        ROOT_URLCONF=urls.__name__,
        USE_I18N=True,
        LANGUAGE_CODE="en",
        LANGUAGES=[(locale.lower(), locale) for locale in LOCALES],
    )
    django.setup()
    urls.urlpatterns = [  # type: ignore[attr-defined]
        path("sitemap.xml", sitemap, {"sitemaps": {"notes": NoteSitemap}}),
        *i18n_patterns(path("notes/<int:note_id>", show, name="show")),
    ]
    client = Client(HTTP_HOST="notes.example")
    return lambda: client.get("/sitemap.xml").content


def main_localized(count: int, rounds: int) -> None:
    dates = note_dates(count)
    run_marmeon = marmeon_localized(count, dates)
    run_django = django_localized(count, dates)
    print(
        f"{count} entries x {len(LOCALES)} locales = {2 * count} URLs with 3 links"
        " each, seconds per /sitemap.xml"
    )
    results = timed(
        {"flask_marmeon": (run_marmeon, rounds), "Django sitemaps": (run_django, 1)}
    )
    for name, result in results.items():
        check_localized(name, result.body, dates)
    ours = report(results, 2 * count)
    # Django runs once: its time over flask_marmeon's median.
    speedup = statistics.median(results["Django sitemaps"].times) / ours
    print(
        f"flask_marmeon is {speedup:.1f} times faster than Django;"
        f" target at least 30: {'met' if speedup >= 30 else 'MISSED'}"
    )
    peak, size = peak_memory(run_marmeon)
    ratio = peak / size
    print(
        f"flask_marmeon peak memory {peak / 2**20:.1f} MiB for a file of"
        f" {size / 2**20:.1f} MiB: {ratio:.2f} times; target under 3:"
        f" {'met' if ratio < 3 else 'MISSED'}"
    )


# -- index mode ----------------------------------------------------------------
#
# python benchmarks/sitemap.py --index 1000000: the build alone (no request,
# no peer writes an index of this size), its median time over --rounds and
# its peak memory against the size of all its files. Targets: about a
# second, and a peak under 2 times the files' size.


def main_index(count: int, rounds: int) -> None:
    from flask_marmeon.sitemap.build import build_sitemap

    dates = note_dates(count)
    _, app = marmeon(count, dates, index=True)
    build_sitemap(app)  # warm-up
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        sitemap = build_sitemap(app)
        times.append(time.perf_counter() - start)
    size = sum(len(file.body) for file in sitemap.files) + len(sitemap.index or b"")
    urls = sum(file.urls for file in sitemap.files)
    if urls != count:
        raise SystemExit(f"the index lists {urls} URLs; expected {count}")
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        sitemap = build_sitemap(app)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    median = statistics.median(times)
    print(
        f"{count:,} URLs in index mode: {len(sitemap.files)} files, {size / 2**20:.1f}"
        f" MiB; build {median:.2f} s median (min {min(times):.2f} s, {rounds} rounds),"
        f" {median / count * 1e6:.2f} us/URL; peak memory {peak / 2**20:.1f} MiB,"
        f" {peak / size:.2f} times the files"
    )


if __name__ == "__main__":
    main()
