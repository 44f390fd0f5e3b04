"""The head's behaviours as steps at named stages, as unhead (Nuxt's head
library) runs hooks at ``tags:beforeResolve`` and ``tags:resolve``.

A step is a plain function ``(merged, context) -> merged``: it returns the
merged head (the same one when it has nothing to change, else a new one:
a merged head is never changed in place) and may set ``context.page``.
Each subsystem registers its steps in its own ``init_app``
(:meth:`Stages.add`), so the head names none of them and imports none of
their packages. The stages, in the order a head goes through them:

``merged`` (:data:`MERGED`)
    Every request, right after the fragments merged and before the memo
    looks the head up: what a step changes here is part of the head's key
    (the error page's and the default canonical's, :mod:`.own_addresses`).
``before resolve`` (:data:`BEFORE_RESOLVE`)
    Once per head written (the memo keeps the result, in production): the
    generated images, so that resolve sees plain images.
``resolve`` (:data:`RESOLVE`)
    Once per head written, right before the table's writers: the values a
    page did not set, inferred from others (:func:`~.resolve.head_steps`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from .merge import MergedHead

if TYPE_CHECKING:
    from .._context import RequestState
    from .._state import MarmeonState
    from ..page import Page

#: Every request, before the memo (see the module).
MERGED = "merged"
#: Once per head written, before resolve (see the module).
BEFORE_RESOLVE = "before resolve"
#: Once per head written, right before the writers (see the module).
RESOLVE = "resolve"
#: The stages in the order a head goes through them.
STAGES = (MERGED, BEFORE_RESOLVE, RESOLVE)


class StageContext:
    """What a step reads besides the merged head: the app's state (None
    when :func:`~.resolve.resolve` runs alone, in a test), the request's
    (None outside a request, and after ``merged``), whether the app is in
    development, and what the steps hand on: the page, which a step may
    replace, and the JSON-LD blocks' texts."""

    __slots__ = ("dev", "json_ld", "page", "request", "state")

    def __init__(
        self,
        state: MarmeonState | None,
        request: RequestState | None,
        page: Page | None,
        dev: bool = False,
    ) -> None:
        self.state = state
        self.request = request
        #: The page's addresses (a Page set by i18n on a localized route);
        #: what resolve receives after the stage.
        self.page = page
        self.dev = dev
        #: The JSON-LD blocks as JSON texts (:mod:`.json_ld_blocks`), written
        #: at ``merged``: they key the memo, and are placed at ``resolve``.
        self.json_ld: Sequence[str] = ()


#: A step: the merged head -> the merged head (see the module).
Step = Callable[[MergedHead, StageContext], MergedHead]


class Stages:
    """The steps registered for one app, per stage, in registration order
    (the head's part of the app's state holds it)."""

    __slots__ = ("before_resolve", "merged", "resolve")

    def __init__(self) -> None:
        # A tuple per stage, made again on each add (at start-up): the head
        # reads it on every page, and an empty one is skipped at once.
        self.merged: tuple[Step, ...] = ()
        self.before_resolve: tuple[Step, ...] = ()
        self.resolve: tuple[Step, ...] = ()

    def add(self, stage: str, step: Step) -> None:
        """Run ``step`` at ``stage`` (one of :data:`STAGES`), after the
        steps registered there before it."""
        attr = _attribute(stage)
        if not callable(step):
            raise TypeError(
                f"A head step is a function (merged, context) -> merged, not"
                f" {type(step).__name__} {step!r}."
            )
        setattr(self, attr, (*getattr(self, attr), step))

    def steps(self, stage: str) -> tuple[Step, ...]:
        """The steps of ``stage``, in the order they run."""
        found: tuple[Step, ...] = getattr(self, _attribute(stage))
        return found


def _attribute(stage: str) -> str:
    """The attribute of :class:`Stages` that holds ``stage``'s steps."""
    if stage not in STAGES:
        raise ValueError(
            f"The head has no stage {stage!r}: a step runs at one of"
            f" {', '.join(map(repr, STAGES))}."
        )
    return stage.replace(" ", "_")
