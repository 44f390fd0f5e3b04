"""Generated images: the app's colors, logo and fonts."""

import os
import tempfile

from flask import Flask
from PIL import Image

from flask_marmeon import Marmeon, check_routes

static = tempfile.mkdtemp()  # your app's static folder
Image.new("RGBA", (160, 160), (56, 189, 248, 255)).save(
    os.path.join(static, "logo.png")
)

app = Flask(__name__, static_folder=static)
app.config.update(
    APP_URL="https://notes.example",
    SECRET_KEY="change me",
    MARMEON_OG_IMAGES=True,
    MARMEON_OG_IMAGE_COLORS={
        "background": "#fffbeb",
        "title": "#1c1917",
        "text": "#44403c",
        "accent": "#d97706",
    },
    MARMEON_OG_IMAGE_LOGO="logo.png",  # in the static folder
    MARMEON_OG_IMAGE_FONTS={
        # Debian: apt-get install fonts-noto-core fonts-noto-cjk
        "arabic": (
            "/usr/share/fonts/truetype/noto/NotoSansArabic-Regular.ttf",
            "/usr/share/fonts/truetype/noto/NotoSansArabic-Bold.ttf",
        ),
        "cjk": (
            "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
            "/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc",
        ),
    },
)
Marmeon(app)
assert check_routes(app) == []  # the logo and every font can be read

# A file that cannot be read is a start-up problem that names it.
broken = Flask(__name__, static_folder=static)
broken.config.update(SECRET_KEY="x", MARMEON_OG_IMAGE_LOGO="missing.png")
Marmeon(broken)
[problem] = check_routes(broken)
assert "missing.png" in problem.reason
