"""Is a shell command exactly sqz's own ``expand`` of a ref, as the hints print it? (Safe to allow unprompted.)

Recovery hints say ``[<sqz> expand ID]`` and ``§ref:ID§ … (`<sqz> expand` this ref prints it)``: an agent runs
``<sqz> expand ID``, ``<sqz> expand §ref:ID§`` or, pasting the ref, ``<sqz> expand '§ref:ID:L41-80§'``.
``expand`` only prints what the store holds for this user; nothing else may run: no operator,
substitution, redirection or glob, and every argument a ref.

Both halves come from the core, not re-typed here, so a change of the hint's form follows: the verb
words are what ``sqz_core.api.expand_hint`` prints after the sqz words (``hint_verb``), and an
argument is a ref when ``sqz_core.api.parse_ref`` (what ``sqz expand`` itself parses) accepts it.
"""

from __future__ import annotations

_META = frozenset(";&|<>()`$\\\n{}*?[]~#!")


def hint_verb() -> list[str]:
    """The words a recovery hint puts between the sqz words and the id (``["expand"]`` today): what
    ``sqz_core.api.expand_hint`` prints after its last word naming sqz (``…/sqz``, ``sqz.exe``, ``-m sqz_core``)."""
    import os
    import shlex

    from sqz_core.api import expand_hint

    words = shlex.split(expand_hint())
    last = max((i for i, w in enumerate(words) if os.path.basename(w) in ("sqz", "sqz.exe", "sqz_core")), default=0)
    return words[last + 1:]


def _is_ref(word: str) -> bool:
    from sqz_core.api import ExpandError, parse_ref

    if not word or word != word.strip():
        return False
    try:
        parse_ref(word)
    except ExpandError:
        return False
    return True


def is_own_expand(command: str, sqz_argv: list[str] | None = None) -> bool:
    """``command`` is ``<this sqz> expand REF…`` or bare ``sqz expand REF…`` (refs quoted or not), nothing more;
    ``sqz_argv``: the words the caller's hints name sqz by (an agent's plugin), accepted too."""
    if not isinstance(command, str) or len(command) > 4096 or any(c in _META for c in command):
        return False
    import shlex

    try:
        words = shlex.split(command)
    except ValueError:
        return False
    from sqz_core.api import sqz_executable

    try:
        own = shlex.split(sqz_executable())
    except ValueError:
        own = []
    verb = hint_verb()
    head = None
    for prefix in (own, ["sqz"], list(sqz_argv or ())):
        n = len(prefix)
        if prefix and words[:n] == prefix and words[n:n + len(verb)] == verb:
            head = n + len(verb)
            break
    if head is None or head >= len(words):
        return False
    return all(_is_ref(w) for w in words[head:])
