"""Marks on views and blueprints: ``authorize()``, ``everyone``, ``authenticate``
and ``api()``.

Marks are attributes, the way Flask itself carries ``methods`` and
``view_class`` on view functions: ``marmeon_authorize`` (a policy),
``marmeon_authenticate`` (True) and, on a blueprint, ``marmeon_api``. The
route option ``authorize=`` wins over a view's mark, which wins over the
blueprint's (the innermost blueprint first). A rule marked for the sitemap
carries ``marmeon_sitemap`` (set by the rule's ``sitemap=`` option).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from typing import Any, TypeVar, cast

from flask import Blueprint, Flask, abort, current_app, g
from flask.sansio.blueprints import Blueprint as SansioBlueprint
from flask.views import View
from werkzeug.routing import Rule

#: A policy: called without arguments during the request, it returns whether
#: the request may proceed. ``authorize(policy)`` answers 403 when it does not.
Policy = Callable[[], bool]

T = TypeVar("T")


def everyone() -> bool:
    """The public policy: every request may proceed.

    A route marked for the sitemap must say ``authorize=everyone``: a sitemap
    lists pages anyone can open.
    """
    return True


class authorize:
    """Give a view function, a View class or a whole blueprint a policy.

    ::

        @authorize(everyone)
        def about(): ...

        authorize(everyone)(bp)        # every route of the blueprint

    The route's own ``authorize=`` option wins over these marks. A request that
    the policy refuses is answered with 403. Returns what it decorates.
    """

    def __init__(self, policy: Policy) -> None:
        if not callable(policy):
            raise TypeError(
                f"authorize() takes a policy (a function without arguments that"
                f" returns whether the request may proceed), not {policy!r}."
                " Did you mean authorize(everyone)?"
            )
        #: The policy this decorator sets.
        self.marmeon_policy: Policy = policy

    def __call__(self, target: T) -> T:
        """Mark ``target`` (a view function, a View class or a blueprint)."""
        if not callable(target) and not isinstance(target, Blueprint):
            raise TypeError(
                "authorize(policy) decorates a view function, a View class or a"
                f" Blueprint, not {target!r}."
            )
        setattr(target, "marmeon_authorize", self.marmeon_policy)  # noqa: B010
        return target

    def __repr__(self) -> str:
        return f"authorize({policy_name(self.marmeon_policy)})"


def _signed_in() -> bool:
    """Whether the request has a signed-in user.

    With Flask-Login set up on the app, its ``current_user``; otherwise
    ``g.user``, which the app's own loader sets in a ``before_request`` hook.
    """
    if getattr(current_app, "login_manager", None) is not None:
        try:
            from flask_login import current_user  # type: ignore[import-untyped]
        except ImportError:  # pragma: no cover - a login_manager without the package
            pass
        else:
            return bool(current_user.is_authenticated)
    return g.get("user") is not None


def _refuse_anonymous() -> Any:
    manager = getattr(current_app, "login_manager", None)
    if manager is not None and hasattr(manager, "unauthorized"):
        # Flask-Login redirects to its login view or answers 401 itself.
        return manager.unauthorized()
    abort(401)


def authenticate(view: T) -> T:
    """Require a signed-in user for a view function or a View class.

    With Flask-Login set up, the user is its ``current_user`` and an anonymous
    request gets what ``login_manager.unauthorized()`` answers (a redirect to
    the login view, or 401). Without it, ``g.user`` must be set (by the app's
    own ``before_request`` hook), else 401. A route behind it cannot be in the
    sitemap (H10), and neither can one behind Flask-Login's ``login_required``.
    """
    if isinstance(view, type) and issubclass(view, View):
        view.decorators = [*view.decorators, authenticate]
        view.marmeon_authenticate = True  # type: ignore[attr-defined]
        return view
    if not callable(view):
        raise TypeError(
            f"authenticate decorates a view function or a View class, not {view!r}."
        )
    func = cast(Callable[..., Any], view)

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        if not _signed_in():
            return _refuse_anonymous()
        return current_app.ensure_sync(func)(*args, **kwargs)

    wrapper.marmeon_authenticate = True  # type: ignore[attr-defined]
    return cast(T, wrapper)


def api(blueprint: Blueprint) -> Blueprint:
    """Mark ``blueprint`` as the api group and return it.

    A route of the api group cannot be in the sitemap (H10).
    """
    if not isinstance(blueprint, Blueprint):
        raise TypeError(f"api() takes a Blueprint, not {blueprint!r}.")
    blueprint.marmeon_api = True  # type: ignore[attr-defined]
    return blueprint


def policy_name(obj: object) -> str:
    """A policy's name for messages: ``everyone``, ``is_admin``."""
    name = getattr(obj, "__qualname__", None) or getattr(obj, "__name__", None)
    return name if isinstance(name, str) else repr(obj)


def view_layers(view_func: object) -> Iterator[object]:
    """The view function, what it wraps (``__wrapped__``), and its View class
    with that class's ``get`` method and what it wraps."""
    seen: set[int] = set()
    stack: list[object] = [view_func]
    while stack:
        obj = stack.pop(0)
        if obj is None or id(obj) in seen:
            continue
        seen.add(id(obj))
        yield obj
        stack.append(getattr(obj, "__wrapped__", None))
        view_class = getattr(obj, "view_class", None)
        if isinstance(view_class, type):
            stack.append(view_class)
            stack.append(getattr(view_class, "get", None))


def blueprints_of(app: Flask, endpoint: str) -> list[SansioBlueprint]:
    """The blueprints an endpoint belongs to, the innermost first."""
    parts = endpoint.split(".")[:-1]
    names = (".".join(parts[:end]) for end in range(len(parts), 0, -1))
    return [bp for name in names if (bp := app.blueprints.get(name)) is not None]


def policy_of_rule(app: Flask, rule: Rule) -> Policy | None:
    """The policy in force on ``rule``: the route option, else the view's mark,
    else the innermost blueprint's mark."""
    for layer in (
        rule,
        *view_layers(app.view_functions.get(rule.endpoint)),
        *blueprints_of(app, str(rule.endpoint)),
    ):
        mark = getattr(layer, "marmeon_authorize", None)
        if mark is not None:
            return cast(Policy, mark)
    return None


def _login_required_codes() -> set[object]:
    """Code objects of Flask-Login's wrappers: every wrapper that
    ``login_required`` returns shares one code object."""
    try:
        import flask_login
    except ImportError:
        return set()
    return {
        getattr(flask_login, name)(everyone).__code__
        for name in ("login_required", "fresh_login_required")
        if hasattr(flask_login, name)
    }


def requires_sign_in(view_func: object) -> bool:
    """Whether a view sits behind ``authenticate`` or Flask-Login's
    ``login_required`` (on the function, a View class or its ``decorators``)."""
    codes = _login_required_codes()
    return any(
        getattr(layer, "marmeon_authenticate", False) is True
        or getattr(layer, "__code__", None) in codes
        for layer in view_layers(view_func)
    )


def api_blueprint(app: Flask, endpoint: str) -> SansioBlueprint | None:
    """The blueprint that puts ``endpoint`` in the api group, if any."""
    for bp in blueprints_of(app, endpoint):
        if getattr(bp, "marmeon_api", False) is True:
            return bp
    return None


def is_marked(rule: Rule) -> bool:
    """Whether ``rule`` is marked for the sitemap."""
    return bool(getattr(rule, "marmeon_sitemap", False))
