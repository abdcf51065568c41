"""``hookimpl``: the decorator plugins put on their hook functions.

It writes the same ``sqz_impl`` attribute that ``pluggy.HookimplMarker("sqz")``
writes, so ``pluggy.PluginManager("sqz")`` recognises the functions, but importing
it does not import pluggy (20–25 ms): plugin modules stay cheap on the hot path.
"""

from __future__ import annotations

TYPE_CHECKING = False  # not typing's: importing typing would cost every hook call (type checkers know the name)

if TYPE_CHECKING:  # pragma: no cover - types only: importing this module imports no typing machinery
    from collections.abc import Callable
    from typing import Any, TypeVar

    F = TypeVar("F", bound=Callable[..., Any])

PROJECT = "sqz"
_ATTR = PROJECT + "_impl"


def hookimpl(function: F | None = None, *, hookwrapper: bool = False, optionalhook: bool = False,
             tryfirst: bool = False, trylast: bool = False, specname: str | None = None,
             wrapper: bool = False) -> Any:
    """Mark a function as an implementation of an ``sqz_*`` hook (see ``sqz_core.hookspecs``).

    Same options as ``pluggy.HookimplMarker``; usable bare (``@hookimpl``) or with
    options (``@hookimpl(trylast=True)``).
    """

    def mark(func: F) -> F:
        setattr(func, _ATTR, {
            "wrapper": wrapper,
            "hookwrapper": hookwrapper,
            "optionalhook": optionalhook,
            "tryfirst": tryfirst,
            "trylast": trylast,
            "specname": specname,
        })
        return func

    return mark if function is None else mark(function)


def impl_options(func: object) -> dict[str, Any] | None:
    """The options ``hookimpl`` recorded on ``func``, or None if it is not a hook implementation."""
    opts = getattr(func, _ATTR, None)
    return opts if isinstance(opts, dict) else None
