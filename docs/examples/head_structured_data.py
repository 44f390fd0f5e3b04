"""JSON-LD blocks: one script each, escaped, and exactly the object passed."""

import datetime
import json

from flask import Flask

from flask_marmeon import JsonLdGraph, JsonLdNode, Marmeon, head, render_head

app = Flask(__name__)
Marmeon(app)

author: JsonLdNode = {"@type": "Person", "name": "</script><script>alert(1)"}
graph: JsonLdGraph = {
    "@context": "https://schema.org",
    "@graph": [
        {"@type": "Organization", "@id": "https://notes.example/#org"},
        {"@type": "WebSite", "publisher": {"@id": "https://notes.example/#org"}},
    ],
}
article: JsonLdNode = {
    "@context": "https://schema.org",
    "@type": "Article",
    "headline": "Sourdough",
    "datePublished": datetime.date(2024, 5, 1).isoformat(),  # a date as its string
    "author": author,
}

with app.test_request_context("/"):
    head(json_ld=graph)  # a layout's block
    head(json_ld=[article])  # the page's: blocks add up, in call order
    html = str(render_head())

opening = '<script type="application/ld+json" data-marmeon data-turbo-eval="false">'
scripts = html.split(opening)[1:]
assert len(scripts) == 2
texts = [s.split("</script>")[0] for s in scripts]
# Every "<" is written \u003c, so user text cannot end the script ...
assert "<" not in texts[1] and "\\u003c/script>" in texts[1]
# ... and the text parses back to exactly the object passed.
assert json.loads(texts[0]) == graph
assert json.loads(texts[1]) == article

# A block JSON cannot write exactly is a bug: development raises ValueError
# naming its @type at the head() call, production leaves the block out and
# logs it once.
bad = {"@type": "Event", "startDate": datetime.datetime(2024, 5, 1)}
app.debug = True
with app.test_request_context("/"):
    try:
        head(title="Events", json_ld=bad)  # type: ignore[dict-item]
    except ValueError as error:
        assert "'Event'" in str(error) and "startDate" in str(error)
    else:
        raise AssertionError("development took a datetime")
app.debug = False
with app.test_request_context("/"):
    head(title="Events", json_ld=bad)  # type: ignore[dict-item]
    html = str(render_head())
assert "<title data-marmeon>Events</title>" in html and "ld+json" not in html
