"""A paged sitemap provider over a SQLAlchemy ``select()``: :func:`paged`.

Needs SQLAlchemy (the ``sqlalchemy`` extra); Flask-SQLAlchemy's
``db.session`` is the default session. Where parts begin is one recursive
query that steps along the key's index from one part's first key to the
next (``OFFSET size`` from where the last part began), returning only those
keys; a part is the statement limited to its range of keys. No query sends
every row to Python, numbers every row, or sorts them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from flask import current_app

try:
    from sqlalchemy import ColumnElement, Select, case, func, select
    from sqlalchemy.orm import Session, scoped_session, sessionmaker
except ImportError as error:  # pragma: no cover - the extra is missing
    raise ImportError(
        "flask_marmeon.sqlalchemy needs SQLAlchemy: pip install"
        " 'flask-marmeon[sqlalchemy]'."
    ) from error

from .sitemap.entries import shown
from .sqlalchemy_checks import (
    bare,
    keys_only,
    may_be_null,
    refused_shapes,
    say_null_keys,
    say_unindexed,
    unindexed,
)

__all__ = ["SqlPaged", "paged"]

# Rows fetched from the database at a time while a part is written.
_YIELD_PER = 2000

#: What ``session=`` takes.
SessionSource = Session | sessionmaker[Any] | scoped_session[Any] | Callable[[], Any]


class SqlPaged:
    """A :class:`~flask_marmeon.PagedProvider` over a ``select()``; made
    by :func:`paged`."""

    def __init__(
        self,
        statement: object,
        key: object,
        entry: Callable[[Any], object],
        session: SessionSource | None,
    ) -> None:
        self.statement = statement
        self.key = key
        self.entry = entry
        self.session = session
        self._problems: list[str] = []
        self._column: ColumnElement[Any] | None = None
        if not isinstance(statement, Select):
            self._problems.append(
                f"has paged({shown(statement)}, ...), which is not a select():"
                " pass select(Model.id, ...) (a Query's .statement is one too)"
            )
        else:
            self._problems += refused_shapes(statement)
            self._column = _column_of(statement, key)
            if self._column is None:
                names = ", ".join(repr(c.key) for c in statement.selected_columns)
                self._problems.append(
                    f"has paged(..., key={shown(key)}), which is not a column of"
                    f" its statement (it selects {names}): pass one of them,"
                    " unique and ordered, such as key=Product.id"
                )
        if not callable(entry):
            self._problems.append(
                f"has paged(..., entry={shown(entry)}), which is not a function:"
                " pass one that turns a row into a SitemapEntry"
            )

    def problems(self) -> list[str]:
        """What is wrong with the arguments (each an H10 problem of the route)."""
        return list(self._problems)

    def _parts(self) -> tuple[Select[Any], ColumnElement[Any]]:
        if self._problems or self._column is None:
            raise TypeError("; ".join(self._problems))
        assert isinstance(self.statement, Select)
        return self.statement, self._column

    def boundaries(self, size: int) -> list[Any]:
        """One query: the statement's first key, then every ``size``-th one
        after it, each found by stepping along the key's index from the
        last (:meth:`boundaries_query`)."""
        statement, column = self._parts()
        with self._session() as session:
            starts = list(session.execute(self.boundaries_query(size)))
            if may_be_null(statement, column):
                say_null_keys(session, statement, column, self.key)
        without = unindexed(column)
        if without is not None:
            say_unindexed(self.key, without)
        return [start for (start,) in starts]

    def boundaries_query(self, size: int) -> Select[Any]:
        """The query :meth:`boundaries` runs: to see its plan (``EXPLAIN``)
        on your database: an index-only scan of the key, stepping
        ``size`` entries at a time from one part's first key to the next."""
        statement, column = self._parts()
        return _starts_query(statement, column, size)

    def entries(self, start: Any, stop: Any | None, limit: int) -> Iterator[object]:
        """The rows whose key is from ``start`` up to ``stop``, in key
        order, at most ``limit``, each turned into an entry by ``entry``."""
        statement, column = self._parts()
        key = bare(column)
        query = statement.where(key >= start)
        if stop is not None:
            query = query.where(key < stop)
        query = query.order_by(None).order_by(key).limit(limit)
        entry = self.entry
        with self._session() as session:
            rows = session.execute(query.execution_options(yield_per=_YIELD_PER))
            try:
                for row in rows:
                    yield entry(row)
            finally:
                # The server-side cursor, also when the writer stops early.
                rows.close()

    @contextmanager
    def _session(self) -> Iterator[Any]:
        source = self.session
        if source is None:
            # Flask-SQLAlchemy's db.session: scoped to the build's own app
            # context, removed when it ends.
            extension = current_app.extensions.get("sqlalchemy")
            if extension is None:
                raise RuntimeError(
                    "paged() has no session: set up Flask-SQLAlchemy on the app,"
                    " or pass session= (a Session, a sessionmaker or a function"
                    " returning a session)."
                )
            yield extension.session
        elif isinstance(source, sessionmaker):
            # A session of our own, closed when the query is done.
            with source() as session:
                yield session
        elif isinstance(source, scoped_session):
            # Its session of the build's own thread (or scope), which ends.
            try:
                yield source
            finally:
                source.remove()
        elif isinstance(source, Session):
            yield source  # the app's own: left as it is
        else:
            made = source()
            try:
                yield made
            finally:
                made.close()


