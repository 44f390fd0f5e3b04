"""IndexNow: tell search engines which pages changed (see docs/indexnow.rst)."""
