"""The templates of the tests of head() called from templates: a layout,
each placement of a call, and the page parsed as a browser reads it."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import html5lib

BASE = """<!DOCTYPE html>
<html lang="en">
<head>{{ render_head() }}</head>
<body>{% block content %}{% endblock %}</body>
</html>"""

TEMPLATES = {
    "base.html": BASE,
    # Top of a child template, then a block that renders after <head>.
    "article.html": """{% extends "base.html" %}
{% do head(title="Top of the child", description="from the top") %}
{% block content %}
  {% do head(description="from the block", open_graph={"type": "article"}) %}
  <h1>Article</h1>
{% endblock %}""",
    "with_include.html": """{% extends "base.html" %}
{% block content %}<main>{% include "card.html" %}</main>{% endblock %}""",
    "card.html": """{% do head(title="From the include") %}<p>card</p>""",
    "with_macro.html": """{% extends "base.html" %}
{% macro seo(name) %}{% do head(title=name) %}<b>{{ name }}</b>{% endmacro %}
{% block content %}{{ seo("From the macro") }}{% endblock %}""",
    "macros.html": """{% macro seo(name, text) -%}
{% do head(title=name, description=text) %}
{%- endmacro %}""",
    "with_import.html": """{% extends "base.html" %}
{% import "macros.html" as m %}
{% block content %}{{ m.seo("From the import", "imported") }}{% endblock %}""",
    "with_from_import.html": """{% extends "base.html" %}
{% from "macros.html" import seo %}
{% block content %}{{ seo("From from-import", "imported") }}{% endblock %}""",
    "writes_nothing.html": """{% extends "base.html" %}
{% block content %}<p id="out">{{ head(title="Echo") }}</p>{% endblock %}""",
    "fragment.html": """{% do head(title="Fragment") %}<li>an htmx fragment</li>""",
    "nested.html": """{% extends "base.html" %}
{% block content %}{{ render_card() }}{% endblock %}""",
    "late.html": """{% extends "base.html" %}
{% block content %}
<p>before</p>
{% do head(title="Late") %}
{% endblock %}""",
    "streamed.html": """{% extends "base.html" %}
{% do head(title="Streamed") %}
{% block content %}<p>body</p>
{% do head(description="past the head") %}{% endblock %}""",
    "streamed_ok.html": """{% extends "base.html" %}
{% do head(title="Streamed", description="before the head") %}
{% block content %}<p>body</p>{% endblock %}""",
}


def parse(document: str) -> ET.Element:
    """The whole page as a browser reads it; it must parse without an error."""
    assert "\x00" not in document  # no mark of render_head() is left
    parser = html5lib.HTMLParser(
        tree=html5lib.getTreeBuilder("etree", ET), namespaceHTMLElements=False
    )
    root = parser.parse(document)
    assert parser.errors == [], parser.errors
    return root


def head_el(document: str) -> ET.Element:
    found = parse(document).find("head")
    assert found is not None
    return found