def _starts_query(
    statement: Select[Any], column: ColumnElement[Any], size: int
) -> Select[Any]:
    """Where parts begin, in one query: a recursive CTE whose rows are
    (a part's first key, the previous one), from the smallest key::

        WITH RECURSIVE starts(start, previous) AS (
          SELECT key, NULL FROM <statement> ORDER BY key LIMIT 1
          UNION ALL
          SELECT CASE WHEN previous IS NULL OR start > previous
                   THEN (SELECT key FROM <statement> AND key >= start
                         ORDER BY key OFFSET size LIMIT 1)
                   ELSE (SELECT key FROM <statement> AND key > start
                         ORDER BY key LIMIT 1) END,
                 start
          FROM starts WHERE start IS NOT NULL)
        SELECT start FROM starts
        WHERE start IS NOT NULL AND (previous IS NULL OR start > previous)
        ORDER BY start

    With an index on the key each step is one descent and ``size``
    entries read from the index alone, against a sort or a window over
    every row (benchmarks/scale.py: about four times less time). The next start
    is the key ``size`` rows on, so a part's range never holds more than
    ``size`` rows, even with keys that repeat; when one key has more rows
    than that, the step after it is the next key, so the query always ends.
    """
    key = bare(column)
    keys = keys_only(statement, key)
    # The smallest key by ORDER BY ... LIMIT 1, not min(): PostgreSQL has no
    # min(uuid). Its NULL twin has its very type (varchar(40), not varchar):
    # PostgreSQL wants the same types in both terms.
    # (NULL keys, in no range, are left out: SQLite puts them first.)
    smallest = (
        keys.where(key.is_not(None)).order_by(key).limit(1).subquery("marmeon_first")
    )
    lowest = smallest.c[0]
    first = select(
        lowest.label("start"), func.nullif(lowest, lowest).label("previous")
    ).cte("marmeon_starts", recursive=True)
    start, previous = first.c.start, first.c.previous
    ahead = keys.where(key >= start).order_by(key).offset(size).limit(1)
    after = keys.where(key > start).order_by(key).limit(1)
    step = case(
        (previous.is_(None) | (start > previous), ahead.scalar_subquery()),
        else_=after.scalar_subquery(),
    )
    starts = first.union_all(
        select(step.label("start"), start.label("previous")).where(start.is_not(None))
    )
    return (
        select(starts.c.start)
        .where(starts.c.start.is_not(None))
        .where(starts.c.previous.is_(None) | (starts.c.start > starts.c.previous))
        .order_by(starts.c.start)
    )


def _column_of(statement: Select[Any], key: object) -> ColumnElement[Any] | None:
    """The selected column that ``key`` names (a mapped attribute, a Column,
    or a selected column's name), or None."""
    columns = statement.selected_columns
    if isinstance(key, str):
        found = columns.get(key)
        return found if found is not None else None
    element = getattr(key, "__clause_element__", None)
    expression: object = element() if callable(element) else key
    if not isinstance(expression, ColumnElement):
        return None
    return columns.corresponding_column(expression)


def paged(
    statement: Any,
    *,
    key: Any,
    entry: Callable[[Any], object],
    session: SessionSource | None = None,
) -> SqlPaged:
    """A paged sitemap provider over ``statement``, a SQLAlchemy ``select()``.

    :param statement: the rows of the route's pages: ``select(Product.id,
        Product.updated_at).where(Product.listed)``.
    :param key: a column of ``statement`` (``Product.id``), best unique;
        parts are ranges of it, listed in its order. It needs an index (a
        primary key has one): where parts begin is then found by stepping
        along the index, and each part is one range scan (the log says so,
        once, when the model declares no index on it). Any type the
        database orders works (integers, strings, UUIDs, dates); a key that
        repeats keeps each part within its size unless one value has more
        rows than a part holds; rows whose key is NULL are in no part (the
        log says how many).
    :param entry: turns one row into a :class:`~flask_marmeon.SitemapEntry`
        (or its dict form).
    :param session: a SQLAlchemy ``Session`` (used as it is; it must be
        safe to use from the build's thread), a ``sessionmaker`` or
        ``scoped_session`` (a session made for each query, closed after it),
        or a function returning a new session (closed after use); by
        default Flask-SQLAlchemy's ``db.session`` of the app.

    Pass it as the route's ``sitemap=``. A ``statement`` that is not a
    ``select()``, or a ``key`` that is not one of its columns, is an H10
    problem of the route; so is a statement with ``.limit()``,
    ``.offset()``, ``.distinct()``, ``.group_by()``, ``.having()`` or a
    window function among its columns, which
    ranges of keys cannot keep (the message says what to write instead).
    The statement's own ``.order_by()`` is not used: parts are in key order.
    """
    return SqlPaged(statement, key, entry, session)
