"""The small site that the browser tests visit: two localized pages and one
with hostile URLs, its head written by head() and render_head().

htmx and Turbo are served from tests/browser/node_modules (npm ci), never
from a copy in the repository.
"""

from __future__ import annotations

import secrets
from pathlib import Path
from typing import Any

from flask import Blueprint, Flask, g, render_template_string, send_file
from flask.typing import ResponseReturnValue
from markupsafe import Markup
from werkzeug.wrappers import Response

from flask_marmeon import Marmeon
from flask_marmeon.head import head
from flask_marmeon.i18n import current_page, localized

NODE_MODULES = Path(__file__).parent / "node_modules"
VENDOR = {
    "htmx.js": NODE_MODULES / "htmx.org" / "dist" / "htmx.min.js",
    "turbo.js": NODE_MODULES / "@hotwired" / "turbo" / "dist" / "turbo.es2017-esm.js",
}

#: Text that must stay text in a JSON-LD block: it would end the script and
#: run code if the block were ever parsed as HTML.
HOSTILE_TEXT = '</script><img src=x onerror="window.pwned=1"><!-- &amp; -->'

TEXT = {
    "en": {"about": ("About us", "Who we are."), "contact": ("Contact", "Write.")},
    "de": {"about": ("Über uns", "Wer wir sind."), "contact": ("Kontakt", "Schreib.")},
}

PAGE = """<!doctype html>
<html lang="{{ lang }}">
<head>
<meta charset="utf-8">
{%- if trusted_types %}
<script{{ nonce_attr }}>
trustedTypes.createPolicy("default", {createHTML: (html) => html})
</script>
{%- endif %}
<meta name="app-own" content="written by the app">
{% if own_head %}<title>{{ heading }}</title>{% else %}{{ render_head() }}{% endif %}
{%- if router == "htmx-nocache" %}
<meta name="htmx-config" content='{"historyCacheSize": 0}'>
{%- endif %}
{%- if router.startswith("htmx") %}
<script src="/vendor/htmx.js"{{ nonce_attr }}></script>
{%- elif router == "turbo" %}
<script type="module" src="/vendor/turbo.js"{{ nonce_attr }}></script>
{%- endif %}
</head>
<body{% if router.startswith("htmx") %} hx-boost="true"{% endif %}>
<h1 id="heading">{{ heading }}</h1>
<a id="to-about" href="{{ url_for('pages.about') }}">about</a>
<a id="to-contact" href="{{ url_for('pages.contact') }}">contact</a>
<a id="to-own" href="/own">a page with a head of its own</a>
<a id="to-hostile-text" href="/hostile-text">hostile text</a>
{%- for alt in alternates %}
<a id="lang-{{ alt.locale }}" href="{{ alt.href }}">{{ alt.locale }}</a>
{%- endfor %}
</body>
</html>
"""


