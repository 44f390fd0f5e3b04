"""URLs are made absolute against APP_URL's origin, and only http(s) ones stay."""

import logging

from flask import Flask

from flask_marmeon import Marmeon, head, render_head

app = Flask(__name__)
app.config["APP_URL"] = "https://notes.example/any/path"  # only the origin counts
Marmeon(app)


def head_for(**fields: object) -> str:
    with app.test_request_context("/", headers={"Host": "attacker.example"}):
        head(**fields)  # type: ignore[arg-type]
        return str(render_head())


# A path is made absolute against APP_URL, never the request's Host.
assert 'href="https://notes.example/notes/1"' in head_for(canonical="/notes/1")
# A full URL keeps its host.
cdn = head_for(open_graph={"image": "https://cdn.example/cover.png"})
assert 'content="https://cdn.example/cover.png"' in cdn
# A value that a browser would resolve to another host is left out ...
OG_URL = '<meta property="og:url"'
assert OG_URL not in head_for(open_graph={"url": "//other.example/x"})
assert OG_URL not in head_for(open_graph={"url": "/\\other.example/x"})
assert OG_URL not in head_for(open_graph={"url": "\t//other.example/x"})
# ... and so is any scheme other than http and https, with what goes with it.
left_out = head_for(twitter={"image": {"url": "javascript:alert(1)", "alt": "x"}})
assert '<meta name="twitter:image' not in left_out
# Kept URLs are written as the URL parser writes them.
assert 'href="https://notes.example/a%20b?q=%C3%BC"' in head_for(canonical="/a b?q=ü")

# In development, each URL left out is a warning naming the field and value.
app.debug = True
records: list[logging.LogRecord] = []
handler = logging.Handler()
handler.emit = records.append  # type: ignore[method-assign]
logging.getLogger("flask_marmeon").addHandler(handler)
head_for(canonical="data:text/html,hi")
assert "canonical 'data:text/html,hi'" in records[0].getMessage()

# Without APP_URL the server knows no origin it may trust: a relative URL is
# left out of its document (the browser module resolves it in the browser).
bare = Flask(__name__)
Marmeon(bare)
with bare.test_request_context("/"):
    head(canonical="/notes/1", open_graph={"image": "https://cdn.example/a.png"})
    html = str(render_head())
assert '<link rel="canonical"' not in html
assert 'content="https://cdn.example/a.png"' in html
