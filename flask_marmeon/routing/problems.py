"""The H10 checks: one pure checker that returns every problem of an app.

Start-up (the first request, or an eager :func:`raise_on_problems`) and
``flask marmeon check-routes`` use the same function, as Django's system
checks do: a list of problems, each naming its route and the reason.
"""

from __future__ import annotations

from dataclasses import dataclass

from flask import Flask
from werkzeug.routing import Rule

from .._state import get_state
from ..config import indexnow_problems
from ..errors import StartupError
from ..i18n import locales_problems
from ..og_images.look import problems as og_look_problems
from ..og_images.state import og_images_of
from ..sitemap.entries import route_arguments
from ..sitemap.paged import provider_problems
from ..sitemap.providers import has_provider
from ..sitemap.robots import rules_problems
from .marks import api_blueprint, everyone, policy_name, policy_of_rule
from .marks import requires_sign_in as _requires_sign_in
from .rule import is_marked
from .shadows import shadows


@dataclass(frozen=True)
class RouteProblem:
    """One reason why the app cannot serve a correct sitemap (code H10)."""

    #: The route's rule (``"/notes/<int:note_id>"``), or None for the app.
    rule: str | None
    #: The route's endpoint, or None for the app.
    endpoint: str | None
    #: Why, and how to fix it.
    reason: str
    #: The specification's code.
    code: str = "H10"

    def __str__(self) -> str:
        if self.rule is None:
            return self.reason
        return f"route {self.rule!r} (endpoint {self.endpoint!r}) {self.reason}"


@dataclass(frozen=True)
class RouteStatus:
    """A marked route and its problems, for the check-routes table."""

    rule: Rule
    problems: tuple[RouteProblem, ...]


def _problems_of_rule(app: Flask, rule: Rule) -> list[str]:
    reasons: list[str] = []
    methods = rule.methods or set()
    if "GET" not in methods:
        reasons.append(
            "does not answer GET, and a crawler only GETs pages:"
            " add 'GET' to methods, or remove sitemap="
        )
    if getattr(rule, "marmeon_internal", False):
        reasons.append("is internal=True: remove sitemap=, or internal=")
    endpoint = str(rule.endpoint)
    bp = api_blueprint(app, endpoint)
    if bp is not None:
        reasons.append(
            f"belongs to the api group (api() on the blueprint {bp.name!r}):"
            " a sitemap lists pages, remove sitemap="
        )
    view_func = app.view_functions.get(endpoint)
    if _requires_sign_in(view_func):
        reasons.append(
            "requires a signed-in user (authenticate or login_required):"
            " a sitemap lists pages anyone can open, remove sitemap="
        )
    policy = policy_of_rule(app, rule)
    if policy is None:
        reasons.append(
            "has no policy: a sitemap lists pages anyone can open,"
            " add authorize=everyone"
        )
    elif policy is not everyone:
        reasons.append(
            f"has the policy {policy_name(policy)!r} instead of everyone:"
            " a sitemap lists pages anyone can open, use authorize=everyone"
            " or remove sitemap="
        )
    arguments = route_arguments(rule)
    if arguments and not has_provider(rule, view_func):
        names = ", ".join(repr(name) for name in sorted(arguments))
        how = (
            "give its View class a sitemap() method or pass sitemap=<function>"
            if getattr(view_func, "view_class", None) is not None
            else "pass sitemap=<function> (a function view cannot have a"
            " sitemap() method)"
        )
        reasons.append(f"has the parameters {names} but no sitemap provider: {how}")
    reasons += locales_problems(rule, get_state(app).settings.locales)
    reasons += provider_problems(rule)
    return reasons


def route_statuses(app: Flask) -> list[RouteStatus]:
    """Every marked route of ``app`` with its problems, in the url_map's order."""
    statuses: list[RouteStatus] = []
    for rule in app.url_map.iter_rules():
        if not is_marked(rule):
            continue
        problems = tuple(
            RouteProblem(rule.rule, str(rule.endpoint), reason)
            for reason in _problems_of_rule(app, rule)
        )
        statuses.append(RouteStatus(rule, problems))
    return statuses


def app_problems(app: Flask, statuses: list[RouteStatus]) -> list[RouteProblem]:
    """Problems beside the marked routes': ``locales=`` on a route that is
    not marked, MARMEON_ROBOTS_RULES, a plain route that takes a localized
    route's address, and APP_URL when some route is marked."""
    settings = get_state(app).settings
    locales = settings.locales
    problems = [
        RouteProblem(rule.rule, str(rule.endpoint), reason)
        for rule in app.url_map.iter_rules()
        if not is_marked(rule)
        for reason in locales_problems(rule, locales)
    ]
    problems += [
        RouteProblem(None, None, reason)
        for reason in rules_problems(settings.robots_rules)
    ]
    problems += [
        RouteProblem(None, None, reason) for reason in indexnow_problems(settings)
    ]
    problems += [
        RouteProblem(shadow.plain.rule, str(shadow.plain.endpoint), shadow.reason())
        for shadow in shadows(app, locales)
    ]
    if statuses and get_state(app).settings.app_url is None:
        return problems + [
            RouteProblem(
                None,
                None,
                "APP_URL is not set, and the sitemap's addresses are built from"
                " it: set app.config['APP_URL'] (or the APP_URL environment"
                " variable) to the site's public http(s) address, such as"
                " 'https://example.com'",
            )
        ]
    return problems


def og_images_problems(app: Flask) -> list[RouteProblem]:
    """The generated images' problems: SECRET_KEY, the logo, the fonts."""
    og = og_images_of(app)
    return [
        RouteProblem(None, None, reason)
        for reason in og_look_problems(og.look, app.secret_key)
    ]


def check_routes(app: Flask) -> list[RouteProblem]:
    """Return every H10 problem of ``app``'s marked routes; empty when none.

    A marked route must answer GET, not be ``internal=True``, not belong to
    the api group, not sit behind ``authenticate`` or ``login_required``, say
    ``authorize=everyone``, and have a sitemap provider when it has
    parameters; and APP_URL must be set when any route is marked. Any
    route's ``locales=`` must be on a localized route and name tags of
    APP_LOCALES only, and no plain route may answer an address of a
    localized route (``/de/about`` beside a localized ``/about``).
    Generated images need SECRET_KEY (when MARMEON_OG_IMAGES is on), and a
    logo and fonts that can be read.
    """
    statuses = route_statuses(app)
    problems = [problem for status in statuses for problem in status.problems]
    return problems + app_problems(app, statuses) + og_images_problems(app)


def startup_error(problems: list[RouteProblem]) -> StartupError:
    """The StartupError that names every problem at once."""
    count = len(problems)
    lines = "\n".join(f"  - {problem}" for problem in problems)
    noun = "problem" if count == 1 else "problems"
    return StartupError(
        f"The app cannot start: its routes and settings have {count} {noun}:\n{lines}",
        code="H10",
        problems=[str(problem) for problem in problems],
    )


def raise_on_problems(app: Flask) -> None:
    """Raise :class:`~flask_marmeon.StartupError` (H10) naming every problem.

    The extension calls it before the app answers its first request; call it
    yourself once the routes are registered to stop the start earlier.
    """
    problems = check_routes(app)
    if problems:
        error = startup_error(problems)
        # So that check-routes can print the table of an app whose factory
        # ends with this call.
        error.app = app
        raise error


__all__ = [
    "RouteProblem",
    "RouteStatus",
    "check_routes",
    "raise_on_problems",
    "route_statuses",
]
