"""The app gunicorn serves in the generated images' process tests.

- ``MARMEON_TEST_DIR``: a directory; ``draws`` there gets one line per
  image drawn (the process's pid); while ``draw_mode`` there says ``hang``,
  a drawing waits (30 s at most).
- ``MARMEON_TEST_REDIS``: a Redis URL for ``sitemap_cache``; else none.
- ``MARMEON_TEST_SHARED``: ``1`` turns ``MARMEON_OG_IMAGES_SHARED`` on.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

from flask import Flask
from PIL import Image, ImageDraw

from flask_marmeon import Marmeon
from flask_marmeon.og_images import OgImageCard


def _hangs(path: Path) -> bool:
    try:
        return path.read_text().strip() == "hang"
    except FileNotFoundError:
        return False


def config() -> dict[str, object]:
    """What the test process and the workers share."""
    directory = Path(os.environ.get("MARMEON_TEST_DIR", "."))

    def draw(card: OgImageCard) -> Image.Image:
        with (directory / "draws").open("a") as log:
            log.write(f"{os.getpid()}\n")
        time.sleep(0.3)  # long enough for requests arriving together to meet
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and _hangs(directory / "draw_mode"):
            time.sleep(0.05)
        image = Image.new("RGB", (card.width, card.height), card.colors.background)
        ImageDraw.Draw(image).text((60, 60), card.title, fill=card.colors.title)
        return image

    return {
        "APP_URL": "https://notes.example",
        "SECRET_KEY": "shared by every worker",
        "MARMEON_OG_IMAGES": True,
        "MARMEON_OG_IMAGE_DRAW": draw,
        "MARMEON_OG_IMAGES_SHARED": os.environ.get("MARMEON_TEST_SHARED") == "1",
    }


def create() -> Flask:
    """Build the app from the environment."""
    app = Flask(__name__)
    app.config.update(config())
    cache = None
    if os.environ.get("MARMEON_TEST_REDIS"):
        from flask_caching import Cache

        cache = Cache(
            app,
            config={
                "CACHE_TYPE": "RedisCache",
                "CACHE_REDIS_URL": os.environ["MARMEON_TEST_REDIS"],
            },
        )
    Marmeon(app, sitemap_cache=cache)
    return app
