"""Is a shell command exactly sqz's own ``expand`` of a ref, as the hints print it? (Safe to allow unprompted.)

Recovery hints say ``[sqz expand ID]`` and ``§ref:ID§ … (`sqz expand` this ref prints it)``: an agent runs
``<sqz> expand ID``, ``<sqz> expand §ref:ID§`` or, pasting the ref, ``<sqz> expand '§ref:ID:L41-80§'``.
``expand`` only prints what the store holds for this user; nothing else may run: no operator,
substitution, redirection or glob, and every argument a ref.
"""

from __future__ import annotations

import re

from sqz_core.api import REF_ID_PATTERN

# the id's form is the core's (``n`` + digits in recovery lines, hex in refs and older lines)
_REF = re.compile(r"(?:§?ref:)?(?:" + REF_ID_PATTERN + r")(?::L\d{1,9}-\d{1,9})?§?")
_META = frozenset(";&|<>()`$\\\n{}*?[]~#!")


def is_own_expand(command: str) -> bool:
    """``command`` is ``<this sqz> expand REF…`` or bare ``sqz expand REF…`` (refs quoted or not), nothing more."""
    if not isinstance(command, str) or len(command) > 4096 or any(c in _META for c in command):
        return False
    import shlex

    try:
        words = shlex.split(command)
    except ValueError:
        return False
    if len(words) < 3:
        return False
    from sqz_core.api import sqz_executable

    try:
        own = shlex.split(sqz_executable())
    except ValueError:
        own = []
    head = None
    for prefix in (own, ["sqz"]):
        if prefix and words[:len(prefix)] == prefix and words[len(prefix):len(prefix) + 1] == ["expand"]:
            head = len(prefix) + 1
            break
    if head is None or head >= len(words):
        return False
    return all(_REF.fullmatch(w) for w in words[head:])
