"""Checked by mypy in test_typing.py: what the public types accept and refuse.

Each line that mypy must refuse ends with a comment "E:" naming what it refuses.
"""

from __future__ import annotations

import datetime

from flask_marmeon import (
    JsonLd,
    JsonLdGraph,
    JsonLdNode,
    OpenGraph,
    Robots,
    Twitter,
    head,
)


def fine() -> None:
    node: JsonLdNode = {"@type": "Person", "name": "Ada", "born": "1815-12-10"}
    graph: JsonLdGraph = {"@context": "https://schema.org", "@graph": [node]}
    many: JsonLd = [node, graph, {"@type": "Thing", "n": [1, 2.5, None, True]}]
    og: OpenGraph = {"type": "article", "image": {"url": "/a.png", "width": 1200}}
    tw: Twitter = {"card": "summary", "image": "/t.png"}
    robots: Robots = {"index": False}
    head(title="T", json_ld=many, open_graph=og, twitter=tw, robots=robots)
    head(json_ld={"@type": "Article", "headline": "x", "tags": ("a", "b")})
    more: OpenGraph = {
        "type": "book",
        "image": ["/a.png", {"url": "/b.png", "alt": "B"}],
        "video": {"url": "/v.mp4", "secure_url": "/s.mp4", "width": 640},
        "audio": ["/a.mp3"],
        "book": {"authors": ["Ada"], "release_date": datetime.date(1843, 1, 1)},
        "profile": {"gender": "female"},
    }
    head(open_graph=more)


def refused() -> None:
    now = datetime.datetime.now()
    head(json_ld={"@type": "Event", "startDate": now})  # E: datetime
    head(json_ld={"@type": "Event", "on": print})  # E: function
    head(json_ld=[{"@type": "Event", "day": datetime.date.today()}])  # E: date
    head(open_graph={"type": "video"})  # E: Literal
    head(open_graph={"image": {"url": "/a", "width": "1200"}})  # E: width
    head(title=42)  # E: title
    head(siteName="x")  # E: siteName
    head(open_graph={"profile": {"gender": "other"}})  # E: Literal
    head(open_graph={"audio": {"url": "/a", "width": 3}})  # E: width
