"""More Open Graph: several images, a video, an audio, a book, a profile."""

import datetime

from flask import Flask

from flask_marmeon import Marmeon, head, render_head

app = Flask(__name__)
app.config["APP_URL"] = "https://notes.example"
Marmeon(app)


@app.get("/books/<int:book_id>")
def book(book_id: int) -> str:
    head(
        title="The Analytical Engine",
        open_graph={
            "type": "book",
            # A list: each image with its own size and alt.
            "image": [
                {"url": f"/covers/{book_id}.png", "width": 1200, "height": 630},
                {"url": f"/covers/{book_id}-back.png", "alt": "The back cover"},
            ],
            "video": {
                "url": f"/trailers/{book_id}.mp4",
                "secure_url": f"https://cdn.example/trailers/{book_id}.mp4",
                "type": "video/mp4",
                "width": 1280,
                "height": 720,
            },
            "audio": f"/readings/{book_id}.mp3",
            "book": {
                "authors": ["https://notes.example/people/ada"],
                "isbn": "978-3-16-148410-0",
                "release_date": datetime.date(1843, 10, 1),
                "tags": ["computing", "history"],
            },
        },
    )
    return f"<!doctype html><html><head>{render_head()}</head></html>"


@app.get("/people/<name>")
def person(name: str) -> str:
    head(
        title=name,
        open_graph={
            "type": "profile",
            "profile": {"first_name": "Ada", "last_name": "Lovelace", "username": name},
        },
    )
    return f"<!doctype html><html><head>{render_head()}</head></html>"


html = app.test_client().get("/books/7").text
for tag in (
    '<meta property="og:type" content="book"',
    '<meta property="og:image" content="https://notes.example/covers/7.png"',
    '<meta property="og:image:width" content="1200"',
    '<meta property="og:image" content="https://notes.example/covers/7-back.png"',
    '<meta property="og:image:alt" content="The back cover"',
    '<meta property="og:video" content="https://notes.example/trailers/7.mp4"',
    '<meta property="og:video:secure_url" content="https://cdn.example/trailers/7.mp4"',
    '<meta property="og:video:type" content="video/mp4"',
    '<meta property="og:video:width" content="1280"',
    '<meta property="og:audio" content="https://notes.example/readings/7.mp3"',
    '<meta property="book:author" content="https://notes.example/people/ada"',
    '<meta property="book:isbn" content="978-3-16-148410-0"',
    '<meta property="book:release_date" content="1843-10-01"',
    '<meta property="book:tag" content="computing"',
    '<meta property="book:tag" content="history"',
):
    assert tag in html, tag
# The images keep their order, each followed by its own properties.
assert html.index("7.png") < html.index("og:image:width") < html.index("7-back.png")

html = app.test_client().get("/people/ada").text
assert '<meta property="profile:first_name" content="Ada"' in html
assert '<meta property="profile:username" content="ada"' in html

# A URL on another host's scheme leaves its whole group out (the video and
# its type and size), as images are.
with app.test_request_context("/"):
    head(open_graph={"video": {"url": "javascript:alert(1)", "type": "video/mp4"}})
    assert "og:video" not in render_head()

# A close spelling is named, a value outside the choices refused.
with app.test_request_context("/"):
    try:
        head(open_graph={"profile": {"firstname": "Ada"}})  # type: ignore[typeddict-unknown-key]
    except TypeError as error:
        assert "Did you mean 'first_name'?" in str(error)
    else:
        raise AssertionError("head() took a key it does not know")
    try:
        head(open_graph={"profile": {"gender": "unknown"}})  # type: ignore[typeddict-item]
    except ValueError as error:
        assert "'male', 'female'" in str(error)
    else:
        raise AssertionError("head() took a gender outside the choices")
