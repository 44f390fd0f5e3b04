"""head() checks every argument and key at the call."""

import datetime

from flask import Flask

from flask_marmeon import Marmeon, head

app = Flask(__name__)
Marmeon(app)

with app.test_request_context("/"):
    try:
        head(open_graph={"siteName": "Notes"})  # type: ignore[typeddict-unknown-key]
    except TypeError as error:
        assert "Did you mean 'site_name'?" in str(error)
    else:
        raise AssertionError("head() took a key it does not know")

    try:
        head(open_graph={"image": {"url": "/a.png", "width": "1200"}})  # type: ignore[typeddict-item]
    except TypeError as error:
        assert str(error).startswith("open_graph.image.width must be a whole number")
    else:
        raise AssertionError("head() took a str for a width")

    try:
        head(open_graph={"type": "video"})  # type: ignore[typeddict-item]
    except ValueError as error:
        assert "'website', 'article', 'book', 'profile'" in str(error)
    else:
        raise AssertionError("head() took an og type outside the choices")

    # A mistake that is more than a spelling says the fix.
    try:
        head(robots={"noindex": True})  # type: ignore[typeddict-unknown-key]
    except TypeError as error:
        assert "write index=False" in str(error)
    else:
        raise AssertionError("head() took robots' noindex")

    try:
        head(site_name="Notes")  # type: ignore[call-arg]
    except TypeError as error:
        assert "it belongs in open_graph={'site_name': ...}" in str(error)
    else:
        raise AssertionError("head() took site_name at the top level")

    # A naive datetime names no moment: refused wherever a time goes.
    try:
        modified = datetime.datetime(2025, 7, 1, 9, 30)  # no tzinfo
        head(open_graph={"type": "article", "article": {"modified_time": modified}})
    except ValueError as error:
        assert "has no time zone" in str(error)
    else:
        raise AssertionError("head() took a naive datetime")

    # None means "not set by this call"; an empty object counts as set.
    head(title=None, twitter={})

# Outside a request there is no page to give a head to.
try:
    head(title="Notes")
except RuntimeError as error:
    assert "before_request" in str(error)
else:
    raise AssertionError("head() worked outside a request")
