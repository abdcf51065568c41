"""The public API of sqz-insights: what the core imports from it.

``budget_check`` is the per-agent budget warning the core's hot path calls after a recorded call,
only when the budgets file exists. Names load lazily (PEP 562), as in ``sqz_core.api``, so importing
this module costs this file alone until a name is used.
"""

from __future__ import annotations

TYPE_CHECKING = False  # not typing's: importing typing would cost the hot call that warns

# public name -> (private module, attribute there)
_NAMES: dict[str, tuple[str, str]] = {
    "budget_check": ("budget_warning", "check"),
}

__all__ = sorted(_NAMES)


def __getattr__(name: str) -> Any:
    try:
        module, attr = _NAMES[name]
    except KeyError:
        raise AttributeError(f"module 'sqz_insights.api' has no attribute {name!r}") from None
    import importlib

    value = getattr(importlib.import_module(f"sqz_insights.{module}"), attr)
    globals()[name] = value  # the next lookup is a plain module attribute
    return value


def __dir__() -> list[str]:
    return list(__all__)


if TYPE_CHECKING:  # pragma: no cover - for type checkers only; runtime loads lazily
    from typing import Any

    from .budget_warning import check as budget_check
