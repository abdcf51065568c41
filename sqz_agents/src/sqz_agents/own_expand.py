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


# -- a bare ``sqz`` in the agent's command, resolved by its pre-tool hook -------------------------
# Where no ``sqz`` of this install is on the agent's PATH, a hook that sees every shell command
# before it runs can still make ``sqz expand ID`` run: it names this sqz in the command instead.
# Hints may then say the bare ``sqz`` (11 cl100k tokens for the recovery line, where an absolute
# path costs 20 or more), for that agent only (``short_hints``).
RESOLVED_VERBS = frozenset(("expand", "recall"))  # the verbs sqz's hints and recall tell an agent to run


def resolve_bare_sqz(command: str, sqz_words: str | None = None) -> str | None:
    """``command`` with each bare ``sqz expand``/``sqz recall`` naming this sqz as the hook runs it
    (``sqz_core.api.sqz_executable``), or None: nothing to resolve, ``SQZ_BIN=sqz``, or the command
    is not understood (then it is left as the agent wrote it). Also where the hook's PATH finds this
    sqz: the agent's shell may be started with another PATH. ``sqz_words``: the words to name sqz by
    (an agent plugin's own), else the ones this process runs as.

    Only a program word is replaced, wherever a simple command starts (after ``;``, ``&&``, ``|``…);
    the result is checked word for word against the original's simple commands.
    """
    if not isinstance(command, str) or len(command) > 4096 or "sqz" not in command:
        return None
    import re
    import shlex

    from sqz_core.api import shell_words, simple_commands, sqz_executable

    own = sqz_words or sqz_executable()
    if own == "sqz":
        return None  # SQZ_BIN=sqz: the user says a bare sqz runs this one
    try:
        before = simple_commands(shell_words(command))
        own_words = shlex.split(own)
    except Exception:
        return None
    want = [own_words + w[1:] if w[:1] == ["sqz"] and w[1:2] and w[1] in RESOLVED_VERBS else w for w in before]
    if want == before:
        return None
    new = re.sub(r"(^|[;&|(\n]|\bthen|\bdo)([ \t]*)sqz(?=[ \t]+(?:expand|recall)(?:[ \t]|$))",
                 lambda m: m.group(1) + m.group(2) + own, command)
    try:
        return new if simple_commands(shell_words(new)) == want else None
    except Exception:
        return None


def short_hints(text: str) -> str:
    """``text`` with sqz's hints naming a bare ``sqz``, for an agent whose hook resolves it (``resolve_bare_sqz``).

    Only sqz's own lines change: refs and deltas (``§ref:…``, ``§delta:…`` lines) and the recovery line
    that ends the text; in them only the words this process prints before ``expand``.
    """
    from sqz_core.api import RECOVERY_LINE, expand_hint

    printed = expand_hint()
    if not text or printed.split(" ", 1)[0] == "sqz" or printed not in text:
        return text
    lines = text.split("\n")
    last = max((i for i, line in enumerate(lines) if line.strip()), default=-1)
    for i, line in enumerate(lines):
        if line.startswith(("§ref:", "§delta:")) or (i == last and RECOVERY_LINE.match(line)):
            lines[i] = line.replace(printed, "sqz expand")
    return "\n".join(lines)
