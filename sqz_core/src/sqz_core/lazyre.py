"""Regular expressions compiled on first use.

Compiling a pattern costs 20–200 µs and nothing caches it across processes, so a
module with a dozen patterns adds milliseconds to every ``sqz compress`` even when
the input never reaches them. ``lazy(pattern, flags)`` stands in for
``re.compile``: the pattern is compiled the first time one of its methods is used,
and the bound method is then cached on the instance, so later calls cost no more
than on a compiled pattern.
"""

from __future__ import annotations

TYPE_CHECKING = False  # not typing's: importing typing would cost every hook call (type checkers know the name)

if TYPE_CHECKING:  # pragma: no cover - types only
    import re
    from typing import Any

# ``re`` itself is imported on first compile: ``sqz --version`` and a call answered before any
# pattern runs import no regex machinery (flags are plain ints: ``re.M`` is 8, ``re.I`` 2)


class LazyPattern:
    """A ``re.Pattern`` compiled when first used."""

    def __init__(self, pattern: str, flags: int = 0) -> None:
        self.__dict__["_source"] = (pattern, flags)

    def compiled(self) -> re.Pattern[str]:
        compiled = self.__dict__.get("_compiled")
        if compiled is None:
            import re

            compiled = self.__dict__["_compiled"] = re.compile(*self.__dict__["_source"])
        pattern: re.Pattern[str] = compiled
        return pattern

    def __getattr__(self, name: str) -> Any:
        value = getattr(self.compiled(), name)
        self.__dict__[name] = value  # the next lookup finds it without coming here
        return value

    def __repr__(self) -> str:
        return f"lazy({self.__dict__['_source'][0]!r})"


def lazy(pattern: str, flags: int = 0) -> re.Pattern[str]:
    """``re.compile(pattern, flags)``, deferred until the pattern is used (typed as what it stands in for)."""
    stand_in: Any = LazyPattern(pattern, flags)
    return stand_in  # type: ignore[no-any-return]
