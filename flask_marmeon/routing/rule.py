"""The url_rule_class that takes the route options ``sitemap=``, ``authorize=``,
``internal=`` and ``locales=``.

Flask passes every keyword of ``app.route``, ``Blueprint.route``, ``.get`` and
``add_url_rule`` that it does not know on to ``app.url_rule_class``; installing
:class:`MarmeonRule` there is Flask's documented seam, so nothing of Flask is
patched. A blueprint's routes are made when the blueprint is registered, so
they get the class too when the blueprint is registered after ``Marmeon(app)``.

A route with one of these options added *before* ``Marmeon(app)`` reaches
Werkzeug's own ``Rule``, which raises ``TypeError: Rule.__init__() got an
unexpected keyword argument 'sitemap'``: Flask offers no seam to say more.
Set the extension up right after creating the app.
"""

from __future__ import annotations

import difflib
import inspect
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any, Union

from flask import Flask, abort, current_app, request
from werkzeug.routing import Rule

from ..i18n import RULE_PREFIX as LOCALIZED_RULE_PREFIX
from ..i18n import LocalesOption
from .marks import Policy, everyone, policy_of_rule

if TYPE_CHECKING:
    from ..sitemap.paged import PagedProvider

#: The attribute of a rule that keeps its policy once looked up (None for
#: none or ``everyone``): each rule belongs to one app's URL map.
_POLICY_MEMO = "_marmeon_policy_memo"
_UNKNOWN: Any = object()

#: What ``sitemap=`` takes: False, True, a callable returning the entries,
#: or a paged provider (flask_marmeon.PagedProvider).
SitemapOption = Union[bool, Callable[[], Any], "PagedProvider"]


def _is_paged(value: object) -> bool:
    # PagedProvider's two methods (the protocol lives in the sitemap package,
    # a layer above this one).
    return callable(getattr(value, "boundaries", None)) and callable(
        getattr(value, "entries", None)
    )


#: What Werkzeug's Rule takes, for the "did you mean" of a misspelled option.
_RULE_ARGUMENTS = frozenset(
    name
    for name, parameter in inspect.signature(Rule.__init__).parameters.items()
    if name not in ("self", "string")
    and parameter.kind is not inspect.Parameter.VAR_KEYWORD
)
_ROUTE_OPTIONS = ("sitemap", "authorize", "internal", "locales")


def _unknown_option(string: str, name: str) -> str:
    close = difflib.get_close_matches(
        name, [*_ROUTE_OPTIONS, *_RULE_ARGUMENTS], n=1, cutoff=0.6
    )
    hint = f" Did you mean {close[0]}=?" if close else ""
    return (
        f"The route {string!r} got an unknown option {name}=. A route takes"
        f" Flask's options and sitemap=, authorize=, internal= and locales=.{hint}"
    )


