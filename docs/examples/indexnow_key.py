"""IndexNow: the key, served at /<key>.txt, and checked at start."""

from flask import Flask

from flask_marmeon import Marmeon, StartupError, check_routes, everyone

app = Flask(__name__)
app.config["APP_URL"] = "https://notes.example"
# Any 8 to 128 of A-Z, a-z, 0-9 and "-": uuid.uuid4().hex is one.
app.config["MARMEON_INDEXNOW_KEY"] = "5f1c0e7d9a2b4c6e"
Marmeon(app)
app.get("/", sitemap=True, authorize=everyone)(lambda: "home")

response = app.test_client().get("/5f1c0e7d9a2b4c6e.txt")
assert response.status_code == 200
assert response.text == "5f1c0e7d9a2b4c6e"
assert response.mimetype == "text/plain"
assert "Set-Cookie" not in response.headers

# A key the engines would refuse stops the start (H10).
app = Flask(__name__)
app.config["APP_URL"] = "https://notes.example"
app.config["MARMEON_INDEXNOW_KEY"] = "my key"
Marmeon(app)
(problem,) = check_routes(app)
assert "MARMEON_INDEXNOW_KEY" in problem.reason
try:
    app.test_client().get("/")
except StartupError as error:
    assert error.code == "H10"
else:
    raise AssertionError("the start should have stopped")
