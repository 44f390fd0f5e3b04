"""Generated images: the app draws them itself."""

import io

from flask import Flask, render_template_string
from PIL import Image, ImageDraw, ImageFont

from flask_marmeon import Marmeon, OgImageCard, head


def draw(card: OgImageCard) -> Image.Image:
    """A white card with a colored bar and the title (texts come cut short)."""
    image = Image.new("RGB", (card.width, card.height), "white")
    canvas = ImageDraw.Draw(image)
    canvas.rectangle((0, 0, 40, card.height), fill=card.colors.accent)
    font = ImageFont.load_default(size=64)
    canvas.text((100, 120), card.site_name, fill="gray", font=font)
    canvas.text((100, 260), card.title, fill="black", font=font)
    return image


app = Flask(__name__)
app.config.update(
    APP_URL="https://notes.example",
    SECRET_KEY="change me",
    MARMEON_OG_IMAGES=True,
    MARMEON_OG_IMAGE_DRAW=draw,
)
Marmeon(app)


@app.get("/")
def home() -> str:
    head(title="Home", open_graph={"site_name": "Notes"})
    return render_template_string("<head>{{ render_head() }}</head>")


client = app.test_client()
html = client.get("/").text
start = html.index("/marmeon-og/")
image = client.get(html[start : html.index('"', start)])
assert Image.open(io.BytesIO(image.data)).getpixel((600, 10)) == (255, 255, 255)
