"""IndexNow: tell search engines which pages changed (see docs/indexnow.rst).

``flask marmeon indexnow`` and :func:`submit_changed` send every address
whose sitemap entry changed since the last run; the key is served at
``/<key>.txt`` (:mod:`.key_file`).
"""

from .send import Answer
from .submit import IndexNowError, Submission, submit_changed

__all__ = ["Answer", "IndexNowError", "Submission", "submit_changed"]
