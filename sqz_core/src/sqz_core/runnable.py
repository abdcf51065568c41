"""The shell words that run *this* sqz in the agent's shell, for every recovery hint sqz prints.

A hint (the recovery line ``[sqz expand ID]``, a ref ``§ref:ID§ … (`sqz expand` this ref …)``) is only useful
if the agent can run it. Bootstrap and venv installs often leave ``sqz`` off PATH, where a
bare ``sqz expand`` exits 127. The rule:

* ``SQZ_BIN`` set: those words (the user said how sqz runs);
* the ``sqz`` found on PATH is this very program (same file, or a script of this interpreter):
  bare ``sqz``, short and portable;
* otherwise the absolute path of the running ``sqz`` script (or the ``sqz`` script next to
  this interpreter), else ``'/abs/python' -m sqz_core``.

Hot path: ``os``, ``sys`` and ``re`` only (the recovery-line pattern compiles on first use),
worked out once per (PATH, SQZ_BIN) and cached.
"""

from __future__ import annotations

import os
import re
import sys

from .lazyre import lazy

_NAMES = ("sqz", "sqz.exe") if os.name == "nt" else ("sqz",)
_SAFE = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789@%+=:,./-_")
_cache: dict[tuple[str | None, ...], str] = {}


def quote(word: str) -> str:
    """POSIX shell quoting (``shlex.quote`` without importing shlex and re)."""
    if word and all(c in _SAFE for c in word):
        return word
    return "'" + word.replace("'", "'\"'\"'") + "'"


def _executable(path: str) -> bool:
    return os.path.isfile(path) and os.access(path, os.X_OK)


def on_path(path_var: str | None = None) -> str | None:
    """The first ``sqz`` a shell would find on ``PATH`` (default: this process's), or None."""
    path_var = os.environ.get("PATH", os.defpath) if path_var is None else path_var
    for d in path_var.split(os.pathsep):
        for name in _NAMES:
            c = os.path.join(d or ".", name)
            if _executable(c):
                return c
    return None


def entry_script() -> str | None:
    """Absolute path of the ``sqz`` script running now, else the ``sqz`` script of this interpreter."""
    argv0 = sys.argv[0] if sys.argv else ""
    if argv0 and os.path.basename(argv0) in _NAMES and _executable(argv0):
        return os.path.abspath(argv0)
    for name in _NAMES:
        sibling = os.path.join(os.path.dirname(sys.executable), name)
        if _executable(sibling):
            return sibling
    return None


def _same(a: str, b: str) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def _runs_this_interpreter(script: str) -> bool:
    """Whether ``script``'s shebang names this interpreter (a console script of the same install)."""
    try:
        with open(script, "rb") as fh:
            first = fh.readline(4096)
    except OSError:
        return False
    if not first.startswith(b"#!"):
        return False
    interp = first[2:].strip().split(b" ", 1)[0]
    return bool(interp) and _same(os.fsdecode(interp), sys.executable)


def sqz_command() -> str:
    """Shell words that run this sqz in a shell with this process's PATH (see the module doc)."""
    env = os.environ.get("SQZ_BIN")
    key = (os.environ.get("PATH"), env, sys.argv[0] if sys.argv else "")
    hit = _cache.get(key)
    if hit is not None:
        return hit
    if env:
        words = env if env.startswith(("'", '"')) else quote(env)
    else:
        found = on_path()
        script = entry_script()
        if found is not None and (script is not None and _same(found, script) or _runs_this_interpreter(found)):
            words = "sqz"
        elif script is not None:
            words = quote(script)
        else:
            words = quote(sys.executable) + " -m sqz_core"
    _cache[key] = words
    return words


def expand_hint(digest: str = "") -> str:
    """``<sqz> expand DIGEST`` (or ``<sqz> expand`` alone) as the agent can run it."""
    return f"{sqz_command()} expand {digest}".rstrip()


# The recovery line, last line of every lossy result: ``[<sqz> expand ID]``, where <sqz> is
# ``sqz``, an absolute path (quoted when it needs it), SQZ_BIN's words ending in sqz, or
# ``'/abs/python' -m sqz_core``; ID is 12 or more hex digits. Also the form sqz printed before
# (``[sqz: full output: <sqz> expand <16 hex>]``), still found in old transcripts. One line,
# anchored at both ends; linear: each line start scans its own line.
RECOVERY_LINE = lazy(r"^\[(?:sqz: full output: )?"
                     r"(?P<sqz>(?:[^\]\n]*[ \t/\\'\"])?sqz(?:\.exe)?['\"]?|[^\]\n]*[ \t]-m[ \t]+sqz_core)"
                     r" expand (?P<id>[0-9a-f]{12,64})\]$", re.M)


def recovery_text(ref_id: str) -> str:
    """The recovery line (without its newline): ``[<sqz> expand ID]``, as the agent's shell runs it."""
    return f"[{sqz_command()} expand {ref_id}]"


def find_recovery(text: str) -> tuple[str, str] | None:
    """``(sqz words, id)`` of the last recovery line in ``text`` (either form), or None."""
    found = None
    for m in RECOVERY_LINE.finditer(text):
        found = m
    return (found.group("sqz"), found.group("id")) if found is not None else None
