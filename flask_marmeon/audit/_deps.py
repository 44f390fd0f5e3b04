"""The audit's libraries, installed with the ``audit`` extra.

lxml (HTML and XML parsing, XSD validation), Pillow (image sizes) and Protego
(robots.txt as Google reads it) are not needed to serve an app, so a
production install does not pay for them. Importing them goes through here,
so that a missing one says how to install it.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from ..errors import install_hint

EXTRA_HINT = install_hint("audit")


def require(module: str) -> ModuleType:
    """Import ``module`` or raise ImportError naming the extra to install."""
    try:
        return importlib.import_module(module)
    except ImportError as error:
        raise ImportError(
            f"The flask_marmeon audit needs {module.split('.')[0]!r}, which is"
            f" not installed. Install the audit extra: {EXTRA_HINT}"
        ) from error
