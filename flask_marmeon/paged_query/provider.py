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
from contextlib import closing, contextmanager
from datetime import datetime
from typing import Any

from flask import current_app

from ..errors import install_hint

try:
    from sqlalchemy import (
        ColumnElement,
        Date,
        DateTime,
        Select,
        func,
        select,
    )
    from sqlalchemy.orm import Session, scoped_session, sessionmaker
except ImportError as error:  # pragma: no cover - the extra is missing
    raise ImportError(
        f"flask_marmeon.sqlalchemy needs SQLAlchemy: {install_hint('sqlalchemy')}."
    ) from error

from ..sitemap.entries import shown
from .ranges import bounded, starts_query
from .statement_checks import (
    bare,
    keys_only,
    may_be_null,
    refused_shapes,
    say_null_keys,
    say_unindexed,
)

__all__ = ["SqlPaged", "paged"]

# Rows fetched at a time while changed rows (any number) are read. A part's
# (its size and one at most) are fetched at once: streamed, each batch's
# rows stay alive while written, and the GC walks and promotes them
# (benchmarks/README.md); fetched at once, they are tuples it untracks.
_YIELD_PER = 2000

# 500 parts of 50,000 URLs are 25 million rows in one query.
_STEPS_PER_QUERY = 500

# Databases with REPEATABLE READ, a snapshot for a whole transaction.
_REPEATABLE = ("postgresql", "mysql", "mariadb")

#: What ``session=`` takes.
SessionSource = Session | sessionmaker[Any] | scoped_session[Any] | Callable[[], Any]


