"""A language switcher from the page object (``page`` in templates)."""

from flask import Blueprint, Flask, render_template_string

from flask_marmeon import Marmeon, localized

app = Flask(__name__)
app.config["APP_LOCALES"] = ["en", "de-AT"]
Marmeon(app)

SWITCHER = """\
<nav>{% for version in page.alternates %}
  <a href="{{ version.href }}" hreflang="{{ version.hreflang }}"
     {%- if version.locale == page.locale %} aria-current="true"{% endif %}>
    {{- version.locale }}</a>{% endfor %}
</nav>"""

docs = localized(Blueprint("docs", __name__))


@docs.get("/notes")
def notes() -> str:
    return render_template_string(SWITCHER)


app.register_blueprint(docs)

html = app.test_client().get("/en/notes?page=2").text
# The switcher's links keep the query string.
assert '<a href="/en/notes?page=2" hreflang="en" aria-current="true">en</a>' in html
assert '<a href="/de-at/notes?page=2" hreflang="de-AT">de-AT</a>' in html
