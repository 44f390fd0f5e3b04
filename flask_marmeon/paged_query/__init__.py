"""Sitemap parts read by ranges of a key from a SQLAlchemy ``select()``:
:func:`provider.paged`, public as :func:`flask_marmeon.sqlalchemy.paged`.
Needs SQLAlchemy (the ``sqlalchemy`` extra): import its modules only when
it is there."""
