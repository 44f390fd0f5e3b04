"""authorize(), everyone, authenticate and api(): who may open a route."""

from flask import Blueprint, Flask, g, request

from flask_marmeon import Marmeon, api, authenticate, authorize, everyone

app = Flask(__name__)
app.config["APP_URL"] = "https://notes.example"
Marmeon(app)


def is_admin() -> bool:
    # A policy takes no arguments and says whether the request may proceed.
    return request.headers.get("X-Role") == "admin"


@app.before_request
def load_user() -> None:
    # Without Flask-Login, authenticate reads g.user.
    g.user = request.headers.get("X-User")


@app.get("/admin", authorize=is_admin)
def admin() -> str:
    return "Admin"


@app.get("/me")
@authenticate
def me() -> str:
    return f"Hello {g.user}"


# Mark a whole blueprint; a route's own authorize= wins.
reports = authorize(is_admin)(Blueprint("reports", __name__))


@reports.get("/reports")
def all_reports() -> str:
    return "Reports"


@reports.get("/reports/about", authorize=everyone)
def about_reports() -> str:
    return "What reports are"


app.register_blueprint(reports)
# The api group: its routes can never be in the sitemap.
app.register_blueprint(api(Blueprint("api", __name__, url_prefix="/api")))

client = app.test_client()
assert client.get("/admin").status_code == 403
assert client.get("/admin", headers={"X-Role": "admin"}).status_code == 200
assert client.get("/me").status_code == 401
assert client.get("/me", headers={"X-User": "ada"}).text == "Hello ada"
assert client.get("/reports").status_code == 403
assert client.get("/reports/about").status_code == 200
