"""The content of ``<meta name="robots">``, from the merged ``robots`` keys."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def robots_content(
    robots: Mapping[str, Any] | None,
    directives: tuple[tuple[str, str], ...],
    index_follow: tuple[str, str],
    *,
    indexable: bool = True,
) -> str | None:
    """``index``/``noindex``, ``follow``/``nofollow``, then Google's directives.

    ``directives`` are ``(key, form)`` in output order (the robots table's,
    :mod:`flask_marmeon.head.table`), the form ``"max-snippet:{}"`` or a word;
    ``index_follow`` the keys of index and follow (the table's roles). A
    boolean directive is written only when True. When the site is not
    ``indexable`` (MARMEON_INDEXABLE), it starts with ``noindex, nofollow``
    whatever the page set.
    """
    if robots is None:
        return None if indexable else "noindex, nofollow"
    index_key, follow_key = index_follow
    if indexable:
        parts = []
        index = robots.get(index_key)
        if index is not None:
            parts.append("index" if index else "noindex")
        follow = robots.get(follow_key)
        if follow is not None:
            parts.append("follow" if follow else "nofollow")
    else:
        parts = ["noindex", "nofollow"]
    if len(robots) > (index_key in robots) + (follow_key in robots):
        # Google's directives, when any is set (most pages set none).
        for key, form in directives:
            value = robots.get(key)
            if value is not None and value is not False:
                parts.append(form.format(value))
    return ", ".join(parts) if parts else None


def noindex(
    robots: Mapping[str, Any] | None, index_key: str, *, indexable: bool = True
) -> bool:
    """Whether the robots meta says ``noindex`` (the page's or the site's);
    ``index_key``: the key of index (the table's role)."""
    return not indexable or (robots is not None and robots.get(index_key) is False)
