"""sqz core: compress what AI coding agents read from their tools, before it reaches the model.

Plugin authors need three names from here: ``hookimpl`` (the decorator),
``FormatRequest`` (what a hook receives) and ``Safety`` (what a safety classifier
returns). The hook specs are in ``sqz_core.hookspecs``.
"""

from __future__ import annotations

from .markers import hookimpl
from .request import FormatRequest
from .verdicts import Safety

__all__ = ["FormatRequest", "Safety", "hookimpl", "__version__"]


def __getattr__(name: str) -> str:
    if name == "__version__":
        from ._version import VERSION

        return VERSION
    raise AttributeError(f"module 'sqz_core' has no attribute {name!r}")
