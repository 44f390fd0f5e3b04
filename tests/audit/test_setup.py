"""Findings about the app's set-up that no single answer shows (issue 20):
a marked route whose entries are all left out, robots.txt under a path,
and relative addresses in JSON-LD; og:url is no longer asked for."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from flask import Flask, render_template_string

from flask_marmeon import SitemapEntry, absolute_url, everyone, head
from flask_marmeon.audit import audit

from .conftest import ORIGIN, Site, codes, document

PAGE = """<!doctype html><html lang="en"><head><meta charset="utf-8">
{{ render_head() }}</head><body><p>Text.</p></body></html>"""
#: The home page: it links the first recipe (no canonical, so it is no page
#: the sitemap must list).
HOME = '<!doctype html><title>Recipes</title><a href="/r/1">Bread</a>'


def recipes(
    make_app: Callable[..., Flask],
    entries: list[object],
    home: bool = False,
    **config: object,
) -> Flask:
    app = make_app(
        APP_URL="https://recipes.example", MARMEON_BROWSER_SCRIPT=False, **config
    )

    @app.get("/r/<int:recipe_id>", sitemap=lambda: entries, authorize=everyone)
    def recipe(recipe_id: int) -> str:
        path = f"/r/{recipe_id}"
        head(
            title=f"Recipe number {recipe_id}",
            description="A recipe for bread, with flour, water, salt and time.",
            canonical=path,
        )
        return render_template_string(PAGE)

    if home:
        app.add_url_rule("/", "home", lambda: HOME)
    return app


def test_a_route_whose_entries_are_all_left_out_is_a_finding(
    make_app: Callable[..., Flask],
) -> None:
    # "id" for "recipe_id": every entry is left out, the sitemap is empty.
    app = recipes(make_app, [SitemapEntry({"id": 1}), SitemapEntry({"id": 2})])
    report = audit(app)
    assert report.pages == 0
    (found,) = report.findings
    assert (found.code, found.severity) == ("sitemap-route-empty", "warning")
    assert found.url == "https://recipes.example/sitemap.xml"
    assert "'/r/<int:recipe_id>'" in found.message
    assert "2 entries left out" in found.message and "'id'" in found.message


def test_a_route_with_some_entries_listed_is_no_finding(
    make_app: Callable[..., Flask],
) -> None:
    app = recipes(
        make_app, [SitemapEntry({"recipe_id": 1}), SitemapEntry({"id": 2})], home=True
    )
    report = audit(app)
    assert report.pages == 1
    assert report.findings == ()


def test_a_route_with_no_entries_at_all_is_no_finding(
    make_app: Callable[..., Flask],
) -> None:
    # No recipe yet: nothing was left out.
    assert audit(recipes(make_app, [])).findings == ()


def test_check_routes_warns_of_a_route_whose_entries_are_all_left_out(
    make_app: Callable[..., Flask],
) -> None:
    app = recipes(make_app, [SitemapEntry({"id": 1})])
    app.get("/about", sitemap=True, authorize=everyone)(lambda: "about")
    result = app.test_cli_runner().invoke(args=["marmeon", "check-routes"])
    # A warning, not a problem: the exit status stays 0.
    assert result.exit_code == 0, result.output
    rows = {line.split()[0]: line.split() for line in result.output.splitlines()[2:4]}
    assert rows["recipe"][-1] == "warning"
    assert rows["<lambda>"][-1] == "ok"
    assert "1 warning(s):" in result.output
    assert "route '/r/<int:recipe_id>' (endpoint 'recipe')" in result.output
    assert "'recipe_id' is missing" in result.output


def test_check_routes_says_when_the_entries_could_not_be_checked(
    make_app: Callable[..., Flask],
) -> None:
    def down() -> list[SitemapEntry]:
        raise ConnectionError("database down")

    app = make_app(APP_URL="https://recipes.example")
    app.get("/r/<int:recipe_id>", sitemap=down, authorize=everyone)(
        lambda recipe_id: ""
    )
    result = app.test_cli_runner().invoke(args=["marmeon", "check-routes"])
    assert result.exit_code == 0, result.output
    assert "were not checked" in result.output
    assert "ConnectionError: database down" in result.output


def test_robots_txt_under_a_path_is_a_warning(make_app: Callable[..., Flask]) -> None:
    app = recipes(make_app, [SitemapEntry({"recipe_id": 1})], APPLICATION_ROOT="/blog")

    report = audit(app)
    found = [f for f in report.findings if f.code == "robots-under-path"]
    assert [(f.severity, f.url) for f in found] == [
        ("warning", "https://recipes.example/blog/robots.txt")
    ]
    assert "https://recipes.example/robots.txt" in found[0].message


def test_robots_txt_at_the_root_is_no_finding(make_app: Callable[..., Flask]) -> None:
    report = audit(recipes(make_app, [SitemapEntry({"recipe_id": 1})]))
    assert "robots-under-path" not in {f.code for f in report.findings}


# -- JSON-LD addresses, og:url ---------------------------------------------------

B = f"{ORIGIN}/b"


def page_b(site: Site, head_html: str) -> None:
    from .conftest import DESCRIPTION_B, TITLE_B

    site.put(
        "/b",
        document(
            f"<title>{TITLE_B}</title>"
            f'<meta name="description" content="{DESCRIPTION_B}">'
            f'<link rel="canonical" href="{B}">{head_html}'
        ),
    )


@pytest.mark.parametrize(
    ("block", "key", "value"),
    [
        ('{"@type": "Article", "url": "/b"}', "url", "/b"),
        (
            '{"@type": "Article", "image": ["https://x.example/a.png", "b.png"]}',
            "image",
            "b.png",
        ),
        (
            '{"@type": "Organization", "@id": "#org", "logo": "https://x.example/l.png"}',
            "@id",
            "#org",
        ),
        (
            '{"@type": "BreadcrumbList", "itemListElement": [{"@type": "ListItem",'
            ' "position": 1, "item": "/recipes"}]}',
            "item",
            "/recipes",
        ),
        (
            '{"@graph": [{"@type": "Organization", "logo": "//cdn.example/l.png"}]}',
            "logo",
            "//cdn.example/l.png",
        ),
        (
            '{"@type": "Article", "image": {"@type": "ImageObject", "url": "c.png"}}',
            "url",
            "c.png",
        ),
    ],
)
def test_a_relative_address_in_json_ld_is_a_warning_naming_the_property(
    site: Site, block: str, key: str, value: str
) -> None:
    page_b(site, f'<script type="application/ld+json">{block}</script>')
    report = site.audit()
    assert codes(report) == [("jsonld-relative-url", B)]
    (found,) = report.findings
    assert found.severity == "warning"
    assert f"{value!r} in {key!r}" in found.message
    assert "absolute_url(" in found.message


def test_absolute_addresses_in_json_ld_are_fine(site: Site) -> None:
    block = (
        '{"@type": "Article", "url": "https://recipes.example/b", "name": "/not-a-url",'
        ' "image": ["https://x.example/a.png"], "@id": "https://recipes.example/b#a"}'
    )
    page_b(site, f'<script type="application/ld+json">{block}</script>')
    assert site.audit().findings == ()


def test_open_graph_without_og_url_is_no_finding(site: Site) -> None:
    # og:url has no default (the specification): a correct page lacks it.
    page_b(site, '<meta property="og:title" content="Chains">')
    assert site.audit().findings == ()


def test_absolute_url_makes_an_address_absolute_as_the_head_does(
    make_app: Callable[..., Flask],
) -> None:
    app = make_app(APP_URL="https://recipes.example/any/path", APPLICATION_ROOT="/blog")
    with app.test_request_context("/", headers={"Host": "attacker.example"}):
        assert absolute_url("/r/1") == "https://recipes.example/r/1"
        assert absolute_url("r/1") == "https://recipes.example/r/1"
        assert (
            absolute_url("https://cdn.example/a b.png")
            == "https://cdn.example/a%20b.png"
        )
        with pytest.raises(ValueError, match="another origin"):
            absolute_url("//other.example/x")
        with pytest.raises(ValueError, match="scheme 'javascript:'"):
            absolute_url("javascript:alert(1)")
        with pytest.raises(TypeError, match="not NoneType"):
            absolute_url(None)  # type: ignore[arg-type]
    without = make_app()
    with without.app_context(), pytest.raises(ValueError, match="APP_URL is not set"):
        absolute_url("/r/1")
