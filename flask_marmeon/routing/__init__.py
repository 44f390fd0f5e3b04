"""Routes that take sitemap=, authorize= and internal=."""
