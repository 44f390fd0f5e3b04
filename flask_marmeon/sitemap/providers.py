"""Sitemap providers: a View class's ``sitemap()`` or a callable.

A provider may return a list (any iterable), a generator, an async generator
or a coroutine (of any of these); entries are consumed lazily, an async
generator in batches on an event loop of the build's own.

A View class's ``sitemap()`` runs on an instance built with the view's own
constructor arguments. ``View.as_view(name, *args, **kwargs)`` keeps them
only in the closure of the view function it returns, so they are read from
there (the variables ``class_args`` and ``class_kwargs``; the view function is
found through ``__wrapped__`` when ``decorators`` wrap it with
``functools.wraps``). A view with ``init_every_request = False`` keeps one
instance, and its ``sitemap()`` runs on that instance, as its requests do.
When neither is found (a decorator that hides the view function), the class
is built without arguments.
"""

from __future__ import annotations

import asyncio
import contextvars
import inspect
from collections.abc import (
    AsyncIterator,
    Awaitable,
    Callable,
    Iterable,
    Iterator,
)
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from typing import Any, TypeVar, cast

from werkzeug.routing import Rule

from .paged import is_paged

Provider = Callable[[], object]
_T = TypeVar("_T")
# How many items of an async generator one turn of the event loop takes.
_BATCH = 1000


def _view_class(view_func: object) -> type | None:
    view_class = getattr(view_func, "view_class", None)
    return view_class if isinstance(view_class, type) else None


def _closure_vars(func: object) -> dict[str, Any]:
    code = getattr(func, "__code__", None)
    closure = getattr(func, "__closure__", None)
    if code is None or closure is None:
        return {}
    found: dict[str, Any] = {}
    for name, cell in zip(code.co_freevars, closure, strict=True):
        try:
            found[name] = cell.cell_contents
        except ValueError:  # an empty cell
            continue
    return found


def view_instance(view_func: object) -> object:
    """An instance of the view's class, built with its own constructor arguments."""
    view_class = _view_class(view_func)
    assert view_class is not None
    layer: object = view_func
    seen: set[int] = set()
    while layer is not None and id(layer) not in seen:
        seen.add(id(layer))
        names = _closure_vars(layer)
        if "class_args" in names and "class_kwargs" in names:
            return view_class(*names["class_args"], **names["class_kwargs"])
        instance = names.get("self")
        if isinstance(instance, view_class):
            return instance
        layer = getattr(layer, "__wrapped__", None)
    return view_class()


def find_provider(rule: Rule, view_func: object) -> Provider | None:
    """The provider of a marked rule: ``sitemap=<callable>``, else the View
    class's ``sitemap()`` (its instance is built when the provider is called),
    else None."""
    option: object = getattr(rule, "marmeon_sitemap", False)
    if callable(option) and not is_paged(option):
        return cast(Provider, option)
    view_class = _view_class(view_func)
    if view_class is not None and callable(getattr(view_class, "sitemap", None)):
        return lambda: view_instance(view_func).sitemap()  # type: ignore[attr-defined]
    return None


def has_provider(rule: Rule, view_func: object) -> bool:
    """Whether a marked rule has a provider (a paged one counts)."""
    paged = is_paged(getattr(rule, "marmeon_sitemap", None))
    return paged or find_provider(rule, view_func) is not None


class _Runner:
    """Runs a provider's awaitables to completion on an event loop of its own.

    The build is synchronous, but it may be called from a thread whose event
    loop is already running (an app served by an async server's thread, a
    test session driving a browser), where ``run_until_complete`` refuses to
    start. Then the loop runs in one worker thread instead, each step in a
    copy of the caller's context so the provider still sees its app context.
    The loop is made only when a provider is asynchronous.
    """

    def __init__(self) -> None:
        self._loop: asyncio.AbstractEventLoop | None = None
        self._worker: ThreadPoolExecutor | None = None

    def run(self, awaitable: Awaitable[_T]) -> _T:
        if self._loop is None:
            self._loop = asyncio.new_event_loop()
            try:
                asyncio.get_running_loop()
            except RuntimeError:
                pass
            else:
                self._worker = ThreadPoolExecutor(1, "flask_marmeon-sitemap")
        if self._worker is None:
            return self._loop.run_until_complete(awaitable)
        context = contextvars.copy_context()
        step = self._worker.submit(
            context.run, self._loop.run_until_complete, awaitable
        )
        return step.result()

    def close(self) -> None:
        if self._loop is None:
            return
        try:
            self.run(self._loop.shutdown_asyncgens())
        finally:
            if self._worker is not None:
                self._worker.submit(self._loop.close).result()
                self._worker.shutdown()
            else:
                self._loop.close()


def _async_items(source: AsyncIterator[Any], runner: _Runner) -> Iterator[Any]:
    async def batch() -> tuple[list[Any], bool]:
        items: list[Any] = []
        for _ in range(_BATCH):
            try:
                items.append(await source.__anext__())
            except StopAsyncIteration:
                return items, True
        return items, False

    done = False
    try:
        while not done:
            items, done = runner.run(batch())
            yield from items
    finally:
        aclose = getattr(source, "aclose", None)
        if not done and aclose is not None:
            runner.run(aclose())


def _check_iterable(result: object, where: str) -> Iterable[Any]:
    if isinstance(result, (str, bytes)) or not isinstance(result, Iterable):
        raise TypeError(
            f"The sitemap provider of {where} returned {result!r}; expected a"
            " list, a generator, an async generator or a coroutine of entries."
        )
    return result


def provider_items(provider: Provider, where: str) -> Iterator[object]:
    """Call ``provider`` and give its items as given, lazily, in the
    caller's context (the build's own app context). ``where`` names the
    route for error messages.

    A synchronous provider's own iterator is given as it is, with no layer
    between it and the build's loop (each layer costs every entry a step);
    an asynchronous one's items come from an event loop of the build's own.
    """
    result = provider()
    if not inspect.isawaitable(result) and not hasattr(result, "__aiter__"):
        return iter(_check_iterable(result, where))
    return _run_items(result, where)


def _run_items(result: object, where: str) -> Iterator[object]:
    runner = _Runner()
    try:
        if inspect.isawaitable(result):
            result = runner.run(result)
        if hasattr(result, "__aiter__"):
            yield from _async_items(result.__aiter__(), runner)
        else:
            yield from _check_iterable(result, where)
    finally:
        runner.close()


@contextmanager
def closed_after(items: object) -> Iterator[None]:
    """Close ``items`` at the end when it can be (a generator, and with it
    a database session it holds), not when it is freed."""
    try:
        yield
    finally:
        close = getattr(items, "close", None)
        if callable(close):
            close()
