"""Under a path: APPLICATION_ROOT is the mount path, SCRIPT_NAME is not."""

from flask import Blueprint, Flask
from werkzeug.exceptions import NotFound
from werkzeug.middleware.dispatcher import DispatcherMiddleware
from werkzeug.middleware.proxy_fix import ProxyFix
from werkzeug.test import Client

from flask_marmeon import Marmeon, everyone, head, localized, render_head

app = Flask(__name__)
app.config["APP_URL"] = "https://notes.example"
app.config["APP_LOCALES"] = ["en", "de"]
app.config["APPLICATION_ROOT"] = "/blog"  # where the site is served
Marmeon(app)

docs = localized(Blueprint("docs", __name__))


@docs.get("/about", sitemap=True, authorize=everyone)
def about() -> str:
    head(title="About")
    return f"<html><head>{render_head()}</head></html>"


app.register_blueprint(docs)

# Served under /blog: the server (here Werkzeug's DispatcherMiddleware;
# gunicorn with SCRIPT_NAME=/blog does the same) strips the prefix.
site = Client(DispatcherMiddleware(NotFound(), {"/blog": app.wsgi_app}))
html = site.get("/blog/en/about").text
assert '<link rel="canonical" href="https://notes.example/blog/en/about"' in html
assert 'hreflang="x-default" href="https://notes.example/blog/about"' in html
assert site.get("/blog/about").headers["Location"] == "/blog/en/about"

# A client's X-Forwarded-Prefix, passed on by a proxy to ProxyFix(x_prefix=1),
# changes nothing the extension writes.
app.wsgi_app = ProxyFix(app.wsgi_app, x_prefix=1)  # type: ignore[method-assign]
forged = {"X-Forwarded-Prefix": "//evil.example"}
client = app.test_client()
html = client.get("/en/about", headers=forged).text
assert '<link rel="canonical" href="https://notes.example/blog/en/about"' in html
assert client.get("/about", headers=forged).headers["Location"] == "/blog/en/about"