class SqlPaged:
    """A :class:`~flask_marmeon.PagedProvider` over a ``select()``; made
    by :func:`paged`."""

    #: How many parts one boundaries query finds at most (its recursion's
    #: steps, under the database's cap on them: MySQL 8 allows 1,000). A
    #: table with more parts takes ``ceil(parts / steps_per_query)`` queries.
    steps_per_query: int = _STEPS_PER_QUERY

    def __init__(
        self,
        statement: object,
        key: object,
        entry: Callable[[Any], object],
        session: SessionSource | None,
        last_modified: object = None,
    ) -> None:
        self.statement = statement
        self.key = key
        self.entry = entry
        self.session = session
        self.last_modified = last_modified
        #: The selected column of last_modified=, when given.
        self._modified: ColumnElement[Any] | None = None
        self._problems: list[str] = []
        # The session of an export's snapshot (snapshot()), while it runs.
        self._pinned: Any = None
        # Rows with a NULL key when last counted: said again only when
        # their number changes, not on every rebuild of the boundaries.
        self._null_keys = 0
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
        if last_modified is not None and isinstance(statement, Select):
            self._modified = _column_of(statement, last_modified)
            if self._modified is None or not isinstance(
                self._modified.type, Date | DateTime
            ):
                self._problems.append(
                    f"has paged(..., last_modified={shown(last_modified)}), which"
                    " is not a date or datetime column of its statement: select"
                    " the column the entries' last_modified comes from, such as"
                    " last_modified=Product.updated_at"
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
        """The statement's first key, then every ``size``-th one after it,
        each found by stepping along the key's index from the last
        (:meth:`boundaries_query`). One query up to
        :attr:`steps_per_query` parts; a huge table takes a few, each going
        on from the last start the one before found (databases cap how many
        steps one recursive query may take)."""
        statement, column = self._parts()
        with self._session() as session:
            starts = self._starts(session, statement, column, size)
            if may_be_null(statement, column):
                null = bare(column).is_(None)
                counted = keys_only(statement, func.count()).where(null)
                nulls = int(session.execute(counted).scalar_one())
                if nulls and nulls != self._null_keys:
                    say_null_keys(nulls, self.key)
                self._null_keys = nulls
        say_unindexed(self.key, column)
        return starts

    def _starts(
        self,
        session: Any,
        statement: Select[Any],
        column: ColumnElement[Any],
        size: int,
        since: Any = None,
    ) -> list[Any]:
        """The starts of ``statement``'s parts of ``size`` rows, from its
        first key (or the first from ``since``), in queries of at most
        :attr:`steps_per_query` steps."""
        steps = self.steps_per_query
        if not isinstance(steps, int) or steps < 1:
            raise ValueError(
                f"SqlPaged.steps_per_query is {steps!r}: set a whole number of"
                f" at least 1 (the default is {_STEPS_PER_QUERY})."
            )
        starts: list[Any] = []
        query = starts_query(statement, column, size, steps, since)
        while True:
            found = list(session.execute(query).scalars())
            # steps + 1 rows: the recursion may have been cut; its last
            # start (never NULL) begins the next query.
            if len(found) <= steps:
                return starts + found
            starts += found[:steps]
            query = starts_query(statement, column, size, steps, found[steps])

    def split(self, start: Any, stop: Any | None, size: int) -> list[Any]:
        """Where parts of ``size`` rows begin within the range from ``start``
        (None: the smallest key) up to ``stop`` (not included; None: to the
        end): its first key, then every ``size``-th one, as
        :meth:`boundaries` finds them for the whole statement (nothing when
        the range holds no row). Asked when one part's range has outgrown
        it, so that only that range is split."""
        statement, column = self._parts()
        if stop is not None:
            statement = bounded(statement, bare(column) < stop)
        with self._session() as session:
            return self._starts(session, statement, column, size, start)

    def boundaries_query(self, size: int) -> Select[Any]:
        """The first query :meth:`boundaries` runs (the only one up to
        :attr:`steps_per_query` parts): to see its plan (``EXPLAIN``) on
        your database: an index-only scan of the key, stepping ``size``
        entries at a time from one part's first key to the next."""
        statement, column = self._parts()
        return starts_query(statement, column, size, self.steps_per_query)

    def entries(self, start: Any, stop: Any | None, limit: int) -> Iterator[object]:
        """The rows whose key is from ``start`` up to ``stop``, in key
        order, at most ``limit``, each turned into an entry by ``entry``."""
        statement, column = self._parts()
        key = bare(column)
        bounds = [key >= start] if stop is None else [key >= start, key < stop]
        query = bounded(statement, *bounds).order_by(None).order_by(key).limit(limit)
        yield from self._entries(query, streamed=False)

    def _entries(self, query: Select[Any], streamed: bool = True) -> Iterator[object]:
        """The entries of ``query``'s rows, read in batches when ``streamed``."""
        entry = self.entry
        options = {"yield_per": _YIELD_PER} if streamed else {}
        with self._session() as session:
            rows = session.execute(query.execution_options(**options))
            try:
                for row in rows:
                    yield entry(row)
            finally:
                # The server-side cursor, also when the writer stops early.
                rows.close()

    def changed(self, since: datetime) -> Iterator[object] | None:
        """The entries of the rows whose ``last_modified=`` column is later
        than ``since`` (aware, UTC), in key order: one query with that
        bound in its WHERE, so only the changed rows are read (an index on
        the column makes it a range scan). None without ``last_modified=``:
        then every part is read (IndexNow's ``flask marmeon indexnow``)."""
        modified = self._modified
        if modified is None:
            return None
        statement, column = self._parts()
        kind = modified.type
        changed: ColumnElement[bool]
        if isinstance(kind, DateTime):
            # A column without a time zone holds UTC as naive values.
            bound = since if kind.timezone else since.replace(tzinfo=None)
            changed = bare(modified) > bound
        else:
            # A date counts as its whole day (flask_marmeon.sitemap.changes).
            changed = bare(modified) >= since.date()
        key = bare(column)
        query = bounded(statement, changed).order_by(None).order_by(key)
        return self._entries(query)

    def count(self, start: Any, stop: Any | None) -> int:
        """How many rows the range from ``start`` up to ``stop`` holds (one
        ``COUNT``): asked only when a part's range holds more rows than the
        part may, so that the log says how many wait."""
        statement, column = self._parts()
        key = bare(column)
        bounds = [key >= start] if stop is None else [key >= start, key < stop]
        rows = bounded(keys_only(statement, key), *bounds).order_by(None).subquery()
        with self._session() as session:
            return int(
                session.execute(select(func.count()).select_from(rows)).scalar_one()
            )

    @contextmanager
    def snapshot(self) -> Iterator[None]:
        """Every query of this provider until the end of ``with`` in one
        transaction of one session, ``REPEATABLE READ`` where the database
        has it (PostgreSQL, MySQL): what ``export-sitemap`` reads where parts
        begin and every part in, so that its files list every row once
        while rows change. Rolled back at the end (it only reads)."""
        with self._session() as source:
            session = source() if isinstance(source, scoped_session) else source
            try:
                dialect = session.get_bind().dialect.name
            except Exception:  # several binds: the database decides
                dialect = ""
            if dialect in _REPEATABLE and not session.in_transaction():
                session.connection(
                    execution_options={"isolation_level": "REPEATABLE READ"}
                )
            self._pinned = session
            try:
                yield
            finally:
                self._pinned = None
                session.rollback()

    @contextmanager
    def _session(self) -> Iterator[Any]:
        if self._pinned is not None:
            yield self._pinned  # an export's snapshot
            return
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
            with closing(source()) as made:
                yield made


def _column_of(statement: Select[Any], key: object) -> ColumnElement[Any] | None:
    """The selected column that ``key`` names (a mapped attribute, a Column,
    or a selected column's name), or None."""
    columns = statement.selected_columns
    if isinstance(key, str):
        return columns.get(key)
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
    last_modified: Any = None,
) -> SqlPaged:
    """A paged sitemap provider over ``statement``, a SQLAlchemy ``select()``.

    :param statement: the rows of the route's pages: ``select(Product.id,
        Product.updated_at).where(Product.listed)``.
    :param key: a column of ``statement`` (``Product.id``), best unique;
        parts are ranges of it, listed in its order. It needs an index (a
        primary key has one; the log says so, once, when the model
        declares none on it): where parts begin is then found by stepping
        along the index, and each part is one range scan. That is one
        query up to 500 parts; a huge table takes a few, each going on
        from where the last stopped, as databases cap a recursive query's
        steps (:attr:`SqlPaged.steps_per_query`). Any type the
        database orders works (integers, strings, UUIDs, dates); a key that
        repeats keeps each part within its size unless one value has more
        rows than a part holds; rows whose key is NULL are in no part (the
        log says how many, again only when that number changes).
    :param entry: turns one row into a :class:`~flask_marmeon.SitemapEntry`
        (or its dict form).
    :param session: a SQLAlchemy ``Session`` (used as it is; it must be
        safe to use from the build's thread), a ``sessionmaker`` or
        ``scoped_session`` (a session made for each query, closed after it),
        or a function returning a new session (closed after use); by
        default Flask-SQLAlchemy's ``db.session`` of the app.
    :param last_modified: the date or datetime column of ``statement`` that
        the entries' ``last_modified`` comes from (``Product.updated_at``;
        a datetime column without a time zone is read as UTC). With it,
        ``flask marmeon indexnow`` reads only the rows changed since its
        last run (a ``WHERE`` on it; an index on it helps) instead of every
        part. A column that is not one of the statement's is an H10
        problem of the route.

    Pass it as the route's ``sitemap=``. A ``statement`` that is not a
    ``select()``, or a ``key`` that is not one of its columns, is an H10
    problem of the route; so is a statement with ``.limit()``,
    ``.offset()``, ``.distinct()``, ``.group_by()``, ``.having()`` or a
    window function among its columns, which
    ranges of keys cannot keep (the message says what to write instead).
    The statement's own ``.order_by()`` is not used: parts are in key order.
    """
    return SqlPaged(statement, key, entry, session, last_modified)
