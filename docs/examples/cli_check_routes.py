"""flask marmeon check-routes: the marked routes and every problem."""

from flask import Flask

from flask_marmeon import Marmeon, everyone

app = Flask(__name__)
app.config["APP_URL"] = "https://notes.example"
Marmeon(app)


@app.get("/about", sitemap=True, authorize=everyone)
def about() -> str:
    return "About"


@app.post("/contact", sitemap=True, authorize=everyone)
def contact() -> str:
    return "Thanks"


# The same as running "flask --app app marmeon check-routes" in a shell.
result = app.test_cli_runner().invoke(args=["marmeon", "check-routes"])
print(result.output)
assert result.exit_code == 1
rows = [line.split() for line in result.output.splitlines()[2:4]]
assert rows == [
    ["about", "GET", "/about", "ok"],
    ["contact", "POST", "/contact", "H10", "(1)"],
]
assert "route '/contact' (endpoint 'contact') does not answer GET" in result.output