class MarmeonRule(Rule):
    """A Werkzeug rule that also carries the extension's route options.

    :param sitemap: ``False`` (the default), ``True`` (a View class may give
        its entries in a ``sitemap()`` method), or a callable returning the
        entries.
    :param authorize: the route's policy, a callable without arguments that
        returns whether the request may proceed; ``everyone`` is the public one.
    :param internal: ``True`` for a route the outside never reaches.
    :param locales: on a localized route, the locales its page exists in:
        tags of ``APP_LOCALES``, or a callable that receives the view's
        arguments as keywords and returns such tags. ``None`` (the default)
        means every locale. Kept as ``marmeon_locales`` (a tuple, or the
        callable); the start-up check (H10) refuses a tag that is not
        configured, and the option on a route that is not localized.
    """

    #: Set to True by :func:`flask_marmeon.localized` on the routes it makes:
    #: their first path segment is ``<marmeon_locale:locale>``.
    marmeon_localized: bool = False

    def __init__(
        self,
        string: str,
        *,
        sitemap: SitemapOption = False,
        authorize: Policy | None = None,
        internal: bool = False,
        locales: LocalesOption = None,
        **kwargs: Any,
    ) -> None:
        unknown = set(kwargs) - _RULE_ARGUMENTS
        if unknown:
            raise TypeError(_unknown_option(string, sorted(unknown)[0]))
        super().__init__(string, **kwargs)
        if not isinstance(sitemap, bool) and not (
            callable(sitemap) or _is_paged(sitemap)
        ):
            raise TypeError(
                f"sitemap= of the route {string!r} must be True, False, a"
                " function returning the entries or a paged provider (such as"
                f" flask_marmeon.sqlalchemy.paged(...)), not {sitemap!r}."
            )
        if authorize is not None:
            # authorize(policy) is also a decorator; accept it as the option.
            authorize = getattr(authorize, "marmeon_policy", authorize)
            if not callable(authorize):
                raise TypeError(
                    f"authorize= of the route {string!r} must be a policy (a"
                    " function without arguments returning whether the request"
                    f" may proceed) such as everyone, not {authorize!r}."
                )
        if not isinstance(internal, bool):
            raise TypeError(
                f"internal= of the route {string!r} must be True or False,"
                f" not {internal!r}."
            )
        self.marmeon_locales: tuple[str, ...] | Callable[..., Iterable[str]] | None = (
            _locales_option(string, locales)
        )
        self.marmeon_sitemap: SitemapOption = sitemap
        self.marmeon_authorize: Policy | None = authorize
        self.marmeon_internal: bool = internal
        # localized() puts its locale converter first in the path of every
        # route it makes; only those rules get alternates, whatever another
        # route's URL looks like.
        self.marmeon_localized = string.startswith(LOCALIZED_RULE_PREFIX)

    def get_empty_kwargs(self) -> Mapping[str, Any]:
        """Werkzeug's copy arguments plus the route options, so copies keep them."""
        return {
            **super().get_empty_kwargs(),
            "sitemap": self.marmeon_sitemap,
            "authorize": self.marmeon_authorize,
            "internal": self.marmeon_internal,
            "locales": self.marmeon_locales,
        }

    def empty(self) -> Rule:
        """An unbound copy that keeps the options and the localized mark."""
        rule = super().empty()
        rule.marmeon_localized = self.marmeon_localized  # type: ignore[attr-defined]
        return rule


def _locales_option(
    string: str, locales: LocalesOption
) -> tuple[str, ...] | Callable[..., Iterable[str]] | None:
    if locales is None or callable(locales):
        return locales
    # A string is a sequence too: "en" would be the locales "e" and "n".
    if not isinstance(locales, str) and isinstance(locales, Iterable):
        tags = tuple(locales)
        if all(isinstance(tag, str) for tag in tags):
            return tags
    raise TypeError(
        f"locales= of the route {string!r} must be a list of locale tags such"
        " as ['en', 'de-AT'], or a function of the view's arguments returning"
        f" one, not {locales!r}."
    )


def enforce_policies(app: Flask) -> None:
    """Look up every route's policy and, if a route has one other than
    ``everyone``, refuse with 403 each request its route's policy refuses.

    Called once, before the app's first request passes (a start hook of the
    WSGI edge, ``flask_marmeon._edge``, when the H10 checks pass): Flask takes no route
    after its first request, so the routes and their marks are complete by
    then. Each rule keeps its policy, and an app whose routes are all public
    runs no hook at all. The hook comes after the app's own
    ``before_request`` hooks, so a policy may read what they load (such as
    ``g.user``), and before the blueprints' hooks.
    """
    # A list, not any(): every rule's policy is looked up (and kept) now.
    if any([_policy_of(app, rule) is not None for rule in app.url_map.iter_rules()]):
        app.before_request(_enforce_policy)


def _policy_of(app: Flask, rule: Rule) -> Policy | None:
    # The policy to call, kept on the rule (each belongs to one app's map);
    # None for none and for everyone, which lets every request through.
    policy: Policy | None = rule.__dict__.get(_POLICY_MEMO, _UNKNOWN)
    if policy is _UNKNOWN:
        policy = policy_of_rule(app, rule)
        if policy is everyone:
            policy = None
        setattr(rule, _POLICY_MEMO, policy)
    return policy


def _enforce_policy() -> None:
    # The request itself: each read through the proxy costs about 0.7 us.
    rule = request._get_current_object().url_rule  # type: ignore[attr-defined]
    if rule is None:
        return
    policy = _policy_of(current_app, rule)
    if policy is not None and not policy():
        abort(403)
