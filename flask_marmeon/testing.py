"""Helpers for an app's own test suite."""

from __future__ import annotations

from flask import Flask

from .audit import Report, audit


def assert_crawlable(app: Flask, warnings: bool = False) -> Report:
    """Audit ``app`` as ``flask marmeon audit`` does; fail on its errors.

    Raises AssertionError listing every finding that is an error, and with
    ``warnings=True`` every warning too. Returns the report otherwise, so a
    test may look further. ::

        def test_crawlable(app):
            assert_crawlable(app, warnings=True)
    """
    report = audit(app)
    failing = report.findings if warnings else report.errors
    if failing:
        lines = [f"{f.severity} {f.code}: {f.url}\n    {f.message}" for f in failing]
        raise AssertionError(f"{report.summary()}\n" + "\n".join(lines))
    return report


__all__ = ["assert_crawlable"]
