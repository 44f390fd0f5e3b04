"""The sitemap served: the endpoints, each file's cache and its refresh, the
shared store, the files' ETag and gzip, the log of failures."""
