"""The public API of sqz-config: what the core and other distributions import from it.

``build`` is what ``sqz_core.config`` calls when a config file changed (its compiled snapshot is stale);
the other names serve packs that read or check config files. Names load lazily (PEP 562), so the core
importing this module costs no more than this file until a name is used.
"""

from __future__ import annotations

TYPE_CHECKING = False  # not typing's: importing typing would cost the call that rebuilds the snapshot

# public name -> (private module, attribute there)
_NAMES: dict[str, tuple[str, str]] = {
    "build": ("files", "build"),
    "schema": ("files", "schema"),
    "ConfigError": ("files", "ConfigError"),
    "read_yaml": ("files", "read_yaml"),
    "problems": ("files", "problems"),
    "SETTINGS": ("settings", "SETTINGS"),
    "value": ("settings", "value"),
}

__all__ = sorted(_NAMES)


def __getattr__(name: str) -> Any:
    try:
        module, attr = _NAMES[name]
    except KeyError:
        raise AttributeError(f"module 'sqz_config.api' has no attribute {name!r}") from None
    import importlib

    value = getattr(importlib.import_module(f"sqz_config.{module}"), attr)
    globals()[name] = value  # the next lookup is a plain module attribute
    return value


def __dir__() -> list[str]:
    return list(__all__)


if TYPE_CHECKING:  # pragma: no cover - for type checkers only; runtime loads lazily
    from typing import Any

    from .files import ConfigError as ConfigError
    from .files import build as build
    from .files import problems as problems
    from .files import read_yaml as read_yaml
    from .files import schema as schema
    from .settings import SETTINGS as SETTINGS
    from .settings import value as value