def make_site(
    *,
    app_url: str | None = None,
    debug: bool = False,
    router: str = "",
    csp: str | None = None,
    trusted_types: bool = False,
    icons: bool = True,
    **config: Any,
) -> Flask:
    """Build the site.

    ``router`` is "", ``"htmx"`` (boosted body), ``"htmx-nocache"`` (htmx
    without its history cache: back fetches the page) or ``"turbo"``. ``csp`` is
    a Content-Security-Policy whose ``{nonce}`` is filled in per response;
    the head's scripts carry that nonce. ``trusted_types`` sends
    ``require-trusted-types-for 'script'`` and gives the page the default
    policy a router needs to parse pages (HTML only: no script text passes).
    ``icons=False`` leaves the pages' icons out (the browser fetches an
    icon itself). Other keywords go into ``app.config``.
    """
    if trusted_types:
        csp = "script-src 'nonce-{nonce}'; require-trusted-types-for 'script'"
    app = Flask(__name__)
    app.debug = debug
    app.config.update(
        APP_LOCALES=["en", "de"], MARMEON_CSP_NONCE=lambda: g.get("nonce")
    )
    if app_url is not None:
        app.config["APP_URL"] = app_url
    app.config.update(config)
    Marmeon(app)

    def render(heading: str, lang: str = "en", **extra: Any) -> str:
        nonce = g.get("nonce")
        return render_template_string(
            PAGE,
            heading=heading,
            lang=lang,
            router=router,
            # token_urlsafe: nothing in the nonce to escape.
            nonce_attr=Markup(f' nonce="{nonce}"') if nonce else "",
            alternates=extra.get("alternates", ()),
            own_head=extra.get("own_head", False),
            trusted_types=trusted_types,
        )

    @app.before_request
    def layout() -> None:
        if csp is not None:
            g.nonce = secrets.token_urlsafe(12)
        head(
            title_template="%s · Notes",
            open_graph={"site_name": "Notes"},
            twitter={"card": "summary_large_image", "site": "@notes"},
        )

    @app.after_request
    def policy(response: Response) -> Response:
        if csp is not None and "nonce" in g:
            response.headers["Content-Security-Policy"] = csp.format(nonce=g.nonce)
        return response

    pages = localized(Blueprint("pages", __name__))

    def localized_page(name: str, **fields: Any) -> str:
        page = current_page()
        locale = page.locale or "en"
        title, description = TEXT[locale][name]
        head(
            title=title,
            description=description,
            open_graph={
                # About is a product page: its product tags come and go
                # on client visits.
                "type": "article" if name == "contact" else "product",
                "product": {
                    "price": {"amount": "9.90", "currency": "EUR"},
                    "availability": "in stock",
                    "brand": title,
                },
                "url": f"/{locale}/{name}",
                "image": {
                    "url": f"/img/{name}.png",
                    "width": 1200,
                    "height": 630,
                    "alt": title,
                },
            },
            twitter={"image": {"url": f"/img/{name}-card.png", "alt": title}},
            # The rest of a page's head: each page its own icons, colors,
            # manifest, feed and names, carried over on client visits.
            icons=[
                {"url": f"/icons/{name}.png", "sizes": "32x32"},
                {"url": f"/icons/{name}-touch.png", "rel": "apple-touch-icon"},
            ]
            if icons
            else None,
            theme_color=[
                {"color": "#ffffff" if name == "about" else "#111111"},
                {
                    "color": f"#{locale}{locale}00",
                    "media": "(prefers-color-scheme: dark)",
                },
            ],
            manifest=f"/{locale}/{name}.webmanifest",
            feeds=[
                {
                    "url": f"/{locale}/feed.xml",
                    "type": "application/rss+xml",
                    "title": title,
                }
            ],
            verification={"google": f"proof-{locale}"},
            other={"rating": name},
            facebook={"app_id": f"{name}-{locale}"},
            json_ld={
                "@context": "https://schema.org",
                "@type": "WebPage",
                "name": title,
                "inLanguage": locale,
                "text": HOSTILE_TEXT,
            },
            **fields,
        )
        return render(title, locale, alternates=page.alternates)

    @pages.get("/about")
    def about() -> str:
        return localized_page("about", robots={"index": True, "follow": True})

    @pages.get("/contact")
    def contact() -> str:
        return localized_page("contact", robots={"index": False})

    app.register_blueprint(pages)

    @app.get("/hostile")
    def hostile() -> str:
        head(
            title="Hostile",
            description="Every URL here but og:url points elsewhere.",
            canonical="//evil.example/x",
            open_graph={
                "url": "/kept",
                "image": {"url": "/\\evil.example/i.png", "width": 1, "alt": "gone"},
            },
            twitter={"image": {"url": "javascript:alert(1)", "alt": "gone too"}},
        )
        return render("Hostile")

    @app.get("/media")
    def media() -> str:
        # More Open Graph: images, a video and an audio (each URL with its
        # group, secure_url a URL of its own), a book.
        head(
            title="Media",
            open_graph={
                "type": "book",
                "image": ["/img/a.png", {"url": "/img/b.png", "width": 2, "alt": "B"}],
                "video": {
                    "url": "/v.mp4",
                    "secure_url": "/s/v.mp4",
                    "type": "video/mp4",
                    "width": 640,
                    "height": 360,
                },
                "audio": [
                    {"url": "/a.mp3", "secure_url": "https://cdn.example/a.mp3"},
                    {"url": "/b.ogg", "secure_url": "/\\evil.example/b.ogg"},
                ],
                "book": {"authors": ["Ada", "Grace"], "isbn": "123", "tags": ["x"]},
            },
        )
        return render("Media")

    @app.get("/hostile-text")
    def hostile_text() -> str:
        # Every text field holds markup that would run if it were parsed.
        head(
            title=HOSTILE_TEXT,
            description=HOSTILE_TEXT + " \"quoted\" & 'single'",
            open_graph={"title": HOSTILE_TEXT, "url": "/hostile-text?a=1&b=<2>"},
            json_ld={"@type": "Thing", "name": HOSTILE_TEXT, "x": "]]></script>"},
        )
        return render("Hostile text")

    @app.get("/own")
    def own() -> str:
        # The template writes its own title instead of render_head().
        return render("A head of its own", own_head=True)

    @app.get("/vendor/<name>")
    def vendor(name: str) -> ResponseReturnValue:
        if name not in VENDOR:
            return "not found", 404
        return send_file(VENDOR[name], mimetype="text/javascript")

    return app
