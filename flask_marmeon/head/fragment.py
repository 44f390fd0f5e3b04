"""head(**fields): one call, checked with the table
(:mod:`flask_marmeon.head.table`), as a :data:`HeadFragment`. Nothing later
in the pipeline validates again.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeAlias

from .table import HEAD

#: One ``head()`` call, validated and normalized: a plain dict of the
#: arguments it set (``None`` means "not set", so it is not there), read-only
#: by use. ``robots``, ``open_graph`` and ``twitter`` hold only the keys the
#: call set (an empty mapping still counts as set), ``open_graph["article"]``
#: too; ``json_ld`` is a tuple of blocks. A plain dict: the keyword
#: arguments' own dict is checked into it, and nothing is cheaper to make.
HeadFragment: TypeAlias = dict[str, Any]

_check = HEAD.check.check


def build_fragment(fields: Mapping[str, object]) -> HeadFragment:
    """Validate the keyword arguments of one ``head()`` call.

    This runs for every ``head()`` call: a value of the commonest kinds (a
    printable ``str``, a ``bool``, a size, a listed choice) is taken as it
    is, everything else goes through its field's ``check``.
    """
    return _check(fields, "")
