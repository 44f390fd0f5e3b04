"""A paged sitemap provider over a SQLAlchemy ``select()``: :func:`paged`.

Needs SQLAlchemy (the ``sqlalchemy`` extra); Flask-SQLAlchemy's
``db.session`` is the default session. Where parts begin is one query that
numbers the statement's keys with a window function and returns only every
``size``-th one; a part is the statement limited to its range of keys. No
query sends every row to Python, and none walks an OFFSET.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from flask import current_app

try:
    from sqlalchemy import ColumnElement, Select, func, select
    from sqlalchemy.orm import Session, scoped_session, sessionmaker
except ImportError as error:  # pragma: no cover - the extra is missing
    raise ImportError(
        "flask_marmeon.sqlalchemy needs SQLAlchemy: pip install"
        " 'flask-marmeon[sqlalchemy]'."
    ) from error

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
                f"has paged({_shown(statement)}, ...), which is not a select():"
                " pass select(Model.id, ...) (a Query's .statement is one too)"
            )
        else:
            self._column = _column_of(statement, key)
            if self._column is None:
                names = ", ".join(repr(c.key) for c in statement.selected_columns)
                self._problems.append(
                    f"has paged(..., key={_shown(key)}), which is not a column of"
                    f" its statement (it selects {names}): pass one of them,"
                    " unique and ordered, such as key=Product.id"
                )
        if not callable(entry):
            self._problems.append(
                f"has paged(..., entry={_shown(entry)}), which is not a function:"
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
        """One query: the statement's keys numbered in order, every
        ``size``-th one kept, from the first."""
        statement, column = self._parts()
        keys = (
            statement.with_only_columns(column, maintain_column_froms=True)
            .order_by(None)
            .limit(None)
            .subquery()
        )
        key = keys.c[0]
        numbered = select(
            key.label("key"), func.row_number().over(order_by=key).label("number")
        ).subquery()
        query = (
            select(numbered.c.key)
            .where((numbered.c.number - 1) % size == 0)
            .order_by(numbered.c.key)
        )
        with self._session() as session:
            return list(session.execute(query).scalars())

    def entries(self, start: Any, stop: Any | None, limit: int) -> Iterator[object]:
        """The rows whose key is from ``start`` up to ``stop``, in key
        order, at most ``limit``, each turned into an entry by ``entry``."""
        statement, column = self._parts()
        query = statement.where(column >= start)
        if stop is not None:
            query = query.where(column < stop)
        query = query.order_by(None).order_by(column).limit(limit)
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


def _shown(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


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
    :param key: a unique, ordered column of ``statement`` (``Product.id``);
        parts are ranges of it. An index on it makes each part one range scan.
    :param entry: turns one row into a :class:`~flask_marmeon.SitemapEntry`
        (or its dict form).
    :param session: a SQLAlchemy ``Session`` (used as it is; it must be
        safe to use from the build's thread), a ``sessionmaker`` or
        ``scoped_session`` (a session made for each query, closed after it),
        or a function returning a new session (closed after use); by
        default Flask-SQLAlchemy's ``db.session`` of the app.

    Pass it as the route's ``sitemap=``. A ``statement`` that is not a
    ``select()``, or a ``key`` that is not one of its columns, is an H10
    problem of the route.
    """
    return SqlPaged(statement, key, entry, session)
