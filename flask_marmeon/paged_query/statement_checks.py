"""What :func:`flask_marmeon.sqlalchemy.paged` checks of its statement and
key: the parts of a ``select()`` that ranges of keys cannot keep (refused at
the route, H10), rows whose key is NULL (in no part: logged), and a key the
model declares no index on (every step of the boundaries query would read
the whole table: logged once). Also the small helpers both modules use.
"""

from __future__ import annotations

from typing import Any

from flask import current_app, has_app_context
from sqlalchemy import (
    ColumnElement,
    Join,
    Label,
    PrimaryKeyConstraint,
    Select,
    Table,
    UniqueConstraint,
)
from sqlalchemy.sql.elements import Over
from sqlalchemy.sql.visitors import iterate

from .._log import logger, warn_once
from .._state import get_state
from ..sitemap.entries import shown


def bare(column: ColumnElement[Any]) -> ColumnElement[Any]:
    """A selected column without its label (``Product.id.label("pid")``
    compares and orders as ``product.id``)."""
    return column.element if isinstance(column, Label) else column


def keys_only(statement: Select[Any], *columns: ColumnElement[Any]) -> Select[Any]:
    """The statement's FROM, joins and WHERE, selecting ``columns``."""
    return statement.with_only_columns(*columns, maintain_column_froms=True).order_by(
        None
    )


def named(key: object) -> str:
    """A key as its code would say it: ``Product.id``, or its repr."""
    owner = getattr(key, "class_", None)
    name = getattr(key, "key", None)
    if isinstance(owner, type) and isinstance(name, str):
        return f"{owner.__name__}.{name}"
    return shown(key)


def may_be_null(statement: Select[Any], column: ColumnElement[Any]) -> bool:
    """Whether the key can be NULL: not a column declared NOT NULL, or one
    on the side of an outer join that gives NULL for a missing row."""
    key = bare(column)
    nullable = getattr(key, "nullable", True)
    if bool(nullable) and not getattr(key, "primary_key", False):
        return True
    table = getattr(key, "table", None)
    joins = [f for f in statement.get_final_froms() if isinstance(f, Join)]
    while joins:
        join = joins.pop()
        sides = [join.right] if join.isouter else []
        sides += [join.left, join.right] if join.full else []
        if any(table is None or side.is_derived_from(table) for side in sides):
            return True
        joins += [side for side in (join.left, join.right) if isinstance(side, Join)]
    return False


def say_unindexed(given: object, column: ColumnElement[Any]) -> None:
    """Warn (once per app) when the key is a table's column that its model
    declares no index on (as an index's first column; not for an expression,
    whose index the model cannot tell): where parts begin steps along the
    key's index, and each step without one reads the table."""
    key = bare(column)
    table = getattr(key, "table", None)
    name = getattr(key, "name", None)
    if not isinstance(table, Table) or not isinstance(name, str) or name not in table.c:
        return
    declared = table.c[name]
    groups = [index.columns for index in table.indexes] + [
        constraint.columns
        for constraint in table.constraints
        if isinstance(constraint, PrimaryKeyConstraint | UniqueConstraint)
    ]
    first = any(len(group) and list(group)[0].name == name for group in groups)
    if declared.index or declared.unique or first:
        return
    table_column = f"{table.name}.{name}"
    message = (
        "Sitemap: paged(..., key=%s): the model declares no index on %s."
        " Where parts begin is found by stepping along the key's index;"
        " without one, every step reads the whole table. Add index=True to"
        " the column (or an Index in the database), or use the primary key."
    )
    if has_app_context():
        state = get_state(current_app)
        key_of = ("paged-unindexed", table_column)
        warn_once(state, key_of, message, named(given), table_column)
    else:
        logger.warning(message, named(given), table_column)


def say_null_keys(count: int, given: object) -> None:
    """Log ``count`` rows whose key is NULL (in no part, so not listed)."""
    logger.warning(
        "Sitemap: %d row%s of paged(..., key=%s) %s a NULL key, so %s in"
        " no part and not listed. Add .where(%s.is_not(None)) to the"
        " statement if that is meant, or choose a key that is never NULL.",
        count,
        "" if count == 1 else "s",
        named(given),
        "has" if count == 1 else "have",
        "it is" if count == 1 else "they are",
        named(given),
    )


#: What a statement may hold that paged() cannot keep (its ranges of keys
#: would silently change what is listed), and what to do instead.
_REFUSED = (
    (
        "_limit_clause",
        ".limit()",
        "a sitemap of paged() lists every row of its statement; to list only"
        " some, filter with .where() (such as .where(Product.updated_at >="
        " cutoff)), or page over a subquery: rows = select(...).order_by(...)"
        ".limit(n).subquery(); paged(select(rows), key=rows.c.id, ...)",
    ),
    ("_offset_clause", ".offset()", "the same as for .limit()"),
    ("_fetch_clause", ".fetch()", "the same as for .limit()"),
    (
        "_distinct",
        ".distinct()",
        "each row is one page and its key is unique, so remove it; if a join"
        " repeats rows, filter with .where(Product.id.in_(select(...)))"
        " instead of joining",
    ),
    (
        "_group_by_clauses",
        ".group_by()",
        "a part is a range of the key over the statement's rows; page over a"
        " subquery: rows = select(...).group_by(...).subquery();"
        " paged(select(rows), key=rows.c.id, ...)",
    ),
    ("_having_criteria", ".having()", "the same as for .group_by()"),
    (
        "_for_update_arg",
        ".with_for_update()",
        "the sitemap only reads: remove it",
    ),
)


def refused_shapes(statement: Select[Any]) -> list[str]:
    """H10 problems: the parts of ``statement`` that paged() cannot keep."""
    found = [
        f"has paged(select(...){name}, ...), which paged() cannot keep (its"
        f" parts are ranges of the key, in key order): {fix}"
        for attribute, name, fix in _REFUSED
        if _present(getattr(statement, attribute, None))
    ]
    windows = [
        str(selected.key)
        for selected in statement.selected_columns
        if any(isinstance(inner, Over) for inner in iterate(selected))
    ]
    if windows:
        found.append(
            f"has paged(select(...), ...) with a window function (.over()) in"
            f" {', '.join(repr(name) for name in windows)}, which paged() cannot"
            " keep: each part's query would compute it over that part's rows"
            " alone. Compute it in entry, or page over a subquery: rows ="
            " select(...).subquery(); paged(select(rows), key=rows.c.id, ...)"
        )
    return found


def _present(value: object) -> bool:
    # A clause has no truth value: None, False and () say "not set".
    return not (
        value is None or value is False or (isinstance(value, tuple) and not value)
    )
