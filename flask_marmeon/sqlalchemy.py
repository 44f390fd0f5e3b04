"""A paged sitemap provider over a SQLAlchemy ``select()``: :func:`paged`.

The public face of :mod:`flask_marmeon.paged_query`, where the code lives
(the provider, the checks of its statement, the queries of its ranges).
This module keeps the name ``flask_marmeon.sqlalchemy`` because the API
(``from flask_marmeon.sqlalchemy import paged``) pins it; the code has a
name of its own so that it is not mistaken for the library it uses.
Needs SQLAlchemy (the ``sqlalchemy`` extra).
"""

from .paged_query.provider import SqlPaged as SqlPaged
from .paged_query.provider import paged as paged

__all__ = ["SqlPaged", "paged"]
