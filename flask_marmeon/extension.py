"""The Marmeon extension object."""

from __future__ import annotations

from flask import Flask

from . import _edge, browser, i18n
from ._state import MarmeonState, get_state
from .audit import install as audit_install
from .cli import marmeon_group
from .config import apply_defaults, environ, load_settings
from .head import install as head_install
from .head import own_addresses, render_head
from .head import templates as head_templates
from .head.stages import MERGED
from .i18n.errors import wrap_error_handlers
from .i18n.own_address import own_page
from .indexnow import key_file as indexnow_key_file
from .og_images import install as og_images
from .routing import checks as routing_checks
from .routing import rule as routing_rule
from .routing.redirects import mount_redirects
from .shared_lock import Backend, is_backend
from .sitemap.serving import views as sitemap_views


class Marmeon:
    """Search-engine and link-preview metadata, hreflang and a sitemap for Flask.

    ::

        app = Flask(__name__)
        app.config["APP_URL"] = "https://notes.example"
        marmeon = Marmeon(app)  # or Marmeon() then marmeon.init_app(app)

    The object keeps no app: one ``Marmeon`` may serve several apps, each
    with its own state in ``app.extensions["marmeon"]``.

    :param sitemap_cache: a Flask-Caching ``Cache`` that every process of the
        site shares (Redis or Memcached for several machines): the sitemap is
        then built once per ``MARMEON_SITEMAP_TTL`` for all of them. Without
        it each process keeps its own files. Given here, it is the default of
        :meth:`init_app`.
    """

    def __init__(
        self, app: Flask | None = None, *, sitemap_cache: Backend | None = None
    ) -> None:
        self.sitemap_cache = _checked_cache(sitemap_cache)
        if app is not None:
            self.init_app(app)

    def init_app(self, app: Flask, *, sitemap_cache: Backend | None = None) -> None:
        """Read and check the app's configuration and install the extension.

        :param sitemap_cache: as for the constructor, for this app.
        """
        shared = _checked_cache(sitemap_cache) or self.sitemap_cache
        if "marmeon" in app.extensions:
            raise RuntimeError(
                f"flask_marmeon is already set up on the app {app.name!r}."
                " Call Marmeon(app) or init_app(app) once per app."
            )
        apply_defaults(app.config, environ())
        settings = load_settings(app.config)
        state = MarmeonState(settings=settings, extension=self)
        # The head's part, and its own steps at its stages (head/install.py).
        head_part = head_install.init_app(state)
        app.extensions["marmeon"] = state
        app.jinja_env.globals["render_head"] = render_head
        head_templates.install(app)  # head() in templates, {% do %}
        # The edge first: the other modules register their endpoints on it.
        _edge.install(app, state)
        # The route options; their policies are enforced from the first
        # request on (routing_rule.enforce_policies, below).
        app.url_rule_class = routing_rule.MarmeonRule  # type: ignore[assignment]
        routing_checks.init_app(state)
        # Werkzeug's redirects, rebuilt first among the app's request hooks.
        app.before_request_funcs.setdefault(None, []).insert(0, mount_redirects)
        app.cli.add_command(marmeon_group)  # test_cli_runner and custom CLIs
        i18n.init_app(app, state)
        sitemap_views.init_app(app, state, shared)
        indexnow_key_file.init_app(app, state)

        def on_start() -> tuple[()]:
            routing_rule.enforce_policies(app)
            # Every route's error pages name no address of their own.
            wrap_error_handlers(app, state)
            return ()

        _edge.on_start(state, on_start)
        # The head's steps at its ``merged`` stage (head/stages.py): an
        # error page names no address of its own; with
        # MARMEON_DEFAULT_CANONICAL a route that is not localized names its own.
        stages = head_part.stages
        stages.add(MERGED, own_addresses.error_page)
        if settings.default_canonical:
            stages.add(MERGED, own_addresses.default_canonical(own_page))
        browser.init_app(app, state)
        og_images.init_app(app, state, shared)
        audit_install.init_app(app, state)
        noindex_warning = audit_install.development_hook(app, state)
        if noindex_warning is not None:
            _edge.on_development(state, noindex_warning)

    def locale_selector(self) -> str | None:
        """A Flask-Babel ``locale_selector``: the locale of a localized route.

        ``Babel(app, locale_selector=marmeon.locale_selector)``. Elsewhere it
        returns None, and Flask-Babel falls back to its default locale.
        """
        return i18n.selected_locale()


def _checked_cache(value: object) -> Backend | None:
    if value is None or is_backend(value):
        return value  # type: ignore[return-value]
    raise TypeError(
        "sitemap_cache must be a Flask-Caching Cache (with get, set, add and"
        f" delete), such as Cache(app, config={{'CACHE_TYPE': 'RedisCache'}}),"
        f" not {type(value).__name__} {value!r}."
    )


__all__ = ["Marmeon", "get_state"]
