"""robots: index and follow, then Google's directives; a staging site."""

import datetime

from flask import Flask

from flask_marmeon import Marmeon, head, render_head

app = Flask(__name__)
app.config["APP_URL"] = "https://notes.example"
Marmeon(app)

with app.test_request_context("/"):
    # A layout allows large image previews and full snippets ...
    head(robots={"max_image_preview": "large", "max_snippet": -1})
    # ... and the page merges over it, key by key.
    head(
        robots={
            "index": False,
            "follow": True,
            "max_snippet": 160,
            "unavailable_after": datetime.datetime(
                2025, 7, 1, 12, 0, tzinfo=datetime.timezone.utc
            ),
        }
    )
    html = str(render_head())

assert (
    '<meta name="robots" content="noindex, follow, max-image-preview:large,'
    ' max-snippet:160, unavailable_after: 2025-07-01T12:00:00+00:00"'
) in html

# A value outside the choices is a ValueError, a wrong type a TypeError, and
# a datetime without a time zone names no moment: ValueError.
with app.test_request_context("/"):
    for robots, error in (
        ({"max_image_preview": "huge"}, ValueError),
        ({"max_snippet": True}, TypeError),
        ({"unavailable_after": datetime.datetime(2025, 7, 1)}, ValueError),
    ):
        try:
            head(robots=robots)
        except error:
            pass
        else:
            raise AssertionError(robots)

# A staging deployment (MARMEON_INDEXABLE=False, or the environment variable)
# says noindex, nofollow on every head, whatever the page set.
staging = Flask(__name__)
staging.config.update(APP_URL="https://staging.notes.example", MARMEON_INDEXABLE=False)
Marmeon(staging)
with staging.test_request_context("/"):
    head(title="Notes", robots={"index": True, "max_snippet": -1})
    html = str(render_head())
assert '<meta name="robots" content="noindex, nofollow, max-snippet:-1"' in html
