"""Generated Open Graph images: drawing, serving, and what they cost a page.

1. Drawing: every image of a set of varied titles (short and long, Latin,
   Cyrillic, and, when Debian's Noto fonts are installed, Arabic, Hebrew,
   Devanagari, CJK and emoji) drawn and encoded as PNG, each a new address;
   the p95 of the wall time and of the process's CPU time per image. Then
   the p95 per kind of text, without configured fonts: plain Latin, CJK,
   Arabic, and text stacked with combining marks (20 on each letter).
2. Serving an image already drawn: GET through the WSGI app (the edge's
   endpoint: the address checked, the process's store), median and p95.
3. A page that names a generated image (``OgImage()``) against the same
   page with a fixed image URL, same app, production mode (the head's memo
   on), alternating rounds; the ratio of the medians of the same run.

    python benchmarks/og_images.py [--rounds N] [--requests N]

Targets (issue 19): p95 drawing at most 100 ms, serving at most 2 ms, the
page at most 1.05 times the page with a fixed image URL.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from typing import Any

from flask import Flask, render_template_string
from werkzeug.test import EnvironBuilder

from flask_marmeon import Marmeon, OgImage, head
from flask_marmeon.og_images.address import texts_of, token_of
from flask_marmeon.og_images.generator import image_path, render_png, signer_of
from flask_marmeon.og_images.state import og_images_of

NOTO = "/usr/share/fonts/truetype/noto"
NOTO_CJK = "/usr/share/fonts/opentype/noto"
SCRIPT_FONTS = {
    "arabic": (f"{NOTO}/NotoSansArabic-Regular.ttf", f"{NOTO}/NotoSansArabic-Bold.ttf"),
    "hebrew": (f"{NOTO}/NotoSansHebrew-Regular.ttf", f"{NOTO}/NotoSansHebrew-Bold.ttf"),
    "devanagari": (
        f"{NOTO}/NotoSansDevanagari-Regular.ttf",
        f"{NOTO}/NotoSansDevanagari-Bold.ttf",
    ),
    "cjk": (f"{NOTO_CJK}/NotoSansCJK-Regular.ttc", f"{NOTO_CJK}/NotoSansCJK-Bold.ttc"),
    "emoji": (f"{NOTO}/NotoColorEmoji.ttf", f"{NOTO}/NotoColorEmoji.ttf"),
}

LATIN = [
    "Hello",
    "Release notes for version 2.4",
    "How we cut our build times in half with a shared cache",
    "A much longer title that goes on and on, about caches, builds, queues,"
    " workers and everything else that made the year interesting for us",
    "x" * 10_000,
]
OTHER = [
    "Как мы сократили время сборки вдвое",
    "Ελληνικά: ένας σύντομος τίτλος",
]
SCRIPTS = [
    "كيف خفضنا وقت البناء إلى النصف باستخدام ذاكرة مشتركة",
    "איך קיצרנו את זמן הבנייה בחצי",
    "हमने बिल्ड का समय आधा कैसे किया",
    "共有キャッシュでビルド時間を半分にした方法",
    "Release party 🎉🚀 for everyone 👨\u200d👩\u200d👧",
]
#: The kinds of text whose p95 drawing time is printed (issue 28): each
#: drawn without MARMEON_OG_IMAGE_FONTS, as a fresh install would (Arabic
#: ships with the package, CJK comes from the machine's fonts).
_MARKS = [chr(code) for code in range(0x300, 0x370)]


def _stacked(seed: int) -> str:
    chooser = random.Random(seed)
    return "".join(
        chooser.choice("abcdefghij ")
        + "".join(chooser.choice(_MARKS) for _ in range(20))
        for _ in range(400)
    )


KINDS = {
    "plain": LATIN[:4],
    "CJK": [
        "共有キャッシュでビルド時間を半分にした方法",
        "我们如何用共享缓存把构建时间减半，以及其他出人意料的改变",
        "공유 캐시로 빌드 시간을 절반으로 줄인 방법",
    ],
    "Arabic": [
        "كيف خفضنا وقت البناء إلى النصف باستخدام ذاكرة مشتركة",
        "ملاحظات الإصدار ٢٫٤: كل ما تغير في هذا العام",
    ],
    "stacked marks": [_stacked(seed) for seed in range(3)],
}

DESCRIPTION = "A walk through the changes that took our CI from twenty minutes to nine."


def make_app(fonts: bool) -> Flask:
    app = Flask("bench")
    app.config.update(
        APP_URL="https://notes.example",
        SECRET_KEY="benchmark",
        MARMEON_OG_IMAGES=True,
        MARMEON_BROWSER_SCRIPT=False,
    )
    if fonts:
        app.config["MARMEON_OG_IMAGE_FONTS"] = SCRIPT_FONTS
    Marmeon(app)
    return app


def p95(values: list[float]) -> float:
    return statistics.quantiles(values, n=20)[-1]


def drawing(
    app: Flask, titles: list[str], rounds: int
) -> tuple[list[float], list[float]]:
    og = og_images_of(app)
    signer = signer_of(og, app.secret_key)
    assert signer is not None
    wall: list[float] = []
    cpu: list[float] = []
    for n in range(rounds):
        for title in titles:
            with app.test_request_context("/"):
                path = image_path(
                    og,
                    app.secret_key,
                    (f"{title} {n}", DESCRIPTION, "Notes"),
                    page_path="/",
                )
            assert path is not None
            texts = texts_of(signer, token_of(path) or "")
            assert texts is not None
            started, started_cpu = time.perf_counter(), time.process_time()
            render_png(og, texts)
            wall.append(time.perf_counter() - started)
            cpu.append(time.process_time() - started_cpu)
    return wall, cpu


def call(app: Flask, environ: dict[str, Any]) -> bytes:
    chunks: list[bytes] = []

    def start(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
        assert status.startswith(("200", "304")), status
        return chunks.append

    body = app.wsgi_app(dict(environ), start)  # type: ignore[arg-type]
    data = b"".join([*chunks, *body])
    close = getattr(body, "close", None)
    if close is not None:
        close()
    return data


def serving(app: Flask, requests: int) -> list[float]:
    og = og_images_of(app)
    with app.test_request_context("/"):
        path = image_path(
            og, app.secret_key, ("Served", DESCRIPTION, "Notes"), page_path="/"
        )
    assert path is not None
    environ = EnvironBuilder(path=path, base_url="https://notes.example").get_environ()
    call(app, environ)  # drawn once
    times = []
    for _ in range(requests):
        started = time.perf_counter()
        call(app, environ)
        times.append(time.perf_counter() - started)
    return times


PAGE = (
    "<!DOCTYPE html><html lang=en><head><meta charset=utf-8>{{ render_head() }}"
    "</head><body><h1>{{ title }}</h1><p>{{ text }}</p></body></html>"
)


def page_app() -> Flask:
    app = make_app(fonts=False)

    @app.before_request
    def layout() -> None:
        head(
            title_template="%s · Notes",
            open_graph={"site_name": "Notes", "type": "article"},
            twitter={"card": "summary_large_image"},
        )

    def page(image: Any, card: Any) -> str:
        title = "How we cut our build times in half"
        head(
            title=title,
            description=DESCRIPTION,
            open_graph={"image": image},
            twitter={"image": card},
        )
        return render_template_string(PAGE, title=title, text=DESCRIPTION)

    @app.route("/fixed")
    def fixed() -> str:
        cover = "/static/cover.png"
        return page({"url": cover, "width": 1200, "height": 630, "alt": "x"}, cover)

    @app.route("/generated")
    def generated() -> str:
        return page(OgImage(), OgImage())

    return app


def rendering(requests: int, rounds: int) -> tuple[float, float]:
    app = page_app()
    environs = {
        name: EnvironBuilder(
            path=f"/{name}", base_url="https://notes.example"
        ).get_environ()
        for name in ("fixed", "generated")
    }
    page = call(app, environs["generated"])
    assert b"/marmeon-og/" in page, page
    medians: dict[str, list[float]] = {"fixed": [], "generated": []}
    for _ in range(rounds):
        for name, environ in environs.items():
            for _ in range(50):
                call(app, environ)
            started = time.perf_counter()
            for _ in range(requests):
                call(app, environ)
            medians[name].append((time.perf_counter() - started) / requests)
    return statistics.median(medians["fixed"]), statistics.median(medians["generated"])


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--requests", type=int, default=2000)
    args = parser.parse_args(argv)
    fonts = all(os.path.exists(p) for pair in SCRIPT_FONTS.values() for p in pair)
    app = make_app(fonts)
    titles = LATIN + OTHER + (SCRIPTS if fonts else [])
    drawing(app, titles[:2], 1)  # fonts loaded, caches warm
    wall, cpu = drawing(app, titles, max(3, args.rounds))
    print(f"Drawing ({len(wall)} images, {len(titles)} titles, script fonts: {fonts}):")
    for name, values in (("wall", wall), ("CPU ", cpu)):
        middle = statistics.median(values) * 1000
        print(f"  {name} p95 {p95(values) * 1000:6.1f} ms  median {middle:6.1f} ms")
    print(f"  target p95 <= 100 ms: {'met' if p95(wall) <= 0.1 else 'NOT met'} (wall)")
    plain_app = make_app(fonts=False)
    drawing(plain_app, KINDS["plain"][:1] + KINDS["CJK"][:1], 1)  # fonts found
    print("Drawing by kind of text (no fonts configured), p95 wall / CPU:")
    for kind, texts in KINDS.items():
        wall, cpu = drawing(plain_app, texts, max(3, args.rounds))
        print(
            f"  {kind:14} p95 {p95(wall) * 1000:6.1f} ms / {p95(cpu) * 1000:6.1f} ms"
            f"  ({len(wall)} images)  target p95 <= 100 ms:"
            f" {'met' if p95(wall) <= 0.1 else 'NOT met'} (wall)"
        )
    served = serving(app, args.requests)
    print(f"Serving a drawn image ({len(served)} requests):")
    middle = statistics.median(served) * 1000
    print(
        f"  median {middle:6.3f} ms  p95 {p95(served) * 1000:6.3f} ms"
        f"  target <= 2 ms: {'met' if p95(served) <= 0.002 else 'NOT met'} (p95)"
    )
    fixed, generated = rendering(args.requests // 4, args.rounds)
    ratio = generated / fixed
    print("A page naming a generated image vs a fixed image URL (same run):")
    print(
        f"  fixed {fixed * 1e6:7.1f} us  generated {generated * 1e6:7.1f} us"
        f"  ratio {ratio:.3f}  target <= 1.05: {'met' if ratio <= 1.05 else 'NOT met'}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
