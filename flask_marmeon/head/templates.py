"""The head from templates: ``head`` as a Jinja global, written once the page
has rendered.

Jinja renders a layout's ``<head>`` before the child's blocks, so a head()
call in a block runs after ``{{ render_head() }}``. While a page renders,
render_head() therefore writes a mark (the app's ``HeadState.mark``), and
when the outermost render of the request returns, the mark is replaced by
the head, made of every call of the page: the layouts', the view's, then the
templates' in the order they ran.

The app's Jinja environment makes its templates of :class:`HeadTemplate`
(``Environment.template_class``, which Jinja documents for this), so
``render_template``, ``render_template_string`` and a template's own
``render()`` are one render each; a render inside a render (a macro that
renders another template) is part of the outer one. ``stream_template``
calls ``generate()``, which is left alone: there render_head() writes the
head where it stands, and a call past it is late (api.late_call).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar, cast

from flask import Flask
from jinja2 import Template, Undefined
from jinja2.runtime import Context
from markupsafe import Markup

from .._context import current_request, state_for
from .api import head, written_head
from .speedups import template_vars

if TYPE_CHECKING:
    from typing_extensions import Unpack

    from .types import HeadFields


def template_head(**fields: Unpack[HeadFields]) -> str:
    """:func:`head` for templates: ``{% do head(...) %}``, and
    ``{{ head(...) }}`` writes nothing (an empty string, never ``None``).

    A value that a template made HTML (``Markup``: ``_("...")`` under
    autoescape, a ``|format``) counts as the text a browser shows of it,
    so a title of ``_("Notes of %(name)s", name="A & B")`` is "Notes of A &
    B", not "A &amp; B".
    """
    for name, value in fields.items():
        if isinstance(value, Undefined):
            raise TypeError(
                f"head()'s {name} is undefined in the template: a misspelt"
                " variable or attribute, or one the view did not pass. Pass"
                f" {name}=none to leave it unset."
            )
    head(**{name: _text(value) for name, value in fields.items()})
    return ""


def _text(value: Any) -> Any:
    """``value`` with each Markup in it as the plain text it shows."""
    if isinstance(value, Markup):
        return value.unescape()
    if isinstance(value, dict):
        return {key: _text(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_text(item) for item in value]
    if isinstance(value, tuple):
        return tuple(_text(item) for item in value)
    return value


class HeadTemplate(Template):
    """A template whose render writes the page's head where render_head()
    left its mark, once the outermost render of the request has returned."""

    #: Whether :meth:`new_context` may make the context's variables itself
    #: (speedups.template_vars): only over Jinja's own ``new_context``, not
    #: over an app's template class that has its own.
    quick_vars: ClassVar[bool] = True

    def new_context(
        self,
        vars: dict[str, Any] | None = None,
        shared: bool = False,
        locals: Mapping[str, Any] | None = None,
    ) -> Context:
        """A new context; see :meth:`jinja2.Template.new_context`."""
        if shared or not self.quick_vars:
            return super().new_context(vars, shared, locals)
        # The same variables as Jinja's, made by template_vars, then handed
        # over as shared (Jinja takes a shared dict as it is).
        return super().new_context(
            template_vars(self.globals, vars or {}), True, locals
        )

    def render(self, *args: Any, **kwargs: Any) -> str:
        """Render the template; see :meth:`jinja2.Template.render`."""
        req = current_request()
        if req is None:  # outside a request: no head to wait for
            return super().render(*args, **kwargs)
        state = state_for(req)
        depth = state.rendering
        state.rendering = depth + 1
        marks = 0
        try:
            text = super().render(*args, **kwargs)
        finally:
            state.rendering = depth
            if not depth:
                marks, state.marks = state.marks, 0
        if not marks:
            # A render inside a render, or a page without render_head() (an
            # htmx fragment: its calls stay for the request's head).
            return text
        # The head is near the top: replace() stops after the last mark
        # left, and copies the page once.
        return text.replace(state.mark, written_head(req, state), marks)


def install(app: Flask) -> None:
    """Make ``head`` a Jinja global of the app, with ``{% do %}``, and its
    templates :class:`HeadTemplate` (a subclass of the app's template class
    when the app has its own)."""
    env = app.jinja_env
    env.globals["head"] = template_head
    env.add_extension("jinja2.ext.do")
    base = env.template_class
    if not issubclass(base, HeadTemplate):
        env.template_class = (
            HeadTemplate
            if base is Template
            else cast(
                "type[Template]",
                type(
                    f"Head{base.__name__}",
                    (HeadTemplate, base),
                    {"quick_vars": base.new_context is Template.new_context},
                ),
            )
        )
    # Templates loaded before (of the old class, without {% do %}) are
    # loaded again.
    if env.cache is not None:
        env.cache.clear()
