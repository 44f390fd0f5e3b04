"""Helpers for an app's own test suite."""

from __future__ import annotations

from flask import Flask

from .audit import Report, audit
from .audit.fetch import TIMEOUT
from .audit.site import MAX_PAGES, MAX_SITEMAPS


def assert_crawlable(
    app: Flask,
    warnings: bool = False,
    *,
    timeout: float | None = TIMEOUT,
    max_pages: int = MAX_PAGES,
    max_sitemaps: int = MAX_SITEMAPS,
) -> Report:
    """Audit ``app`` as ``flask marmeon audit`` does; fail on its errors.

    Raises AssertionError listing every finding that is an error, and with
    ``warnings=True`` every warning too. Returns the report otherwise, so a
    test may look further. ``timeout``, ``max_pages`` and ``max_sitemaps``
    are :func:`~flask_marmeon.audit.audit`'s. ::

        def test_crawlable(app):
            assert_crawlable(app, warnings=True)
    """
    report = audit(app, timeout=timeout, max_pages=max_pages, max_sitemaps=max_sitemaps)
    failing = report.findings if warnings else report.errors
    if failing:
        lines = [f"{f.severity} {f.code}: {f.url}\n    {f.message}" for f in failing]
        raise AssertionError(f"{report.summary()}\n" + "\n".join(lines))
    return report


__all__ = ["assert_crawlable"]
