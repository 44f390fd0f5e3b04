"""The queries of :func:`flask_marmeon.sqlalchemy.paged` that say where
parts begin and bound a range of keys (SQLAlchemy needed: imported by
``paged_query.provider`` only)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import ColumnElement, Select, case, literal, select

from .statement_checks import bare, keys_only


def starts_query(
    statement: Select[Any],
    column: ColumnElement[Any],
    size: int,
    steps: int,
    since: Any = None,
) -> Select[Any]:
    """Where parts begin, in one query: a recursive CTE whose rows are
    (a part's first key, the key ``size`` rows on from it, its number),
    from the smallest key (or the smallest from ``since``, a start found
    before), at most ``steps`` steps::

        WITH RECURSIVE starts(start, ahead, depth) AS (
          SELECT key, (SELECT key FROM <statement> AND key >= first.key
                       ORDER BY key OFFSET size LIMIT 1), 0
          FROM (SELECT key FROM <statement> [AND key >= since]
                ORDER BY key LIMIT 1) AS first
          UNION ALL
          SELECT next, (SELECT key FROM <statement> AND key >= next
                        ORDER BY key OFFSET size LIMIT 1), depth + 1
          FROM starts WHERE ahead IS NOT NULL AND depth < steps)
        SELECT start FROM starts WHERE start IS NOT NULL ORDER BY start

    where ``next`` is ``CASE WHEN ahead > start THEN ahead ELSE (SELECT
    key FROM <statement> AND key > start ORDER BY key LIMIT 1) END``.

    With an index on the key each step is one descent and ``size``
    entries read from the index alone, against a sort or a window over
    every row (benchmarks/scale.py: about four times less time); each
    subquery has one bound on the key, which the index takes (SQLite,
    given two, may read the other as a filter on every entry). The next
    start is the key ``size`` rows on, so a part's range never holds more
    than ``size`` rows, even with keys that repeat; when one key has more
    rows than that, the next start is the next key, so the query always
    ends, and each step finds one start: it returns ``steps + 1`` starts
    when it was cut.
    """
    key = bare(column)
    keys = keys_only(statement, key)
    # The smallest key by ORDER BY ... LIMIT 1, not min(): PostgreSQL has no
    # min(uuid). Both terms' columns are the key's, of its very type
    # (varchar(40), not varchar): PostgreSQL wants the same types in both.
    # (NULL keys, in no range, are left out: SQLite puts them first.)
    smallest = keys.where(key.is_not(None))
    if since is not None:
        # ">=", not "==": the start may have been deleted since.
        smallest = bounded(smallest, key >= since)
    lowest = smallest.order_by(key).limit(1).subquery("marmeon_first").c[0]

    def ahead(start: ColumnElement[Any]) -> Select[Any]:
        # The key size rows on from start: start itself when its rows are
        # more than a part holds; NULL past the end.
        return bounded(keys, key >= start).order_by(key).offset(size).limit(1)

    first = select(
        lowest.label("start"),
        ahead(lowest).scalar_subquery().label("ahead"),
        literal(0).label("depth"),
    ).cte("marmeon_starts", recursive=True)
    start, probe, depth = first.c.start, first.c.ahead, first.c.depth
    after = bounded(keys, key > start).order_by(key).limit(1)
    # Correlated with the CTE alone: the key's table is each subquery's own.
    following = case(
        (probe > start, probe), else_=after.correlate(first).scalar_subquery()
    )
    starts = first.union_all(
        select(
            following.label("start"),
            ahead(following).correlate(first).scalar_subquery().label("ahead"),
            (depth + 1).label("depth"),
        )
        .where(probe.is_not(None))
        .where(depth < steps)
    )
    return (
        select(starts.c.start)
        .where(starts.c.start.is_not(None))
        .order_by(starts.c.start)
    )


def bounded(query: Select[Any], *bounds: ColumnElement[bool]) -> Select[Any]:
    """``query.where(*bounds)``, the bounds first in its WHERE.

    SQLite starts an index's range at the first bound on its column it
    finds in the WHERE clause: after a statement's own (``.where(Product.id
    > 10)``), every step and every part would scan the index from there
    (400,000 rows: 14.9 s for the boundaries instead of 0.04 s).
    SQLAlchemy has no public way to put a condition first, so the
    statement's criteria are moved behind ours on the new statement (the
    one ``.where()`` made, never the user's).
    """
    bounded = query.where(*bounds)
    own = getattr(query, "_where_criteria", None)
    added = getattr(bounded, "_where_criteria", None)
    if isinstance(own, tuple) and isinstance(added, tuple) and own:
        bounded._where_criteria = (*added[len(own) :], *own)
    return bounded
