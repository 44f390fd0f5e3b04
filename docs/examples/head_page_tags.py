"""The rest of a page's head: icons, theme color, manifest, feeds,
verification, fb:app_id, other names, and a product."""

from decimal import Decimal

from flask import Flask

from flask_marmeon import Marmeon, head, render_head

app = Flask(__name__)
app.config["APP_URL"] = "https://shop.example"
Marmeon(app)


@app.before_request
def layout() -> None:
    # Set once for every page, in a layout.
    head(
        icons=[
            "/favicon.ico",
            {"url": "/icon.svg", "type": "image/svg+xml", "sizes": "any"},
            {"url": "/apple-touch-icon.png", "rel": "apple-touch-icon"},
            {"url": "/mask.svg", "rel": "mask-icon", "color": "#5bbad5"},
        ],
        theme_color=[
            {"color": "#ffffff", "media": "(prefers-color-scheme: light)"},
            {"color": "#111111", "media": "(prefers-color-scheme: dark)"},
        ],
        manifest="/site.webmanifest",
        feeds=[{"url": "/feed.xml", "type": "application/rss+xml", "title": "News"}],
        verification={"google": "g-proof", "bing": "b-proof"},
        facebook={"app_id": "1234567890"},
        other={"format-detection": "telephone=no"},
    )


@app.get("/products/<int:product_id>")
def product(product_id: int) -> str:
    head(
        title="Lamp",
        open_graph={
            "type": "product",
            "product": {
                "price": {"amount": Decimal("49.90"), "currency": "EUR"},
                "availability": "in stock",
                "condition": "new",
                "brand": "Acme",
                "retailer_item_id": f"SKU-{product_id}",
            },
        },
        # Key by key over the layout's: this page's own color scheme name.
        other={"color-scheme": "light dark"},
    )
    return f"<!doctype html><html><head>{render_head()}</head></html>"


html = app.test_client().get("/products/7").text
for tag in (
    '<link rel="icon" href="https://shop.example/favicon.ico" data-marmeon>',
    '<link rel="icon" href="https://shop.example/icon.svg" type="image/svg+xml"'
    ' sizes="any" data-marmeon>',
    '<link rel="apple-touch-icon" href="https://shop.example/apple-touch-icon.png"',
    '<link rel="mask-icon" href="https://shop.example/mask.svg" color="#5bbad5"',
    '<meta name="theme-color" content="#111111" media="(prefers-color-scheme: dark)"',
    '<link rel="manifest" href="https://shop.example/site.webmanifest"',
    '<link rel="alternate" type="application/rss+xml"'
    ' href="https://shop.example/feed.xml" title="News"',
    '<meta name="google-site-verification" content="g-proof"',
    '<meta name="msvalidate.01" content="b-proof"',
    '<meta name="format-detection" content="telephone=no"',
    '<meta name="color-scheme" content="light dark"',
    '<meta property="og:type" content="product"',
    '<meta property="product:price:amount" content="49.90"',
    '<meta property="product:price:currency" content="EUR"',
    '<meta property="product:availability" content="in stock"',
    '<meta property="product:retailer_item_id" content="SKU-7"',
    '<meta property="fb:app_id" content="1234567890"',
):
    assert tag in html, tag

with app.test_request_context("/"):
    # other= refuses a name the head writes itself, naming the argument.
    try:
        head(other={"theme-color": "#000"})
    except TypeError as error:
        assert "head(theme_color=...)" in str(error)
    else:
        raise AssertionError("other= took a name the head writes")
    # A line break in a name or a text is refused.
    try:
        head(other={"rating": "adult\nrefresh"})
    except ValueError as error:
        assert "line break" in str(error)
    else:
        raise AssertionError("other= took a line break")
    # Another host through a relative spelling is left out, as every URL is.
    head(icons="//elsewhere.example/favicon.ico")
    assert "elsewhere" not in render_head()
