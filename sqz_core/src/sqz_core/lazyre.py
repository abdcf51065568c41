"""Regular expressions compiled on first use.

Compiling a pattern costs 20–200 µs and nothing caches it across processes, so a
module with a dozen patterns adds milliseconds to every ``sqz compress`` even when
the input never reaches them. ``lazy(pattern, flags)`` stands in for
``re.compile``: the pattern is compiled the first time one of its methods is used,
and the bound method is then cached on the instance, so later calls cost no more
than on a compiled pattern.
"""

from __future__ import annotations

# ``re`` itself is imported on first compile: ``sqz --version`` and a call answered before any
# pattern runs import no regex machinery (flags are plain ints: ``re.M`` is 8, ``re.I`` 2)


class LazyPattern:
    """A ``re.Pattern`` compiled when first used."""

    def __init__(self, pattern: str, flags: int = 0) -> None:
        self.__dict__["_source"] = (pattern, flags)

    def compiled(self):
        compiled = self.__dict__.get("_compiled")
        if compiled is None:
            import re

            compiled = self.__dict__["_compiled"] = re.compile(*self.__dict__["_source"])
        return compiled

    def __getattr__(self, name: str):
        value = getattr(self.compiled(), name)
        self.__dict__[name] = value  # the next lookup finds it without coming here
        return value

    def __repr__(self) -> str:
        return f"lazy({self.__dict__['_source'][0]!r})"


def lazy(pattern: str, flags: int = 0) -> LazyPattern:
    """``re.compile(pattern, flags)``, deferred until the pattern is used."""
    return LazyPattern(pattern, flags)
