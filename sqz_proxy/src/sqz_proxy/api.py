"""The public API of sqz-proxy for other distributions (sqz-agents' ``init --proxy`` and ``doctor``)."""

from __future__ import annotations

from typing import Any

_NAMES = {
    "proxy_url": ("setup", "proxy_url"),
    "init_actions": ("setup", "init_actions"),
    "env_hint": ("setup", "env_hint"),
    "doctor_problems": ("setup", "doctor_problems"),
    "pointed_at": ("setup", "pointed_at"),
    "status": ("control", "status"),
}

__all__ = sorted(_NAMES)


def __getattr__(name: str) -> Any:
    try:
        module, attr = _NAMES[name]
    except KeyError:
        raise AttributeError(f"module 'sqz_proxy.api' has no attribute {name!r}") from None
    import importlib

    value = getattr(importlib.import_module(f"sqz_proxy.{module}"), attr)
    globals()[name] = value
    return value
