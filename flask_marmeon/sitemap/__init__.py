"""The sitemap: providers, entries, XML, cache and endpoints."""
