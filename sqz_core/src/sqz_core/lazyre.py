"""Regular expressions compiled on first use, from a compiled form kept on disk.

Compiling a pattern costs 20 µs to 15 ms (``re``'s parser and compiler are Python) and the
process forgets it, so every ``sqz compress`` paid for the same few dozen patterns again.
``lazy(pattern, flags)`` stands in for ``re.compile``: the pattern is compiled the first time
one of its methods is used, and the bound method is then cached on the instance. The compiled
form (what CPython's ``re._compiler.compile`` hands ``_sre.compile``: flags, code words, groups)
is kept in the cache directory, one file per interpreter build, so a later process builds the
pattern in microseconds with ``_sre.compile``, which validates the code (a form it refuses, or an
interpreter without these internals, is compiled by ``re`` as before). Same pattern object either way.
"""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False  # not typing's: importing typing would cost every hook call (type checkers know the name)

if TYPE_CHECKING:  # pragma: no cover - types only
    import re
    from typing import Any

# ``re`` itself is imported on first compile: ``sqz --version`` and a call answered before any
# pattern runs import no regex machinery (flags are plain ints: ``re.M`` is 8, ``re.I`` 2)
MAX_FORMS = 4096  # patterns built from input (a declarative rule's) must not grow the file without end
_forms: dict[tuple[str, int], tuple[Any, ...]] = {}
_state: dict[str, Any] = {"dir": None, "new": False}


def keep_forms_in(folder: str) -> None:
    """Build patterns from the forms kept in ``folder``, and keep new ones there (the ``sqz`` command's cache)."""
    _state["dir"] = folder
    _forms.update(_kept())


def _kept(forms: dict[tuple[str, int], tuple[Any, ...]] | None = None) -> Any:
    """The forms kept in the cache directory ({} when none can be read); with ``forms``, write them there."""
    import _sre
    import marshal

    path = os.path.join(_state["dir"], f"regex-{sys.hexversion:08x}-{_sre.MAGIC}.marshal")
    try:
        if forms is not None:
            with open(f"{path}.{os.getpid()}", "wb") as f:
                f.write(marshal.dumps(forms))
            return os.replace(f"{path}.{os.getpid()}", path)  # a reader sees the old file or the new one
        with open(path, "rb") as f:
            kept = marshal.loads(f.read())  # load(f) reads the file a few bytes at a time: 20 times slower
        return kept if isinstance(kept, dict) else {}
    except (OSError, EOFError, ValueError, TypeError):
        return {}


def _form(pattern: str, flags: int) -> tuple[Any, ...]:
    """What ``re._compiler.compile`` hands ``_sre.compile`` after the pattern (the same steps)."""
    parsed = sys.modules["re._parser"].parse(pattern, flags)
    names = [None] * parsed.state.groups
    for name, i in parsed.state.groupdict.items():
        names[i] = name
    code = [int(c) for c in sys.modules["re._compiler"]._code(parsed, flags)]
    return int(flags | parsed.state.flags), code, parsed.state.groups - 1, dict(parsed.state.groupdict), tuple(names)


def compile_cached(pattern: str, flags: int = 0) -> re.Pattern[str]:
    """``re.compile(pattern, flags)``, built from its kept compiled form when there is one."""
    import re
    import _sre

    key = (pattern, int(flags))
    try:
        form = _forms.get(key) or _form(*key)
        built: re.Pattern[str] = _sre.compile(pattern, *form)
    except re.error:
        raise
    except Exception:  # another interpreter's internals, a damaged file: what re does (and forget the form)
        _forms.pop(key, None)
        return re.compile(pattern, flags)
    if key not in _forms and len(_forms) < MAX_FORMS:
        _forms[key] = form
        if not _state["new"] and _state["dir"]:  # at exit, the file gets this process's new forms (and keeps others' since)
            import atexit

            _state["new"] = True
            atexit.register(lambda: _kept({**_kept(), **_forms}))
    return built


class LazyPattern:
    """A ``re.Pattern`` compiled when first used."""

    def __init__(self, pattern: str, flags: int = 0) -> None:
        self.__dict__["_source"] = (pattern, flags)

    def compiled(self) -> re.Pattern[str]:
        compiled = self.__dict__.get("_compiled")
        if compiled is None:
            compiled = self.__dict__["_compiled"] = compile_cached(*self.__dict__["_source"])
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
