"""MARMEON_ROBOTS_RULES: robots.txt groups per crawler (issue 20, API.md
"robots.txt rules"), read back as Google reads robots.txt (Protego)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from protego import Protego

from flask_marmeon import StartupError, check_routes, everyone

ORIGIN = "https://notes.example"
RULES = [
    {"user_agent": ["GPTBot", "CCBot"], "disallow": ["/"]},
    {"user_agent": "*", "disallow": ["/admin/"], "allow": ["/admin/help"]},
]


def robots_of(make_app: Callable[..., Flask], **config: Any) -> str:
    app = make_app(APP_URL=ORIGIN, **config)
    app.get("/about", sitemap=True, authorize=everyone)(lambda: "about")
    response = app.test_client().get("/robots.txt")
    assert response.status_code == 200, response.text
    return response.text


def test_the_rules_are_groups_in_order_with_the_sitemap_line(
    make_app: Callable[..., Flask],
) -> None:
    text = robots_of(make_app, MARMEON_ROBOTS_RULES=RULES)
    assert text == (
        "User-agent: GPTBot\nUser-agent: CCBot\nDisallow: /\n\n"
        "User-agent: *\nDisallow: /_marmeon/\nDisallow: /admin/\n"
        "Allow: /admin/help\n\n"
        f"Sitemap: {ORIGIN}/sitemap.xml\n"
    )
    robots = Protego.parse(text)
    assert not robots.can_fetch(f"{ORIGIN}/about", "GPTBot")
    assert not robots.can_fetch(f"{ORIGIN}/about", "CCBot/2.0")
    assert robots.can_fetch(f"{ORIGIN}/about", "Googlebot")
    assert not robots.can_fetch(f"{ORIGIN}/admin/users", "Googlebot")
    assert robots.can_fetch(f"{ORIGIN}/admin/help", "Googlebot")
    # The extension's internal endpoints stay disallowed in the * group.
    assert not robots.can_fetch(f"{ORIGIN}/_marmeon/preview", "Googlebot")
    assert list(robots.sitemaps) == [f"{ORIGIN}/sitemap.xml"]


def test_without_a_star_rule_the_default_group_is_kept(
    make_app: Callable[..., Flask],
) -> None:
    text = robots_of(
        make_app, MARMEON_ROBOTS_RULES=[{"user_agent": "GPTBot", "disallow": "/"}]
    )
    assert text == (
        "User-agent: *\nDisallow: /_marmeon/\n\n"
        "User-agent: GPTBot\nDisallow: /\n\n"
        f"Sitemap: {ORIGIN}/sitemap.xml\n"
    )


def test_a_star_rule_naming_the_internal_path_says_it_once(
    make_app: Callable[..., Flask],
) -> None:
    rules = [{"user_agent": "*", "disallow": ["/_marmeon/", "/admin/"]}]
    text = robots_of(make_app, MARMEON_ROBOTS_RULES=rules)
    assert text == (
        "User-agent: *\nDisallow: /_marmeon/\nDisallow: /admin/\n\n"
        f"Sitemap: {ORIGIN}/sitemap.xml\n"
    )


def test_paths_get_the_mount_path(make_app: Callable[..., Flask]) -> None:
    text = robots_of(make_app, APPLICATION_ROOT="/blog", MARMEON_ROBOTS_RULES=RULES)
    robots = Protego.parse(text)
    assert "Disallow: /blog/\n" in text and "Allow: /blog/admin/help\n" in text
    assert not robots.can_fetch(f"{ORIGIN}/blog/admin/x", "Googlebot")
    assert robots.can_fetch(f"{ORIGIN}/blog/admin/help", "Googlebot")
    assert not robots.can_fetch(f"{ORIGIN}/blog/_marmeon/x", "Googlebot")
    assert list(robots.sitemaps) == [f"{ORIGIN}/blog/sitemap.xml"]


def test_a_rule_with_no_path_allows_everything(make_app: Callable[..., Flask]) -> None:
    text = robots_of(make_app, MARMEON_ROBOTS_RULES=[{"user_agent": "Googlebot"}])
    assert "User-agent: Googlebot\nDisallow:\n" in text
    assert Protego.parse(text).can_fetch(f"{ORIGIN}/_marmeon/x", "Googlebot")


def test_a_site_that_must_not_be_indexed_disallows_everything(
    make_app: Callable[..., Flask],
) -> None:
    text = robots_of(make_app, MARMEON_INDEXABLE=False, MARMEON_ROBOTS_RULES=RULES)
    assert text == "User-agent: *\nDisallow: /\n"


@pytest.mark.parametrize(
    ("rules", "said", "kind"),
    [
        ({"user_agent": "*"}, "must be a list of rules", "sitemap.E002"),
        ("User-agent: *", "must be a list of rules", "sitemap.E002"),
        (["GPTBot"], "rule 1 must be a dict", "sitemap.E002"),
        (
            [{"user_agent": "*", "disalow": ["/x"]}],
            "Did you mean 'disallow'?",
            "sitemap.E002",
        ),
        ([{"disallow": ["/x"]}], "rule 1 has no 'user_agent'", "sitemap.E004"),
        ([{"user_agent": []}], "must be a crawler's name", "sitemap.E004"),
        ([{"user_agent": "Bot\nDisallow: /"}], "holds a line break", "sitemap.E004"),
        (
            [{"user_agent": "*"}, {"user_agent": "x", "allow": ["admin/"]}],
            "rule 2's 'allow' holds 'admin/': a path starts with '/'",
            "sitemap.E005",
        ),
        (
            [{"user_agent": "*", "disallow": ["/a\nAllow: /"]}],
            "a line break",
            "sitemap.E005",
        ),
        (
            [{"user_agent": "*", "disallow": 3}],
            "must be a list of paths",
            "sitemap.E005",
        ),
    ],
)
def test_a_wrong_rule_stops_the_start(
    make_app: Callable[..., Flask], rules: object, said: str, kind: str
) -> None:
    app = make_app(APP_URL=ORIGIN, MARMEON_ROBOTS_RULES=rules)
    app.get("/about", sitemap=True, authorize=everyone)(lambda: "about")
    (problem,) = check_routes(app)
    assert problem.code == "H10" and problem.rule is None
    assert problem.id == kind
    assert said in problem.reason
    assert "MARMEON_ROBOTS_RULES" in problem.reason
    with pytest.raises(StartupError, match="MARMEON_ROBOTS_RULES") as info:
        app.test_client().get("/robots.txt")
    assert info.value.code == "H10"
    result = app.test_cli_runner().invoke(args=["marmeon", "check-routes"])
    assert result.exit_code == 1 and said in result.output


def test_the_rules_are_read_once(make_app: Callable[..., Flask]) -> None:
    rules = [{"user_agent": "GPTBot", "disallow": ["/"]}]
    app = make_app(APP_URL=ORIGIN, MARMEON_ROBOTS_RULES=rules)
    app.get("/about", sitemap=True, authorize=everyone)(lambda: "about")
    rules[0]["disallow"].append("/changed")  # after init_app: no effect
    assert "Disallow: /\n" in app.test_client().get("/robots.txt").text


def test_a_hash_in_a_rule_path_stops_the_start(make_app: Callable[..., Flask]) -> None:
    # Crawlers read "#" to the end of the line as a comment: "Disallow:
    # /a#b" would disallow /a. A path a crawler asks for never holds "#".
    rules = [{"user_agent": "*", "disallow": ["/private#x"]}]
    app = make_app(APP_URL=ORIGIN, MARMEON_ROBOTS_RULES=rules)
    app.get("/about", sitemap=True, authorize=everyone)(lambda: "about")
    (problem,) = check_routes(app)
    assert "MARMEON_ROBOTS_RULES rule 1's 'disallow'" in problem.reason
    assert "'#'" in problem.reason and "%23" in problem.reason
    with pytest.raises(StartupError, match="%23"):
        app.test_client().get("/robots.txt")
    encoded = [{"user_agent": "*", "disallow": ["/private%23x"]}]
    assert "Disallow: /private%23x\n" in robots_of(
        make_app, MARMEON_ROBOTS_RULES=encoded
    )


def test_last_modified_is_the_same_in_every_process_for_the_same_text(
    make_app: Callable[..., Flask], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Two workers started an hour apart (each app's clock says so) give the
    # same Last-Modified and ETag for the same text; another text, another
    # date, and the first one's date is no longer "not modified".
    answers = []
    for clock in (1_700_000_000.0, 1_700_003_600.0):
        monkeypatch.setattr("time.time", lambda clock=clock: clock)
        app = make_app(APP_URL=ORIGIN)
        app.get("/about", sitemap=True, authorize=everyone)(lambda: "about")
        answers.append(app.test_client().get("/robots.txt"))
    monkeypatch.undo()
    first, second = answers
    assert first.headers["Last-Modified"] == second.headers["Last-Modified"]
    assert first.headers["ETag"] == second.headers["ETag"]
    other = make_app(APP_URL=ORIGIN, MARMEON_ROBOTS_RULES=RULES)
    other.get("/about", sitemap=True, authorize=everyone)(lambda: "about")
    client = other.test_client()
    changed = client.get("/robots.txt")
    assert changed.headers["Last-Modified"] != first.headers["Last-Modified"]
    since = {"If-Modified-Since": first.headers["Last-Modified"]}
    assert client.get("/robots.txt", headers=since).status_code == 200
    since = {"If-Modified-Since": changed.headers["Last-Modified"]}
    assert client.get("/robots.txt", headers=since).status_code == 304
