"""A page that exists in some languages only: the route option locales=."""

from flask import Blueprint, Flask

from flask_marmeon import Marmeon, current_page, everyone, localized
from flask_marmeon.i18n import available_locales

app = Flask(__name__)
app.config["APP_URL"] = "https://notes.example"
app.config["APP_LOCALES"] = ["en", "de", "de-AT"]
Marmeon(app)

NOTES = {1: ["en", "de"], 2: ["en"]}  # note 2 is written in English only


def note_locales(note_id: int) -> list[str]:
    """Called with the view's arguments, as keywords."""
    return NOTES.get(note_id, [])  # no note: no language, a 404 everywhere


notes = localized(Blueprint("notes", __name__))


@notes.get("/pricing", locales=["en"])  # not translated yet
def pricing() -> str:
    return "Pricing"


@notes.get(
    "/notes/<int:note_id>",
    sitemap=lambda: [{"params": {"note_id": n}} for n in NOTES],
    authorize=everyone,
    locales=note_locales,
)
def show(note_id: int) -> dict[str, object]:
    page = current_page()
    return {"locale": page.locale, "alternates": [a["href"] for a in page.alternates]}


app.register_blueprint(notes)
client = app.test_client()

# The page names only its own languages, for a switcher and in the head.
assert client.get("/de/notes/1").json == {
    "locale": "de",
    "alternates": ["/en/notes/1", "/de/notes/1"],
}
# A language the page does not exist in is a 404.
assert client.get("/de/notes/2").status_code == 404
assert client.get("/de-at/pricing").status_code == 404
assert client.get("/notes/3").status_code == 404
# The address without a locale goes to the best language the page has: the
# visitor's de-AT steps down to de (RFC 4647), and for note 2 to English.
visitor = {"Accept-Language": "de-AT-x-vienna, fr;q=0.5"}
assert client.get("/notes/1", headers=visitor).headers["Location"] == "/de/notes/1"
assert client.get("/notes/2", headers=visitor).headers["Location"] == "/en/notes/2"

# The same answer for one page, as the page, the redirect and the sitemap
# get it: the tags as configured, in the order of APP_LOCALES.
state = app.extensions["marmeon"]
(rule,) = app.url_map.iter_rules("notes.show")
assert available_locales(state, rule, {"note_id": 1}) == ("en", "de")
assert available_locales(state, rule, {"note_id": 2}) == ("en",)
