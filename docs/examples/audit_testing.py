"""assert_crawlable: the audit in the app's own test suite."""

from flask import Flask, Response, render_template_string, url_for

from flask_marmeon import Marmeon, SitemapEntry, everyone, head
from flask_marmeon.testing import assert_crawlable

PAGE = "<!doctype html><html><head>{{ render_head() }}</head><body></body></html>"


def create_app() -> Flask:
    app = Flask(__name__)
    app.config["APP_URL"] = "https://notes.example"
    Marmeon(app)

    def notes() -> list[SitemapEntry]:
        return [SitemapEntry(params={"note_id": 1})]

    @app.get("/notes/<int:note_id>", sitemap=notes, authorize=everyone)
    def show(note_id: int) -> str:
        head(
            title=f"Note {note_id}: a sourdough starter",
            description="How to keep a sourdough starter alive on one feed a day.",
            canonical=url_for("show", note_id=note_id),
        )
        return render_template_string(PAGE)

    return app


# In tests/test_crawlable.py (pytest):
def test_the_site_is_crawlable() -> None:
    # Fails on any error; warnings=True fails on warnings too.
    report = assert_crawlable(create_app())
    assert report.pages == 1 and report.errors == ()


test_the_site_is_crawlable()


# A mistake fails the test, naming the page and the fix.
def test_a_mistake_fails() -> None:
    app = create_app()

    @app.after_request
    def hide(response: Response) -> Response:
        response.headers["X-Robots-Tag"] = "noindex"
        return response

    try:
        assert_crawlable(app)
    except AssertionError as failure:
        assert "error page-noindex: https://notes.example/notes/1" in str(failure)
    else:
        raise RuntimeError("the audit should have failed")


test_a_mistake_fails()
