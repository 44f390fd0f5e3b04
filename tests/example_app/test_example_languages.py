"""The example app's languages (issue 12): a page in English only, and
German error pages under /de/."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask.testing import FlaskClient

ORIGIN = "http://127.0.0.1:5000"  # the example's default APP_URL
Parse = Callable[[str], Any]
ENGLISH_ONLY = "/features/per-page-languages"


def test_a_feature_in_english_only_names_no_german_version(
    site_client: FlaskClient, parse: Parse
) -> None:
    response = site_client.get(f"/en{ENGLISH_ONLY}")
    assert response.status_code == 200
    page = parse(response.get_data(as_text=True))
    assert page.canonical() == f"{ORIGIN}/en{ENGLISH_ONLY}"
    assert page.hreflang() == {
        "en": f"{ORIGIN}/en{ENGLISH_ONLY}",
        "x-default": f"{ORIGIN}{ENGLISH_ONLY}",
    }
    switchers = [n for n in page.body.iter("nav") if n.get("class") == "languages"]
    for switcher in switchers:
        assert [a.get("hreflang") for a in switcher.iter("a")] == ["en"]


def test_its_german_address_is_a_german_404_and_the_redirect_goes_to_english(
    site_client: FlaskClient, parse: Parse
) -> None:
    response = site_client.get(f"/de{ENGLISH_ONLY}")
    assert response.status_code == 404
    response = site_client.get(ENGLISH_ONLY, headers={"Accept-Language": "de"})
    assert response.status_code == 302
    assert response.location.endswith(f"/en{ENGLISH_ONLY}")


def test_error_pages_under_de_are_german_and_name_no_address(
    site_client: FlaskClient, parse: Parse
) -> None:
    for path in (f"/de{ENGLISH_ONLY}", "/de/features/no-such-feature", "/de/nowhere"):
        response = site_client.get(path)
        assert response.status_code == 404, path
        page = parse(response.get_data(as_text=True))
        assert page.root.get("lang") == "de"
        assert page.title() == "Seite nicht gefunden · Marmeon Notes"
        assert page.links("canonical") == []
        assert page.hreflang() == {}
        assert page.one_meta("robots") == "noindex"
    english = parse(site_client.get("/en/nowhere").get_data(as_text=True))
    assert english.title() == "Page not found · Marmeon Notes"
