"""A page's JSON-LD blocks in its head: two steps at the head's stages.

At ``merged`` (every request, before the memo) each block is written as
JSON (:func:`~.jsonld.dumps`): the texts, not the blocks, key the memo. A
block JSON cannot write exactly is a bug in the app: development raises,
production leaves it out and logs it. At ``resolve`` the texts take the
blocks' place, and the table's writer writes them, last.
"""

from __future__ import annotations

from typing import Any

from .._log import logger
from .._state import MarmeonState
from . import jsonld, roles
from .merge import MergedHead
from .stages import StageContext
from .state import JSON_LD_ERRORS_SIZE, head_state
from .table import HEAD

#: The key of the JSON-LD blocks.
_JSON_LD = HEAD.named(roles.JSON_LD)


def written(merged: MergedHead, context: StageContext) -> MergedHead:
    """The ``merged`` step: the blocks' texts, for the memo and resolve
    (``context.json_ld``)."""
    blocks = merged.get(_JSON_LD)
    if blocks and context.state is not None:
        context.json_ld = texts(blocks, context.state, context.dev)
    return merged


def placed(merged: MergedHead, context: StageContext) -> MergedHead:
    """The ``resolve`` step: the blocks' texts in the blocks' place."""
    if not context.json_ld and _JSON_LD not in merged:
        return merged
    return {**merged, _JSON_LD: tuple(context.json_ld)}


def texts(blocks: tuple[Any, ...], state: MarmeonState, dev: bool) -> list[str]:
    """Write each block's JSON (see the module). Production logs once per
    kind of block (its @type), for at most ``JSON_LD_ERRORS_SIZE`` kinds: the
    memo and the log stay bounded whatever the blocks hold."""
    out: list[str] = []
    for block in blocks:
        try:
            text = jsonld.dumps(block)
        except jsonld.JsonLdError as error:
            if dev:
                raise unwritable(block, error) from error
            _log_error(state, jsonld.describe(block), error)
            continue
        out.append(text)
    return out


def unwritable(block: Any, error: jsonld.JsonLdError) -> ValueError:
    """Development's error for a JSON-LD block JSON cannot write exactly."""
    return ValueError(
        f"The JSON-LD block with {jsonld.describe(block)} cannot be written as"
        f" JSON exactly: {error}. Pass only str, int, float, bool, None, lists"
        " and dicts with str keys (a date as its ISO string)."
    )


def _log_error(state: MarmeonState, what: str, error: Exception) -> None:
    seen = head_state(state).json_ld_errors
    with state.lock:
        if what in seen or len(seen) > JSON_LD_ERRORS_SIZE:
            return
        seen.add(what)
        full = len(seen) > JSON_LD_ERRORS_SIZE
    if full:
        logger.error(
            "More than %d kinds of JSON-LD block were left out of pages; the"
            " next ones are left out without a log line.",
            JSON_LD_ERRORS_SIZE,
        )
        return
    logger.error("The JSON-LD block with %s is left out of the page: %s.", what, error)
