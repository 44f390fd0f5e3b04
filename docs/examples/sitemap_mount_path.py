"""An app mounted under /blog lists its addresses under /blog."""

from flask import Flask
from werkzeug.exceptions import NotFound
from werkzeug.middleware.dispatcher import DispatcherMiddleware
from werkzeug.test import Client

from flask_marmeon import Marmeon, SitemapEntry, everyone

blog = Flask(__name__)
blog.config["APP_URL"] = "https://notes.example"
blog.config["APPLICATION_ROOT"] = "/blog"  # the mount path
Marmeon(blog)


@blog.get(
    "/posts/<int:post_id>",
    sitemap=lambda: [SitemapEntry(params={"post_id": 1})],
    authorize=everyone,
)
def post(post_id: int) -> str:
    return f"Post {post_id}"


# The site serves the blog under /blog, beside other apps.
site = Client(DispatcherMiddleware(NotFound(), {"/blog": blog}))
sitemap = site.get("/blog/sitemap.xml").text
assert "<loc>https://notes.example/blog/posts/1</loc>" in sitemap
assert site.get("/blog/posts/1").status_code == 200

# A request's SCRIPT_NAME (which a client can set through a proxy) changes
# nothing the extension writes.
forged = blog.test_client().get(
    "/sitemap.xml", environ_overrides={"SCRIPT_NAME": "//evil.example"}
)
assert "evil" not in forged.text
