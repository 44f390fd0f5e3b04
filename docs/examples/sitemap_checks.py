"""A marked route that cannot be in a sitemap stops the app (code H10)."""

from flask import Flask

from flask_marmeon import Marmeon, StartupError, authenticate, check_routes, everyone

app = Flask(__name__)
app.config["APP_URL"] = "https://notes.example"
Marmeon(app)


@app.get("/account", sitemap=True, authorize=everyone)
@authenticate  # needs a signed-in user: not for a sitemap
def account() -> str:
    return "Your account"


@app.get("/drafts/<int:draft_id>", sitemap=True)  # no authorize=everyone, no provider
def draft(draft_id: int) -> str:
    return "A draft"


problems = check_routes(app)  # every problem, as values
assert [(p.rule, p.code) for p in problems] == [
    ("/account", "H10"),
    ("/drafts/<int:draft_id>", "H10"),
    ("/drafts/<int:draft_id>", "H10"),
]
# Each kind of problem has an id of its own, and a hint that says how to fix it.
assert [p.id for p in problems] == ["routing.E004", "routing.E005", "routing.E007"]
assert problems[1].hint == "add authorize=everyone"

try:
    app.test_client().get("/")  # the app refuses to answer at all
except StartupError as error:
    assert error.code == "H10"
    assert len(error.problems) == 3
    print(error)
else:
    raise AssertionError("expected StartupError")
