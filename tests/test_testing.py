"""flask_marmeon.testing.assert_crawlable: the audit in an app's own tests."""

from __future__ import annotations

import pytest
from audit.conftest import DESCRIPTION_B, ORIGIN, Site, clean_site

from flask_marmeon.testing import assert_crawlable


@pytest.fixture
def site() -> Site:
    return clean_site()


def test_a_crawlable_app_passes_and_returns_the_report(site: Site) -> None:
    report = assert_crawlable(site.app(), warnings=True)
    assert report.pages == 2 and report.findings == ()


def test_errors_fail_with_every_error_listed(site: Site) -> None:
    del site.files["/a"]
    site.put("/b", "", status=302, headers={"Location": f"{ORIGIN}/c"})
    with pytest.raises(AssertionError) as failure:
        assert_crawlable(site.app())
    text = str(failure.value)
    assert f"error page-status: {ORIGIN}/a" in text
    assert f"error page-redirect: {ORIGIN}/b" in text
    # The home page links both: two broken links (/b redirects to /c, gone).
    assert text.count(f"error link-broken: {ORIGIN}/\n") == 2
    assert "4 errors" in text


def test_warnings_fail_only_when_asked(site: Site) -> None:
    site.page("/b", title="Chains", description=DESCRIPTION_B)
    report = assert_crawlable(site.app())
    assert [f.code for f in report.warnings] == ["title-too-short"]
    with pytest.raises(AssertionError, match=f"warning title-too-short: {ORIGIN}/b"):
        assert_crawlable(site.app(), warnings=True)
