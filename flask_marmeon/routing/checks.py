"""The routes' start-up checks (H10), registered by :func:`init_app`.

Start-up (the first request, or an eager
:func:`~flask_marmeon.raise_on_problems`) and
``flask marmeon check-routes`` run the same registered checks
(:mod:`flask_marmeon.checks`), as Django's system checks do: a list of
problems, each naming its route, its id and how to fix it.
"""

from __future__ import annotations

from dataclasses import dataclass

from flask import Flask
from werkzeug.routing import Rule

from .._state import MarmeonState, get_state
from ..checks import Problem
from ..i18n import locales_problems
from ..i18n.urls import leftover_language
from ..sitemap.entries import route_arguments
from ..sitemap.paged import provider_problems
from ..sitemap.providers import has_provider
from .marks import api_blueprint, everyone, is_marked, policy_name, policy_of_rule
from .marks import requires_sign_in as _requires_sign_in
from .shadows import shadows


@dataclass(frozen=True)
class RouteStatus:
    """A marked route and its problems, for the check-routes table."""

    rule: Rule
    problems: tuple[Problem, ...]


def _problems_of_rule(app: Flask, rule: Rule) -> list[Problem]:
    here = {"rule": rule.rule, "endpoint": str(rule.endpoint)}
    found: list[Problem] = []

    def add(id: str, message: str, hint: str) -> None:
        found.append(Problem(id, message, hint, **here))

    if "GET" not in (rule.methods or set()):
        add(
            "routing.E001",
            "does not answer GET, and a crawler only GETs pages",
            "add 'GET' to methods, or remove sitemap=",
        )
    if getattr(rule, "marmeon_internal", False):
        add("routing.E002", "is internal=True", "remove sitemap=, or internal=")
    endpoint = str(rule.endpoint)
    bp = api_blueprint(app, endpoint)
    if bp is not None:
        add(
            "routing.E003",
            f"belongs to the api group (api() on the blueprint {bp.name!r}),"
            " and a sitemap lists pages",
            "remove sitemap=",
        )
    view_func = app.view_functions.get(endpoint)
    if _requires_sign_in(view_func):
        add(
            "routing.E004",
            "requires a signed-in user (authenticate or login_required),"
            " and a sitemap lists pages anyone can open",
            "remove sitemap=",
        )
    policy = policy_of_rule(app, rule)
    if policy is None:
        add(
            "routing.E005",
            "has no policy, and a sitemap lists pages anyone can open",
            "add authorize=everyone",
        )
    elif policy is not everyone:
        add(
            "routing.E006",
            f"has the policy {policy_name(policy)!r} instead of everyone,"
            " and a sitemap lists pages anyone can open",
            "use authorize=everyone or remove sitemap=",
        )
    arguments = route_arguments(rule)
    old_language = leftover_language(rule)
    if arguments and not has_provider(rule, view_func):
        names = ", ".join(repr(name) for name in sorted(arguments))
        how = (
            # A provider would be the wrong fix: the old prefix must go.
            _remove_old_prefix(old_language)
            if old_language is not None
            else "give its View class a sitemap() method or pass sitemap=<function>"
            if getattr(view_func, "view_class", None) is not None
            else "pass sitemap=<function> (a function view cannot have a"
            " sitemap() method)"
        )
        add("routing.E007", f"has the parameters {names} but no sitemap provider", how)
    if old_language is not None:
        found.append(_old_prefix_problem(rule, old_language))
    found += locales_problems(rule, get_state(app).settings.locales)
    # A paged provider's own problems (its statement).
    found += [
        Problem("sitemap.E001", reason, **here) for reason in provider_problems(rule)
    ]
    return found


def _remove_old_prefix(name: str) -> str:
    return (
        f"remove the old language prefix '/<{name}>' (url_prefix= or the rule):"
        " localized() adds the locale to every route itself; build its"
        " addresses with url_for(..., locale=...)"
    )


def _old_prefix_problem(rule: Rule, name: str) -> Problem:
    return Problem(
        "i18n.E002",
        f"is localized but still has the old language prefix '/<{name}>', so"
        " its addresses hold the language twice (/en/<" + name + ">/...)",
        _remove_old_prefix(name),
        rule=rule.rule,
        endpoint=str(rule.endpoint),
    )


def route_statuses(app: Flask) -> list[RouteStatus]:
    """Every marked route of ``app`` with its problems, in the url_map's order."""
    return [
        RouteStatus(rule, tuple(_problems_of_rule(app, rule)))
        for rule in app.url_map.iter_rules()
        if is_marked(rule)
    ]


def marked_routes_problems(app: Flask) -> list[Problem]:
    """The problems of the routes marked for the sitemap (routing.E001 to
    E007, a route's ``locales=`` and a paged provider's own)."""
    return [problem for status in route_statuses(app) for problem in status.problems]


def unmarked_routes_problems(app: Flask) -> list[Problem]:
    """``locales=`` on a route that is not marked, and a plain route that
    takes a localized route's address (routing.E008)."""
    locales = get_state(app).settings.locales
    problems = [
        problem
        for rule in app.url_map.iter_rules()
        if not is_marked(rule)
        for problem in locales_problems(rule, locales)
    ]
    problems += [
        _old_prefix_problem(rule, name)
        for rule in app.url_map.iter_rules()
        if not is_marked(rule) and (name := leftover_language(rule)) is not None
    ]
    problems += [
        Problem(
            "routing.E008",
            shadow.reason(),
            rule=shadow.plain.rule,
            endpoint=str(shadow.plain.endpoint),
        )
        for shadow in shadows(app, locales)
    ]
    return problems


def init_app(state: MarmeonState) -> None:
    """Register the routes' start-up checks."""
    state.checks.register(marked_routes_problems)
    state.checks.register(unmarked_routes_problems)
