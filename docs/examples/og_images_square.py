"""Generated images: a square card for a summary, and a rotated key."""

import io
import re

from flask import Flask, render_template_string
from PIL import Image

from flask_marmeon import Marmeon, head


def create_app(secret_key: str, fallbacks: list[str]) -> Flask:
    app = Flask(__name__)
    app.config.update(
        APP_URL="https://notes.example",
        SECRET_KEY=secret_key,
        SECRET_KEY_FALLBACKS=fallbacks,  # old keys: published images still draw
        MARMEON_OG_IMAGES=True,
        MARMEON_OG_IMAGES_MEMORY=16 * 1024 * 1024,  # bytes of images kept
    )
    Marmeon(app)

    @app.get("/")
    def home() -> str:
        head(
            title="Sourdough in three days",
            open_graph={"site_name": "Notes"},
            twitter={"card": "summary"},  # shown square: a square card of its own
        )
        return render_template_string("<head>{{ render_head() }}</head>")

    return app


def image(app: Flask, html: str, key: str) -> Image.Image:
    url = re.search(f'"{key}" content="([^"]+)"', html)
    assert url is not None
    path = url.group(1).removeprefix("https://notes.example")
    return Image.open(io.BytesIO(app.test_client().get(path).data))


before = create_app("the old key", [])
html = before.test_client().get("/").text
assert image(before, html, "og:image").size == (1200, 630)
assert image(before, html, "twitter:image").size == (630, 630)

# After the key changes, the addresses published before still draw.
after = create_app("the new key", ["the old key"])
assert image(after, html, "twitter:image").size == (630, 630)
