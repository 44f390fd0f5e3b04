"""Proof of crawlability: the audit of an app through its own answers.

``audit(app)`` fetches robots.txt, the sitemaps and every listed page
in-process and returns a :class:`Report` of :class:`Finding`\\ s, each with a
stable code (see ``CODES``). ``flask marmeon audit`` prints it;
:func:`flask_marmeon.testing.assert_crawlable` fails a test with it; the
development preview at ``/_marmeon/preview`` shows it beside the page.

Needs the ``audit`` extra: ``pip install "/path/to/checkout[audit]"`` from a
checkout of the repository, or a built wheel with ``[audit]`` (the package is
not on PyPI yet; once it is published, ``pip install "flask-marmeon[audit]"``).
"""

from __future__ import annotations

from .findings import CODES as CODES
from .findings import Finding as Finding
from .findings import Severity as Severity
from .report import Report as Report
from .run import audit as audit

__all__ = ["CODES", "Finding", "Report", "Severity", "audit"]
