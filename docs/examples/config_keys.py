"""Configuration: the keys, their defaults, and the environment fallbacks."""

import os

from flask import Flask

from flask_marmeon import Marmeon, StartupError

# APP_URL and APP_LOCALES fall back to environment variables of the same name.
os.environ["APP_URL"] = "https://notes.example"
os.environ["APP_LOCALES"] = "en, de-AT"

app = Flask(__name__)
Marmeon(app)
# The defaults are written into app.config, where you can see them.
assert app.config["APP_URL"] == "https://notes.example"
assert app.config["APP_LOCALES"] == "en, de-AT"
assert app.config["MARMEON_SITEMAP_TTL"] == 300
assert app.config["MARMEON_SITEMAP_RETRY_AFTER"] == 30
assert app.config["MARMEON_SITEMAP_MAX_URLS"] == 50_000
assert app.config["MARMEON_SITEMAP_INDEX"] is False
assert app.config["MARMEON_CSP_NONCE"] is None
assert app.config["MARMEON_BROWSER_SCRIPT"] is True
assert app.config["MARMEON_SITEMAP_WAIT"] == 20
assert app.config["MARMEON_INDEXABLE"] is True
assert app.config["MARMEON_DEFAULT_CANONICAL"] is False

# A key set in the config wins over the environment.
app = Flask(__name__)
app.config["APP_URL"] = "https://staging.notes.example"
Marmeon(app)
assert app.config["APP_URL"] == "https://staging.notes.example"

# Settings are checked at once: an APP_URL that is not an http(s) address
# stops the start with code H10, a misspelled locale with a ValueError.
del os.environ["APP_URL"], os.environ["APP_LOCALES"]
app = Flask(__name__)
app.config["APP_URL"] = "notes.example"
try:
    Marmeon(app)
except StartupError as error:
    assert error.code == "H10"
else:
    raise AssertionError("APP_URL without a scheme was accepted")

app = Flask(__name__)
app.config["APP_LOCALES"] = ["en", "de_AT"]
try:
    Marmeon(app)
except ValueError as error:
    assert "Did you mean 'de-AT'?" in str(error)
else:
    raise AssertionError("APP_LOCALES with de_AT was accepted")
