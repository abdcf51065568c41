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

TYPE_CHECKING = False  # not typing's: importing typing would cost every hook call (type checkers know the name)

if TYPE_CHECKING:  # pragma: no cover - types only
    from .storeproto import StoreProtocol

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


# -- the recovery line's id ---------------------------------------------------------------------
# The id a recovery line prints, ``n`` + decimal digits, and the hashes it names.
#
# A hex prefix tokenizes unevenly in cl100k (``1f939f1edc17`` is 4 to 9 tokens, by where its
# letters fall); cl100k groups digits by three, so ``n`` + 15 digits is always 6 tokens and
# ``[sqz expand n…]`` always 11. The digits are the hash's leading bits as a zero-padded number:
# 15 digits hold 49 bits (``2**49 <= 10**15``), one more bit than 12 hex digits held. A longer id
# (18, 21… digits, one token more each) holds more bits, for the rare hash that shares 49 bits
# with another. An id names every stored hash whose leading bits are its number, so the store's
# hex-prefix lookup finds them: no new column, and every old hex id and ``§ref:HEX§`` still works.
#
# Plain ints and strings.

LETTER = "n"      # not a hex digit: a decimal id never reads as a hex prefix
DIGITS = 15       # the shortest id: 49 bits, 5 cl100k tokens of digits
STEP = 3          # a longer id grows by whole cl100k digit groups
HASH_BITS = 256   # SHA-256, 64 hex digits
# The id ``sqz expand`` takes, in a pattern (either form): ``n`` + 15 or more digits, or 4 to 64 hex digits.
PATTERN = r"[nN][0-9]{15,80}|[0-9a-fA-F]{4,64}"
# The id a recovery line prints, in a pattern: ``n`` + 15 or more digits, or (sqz before the
# decimal form) 12 to 64 hex digits.
LINE_PATTERN = r"n[0-9]{15,80}|[0-9a-f]{12,64}"


def bits(digits: int) -> int:
    """The most leading bits of a hash that ``digits`` decimal digits hold (``2**bits <= 10**digits``)."""
    b = (digits * 3321928) // 1000000  # log2(10) rounded down; corrected below where it is off
    while 2 ** (b + 1) <= 10 ** digits:
        b += 1
    while 2 ** b > 10 ** digits:
        b -= 1
    return min(b, HASH_BITS)


def encode(digest: str, digits: int = DIGITS) -> str:
    """``n`` + the leading ``bits(digits)`` bits of the hex ``digest`` as ``digits`` decimal digits."""
    b = bits(digits)
    return LETTER + str(int(digest, 16) >> (HASH_BITS - b)).zfill(digits)


def is_decimal(ref_id: str) -> bool:
    """Whether ``ref_id`` is the decimal form (``n`` + 15 or more digits)."""
    return (len(ref_id) > DIGITS and ref_id[0] in "nN" and ref_id[1:].isascii() and ref_id[1:].isdigit())


def _scan_prefixes(ref_id: str) -> tuple[list[str], int, int]:
    """(hex prefixes whose hashes cover the id's bits, the id's bits, its number)."""
    digits = len(ref_id) - 1
    b = bits(digits)
    value = int(ref_id[1:])
    if value >= 2 ** b:
        return [], b, value
    whole = -(-b // 4)                       # hex digits that hold the b bits
    spare = whole * 4 - b                    # low bits of the last hex digit the id leaves open
    base = value << spare
    return [format(base + k, f"0{whole}x") for k in range(2 ** spare)], b, value


def matches(store: StoreProtocol, ref_id: str, limit: int = 3) -> list[str]:
    """Stored hashes the decimal ``ref_id`` names (up to ``limit``; more than one: ambiguous)."""
    prefixes, b, value = _scan_prefixes(ref_id)
    found: list[str] = []
    for p in prefixes:  # at most 8 indexed lookups (``sqz expand``, and short_id's rare collision)
        found.extend(store.find_hashes(p, limit=limit))
        if len(found) >= limit:
            break
    return [h for h in found if int(h, 16) >> (HASH_BITS - b) == value][:limit]


def short_decimal(store: StoreProtocol, digest: str) -> str:
    """The shortest decimal id of ``digest`` (15 digits, then 18, 21…) that names no other stored hash.

    One indexed query in the usual case: the hashes sharing the id's first 12 hex digits. Past
    the bits decimal ids can hold it falls back to the whole hex digest (two stored hashes that
    equal on 255 bits).
    """
    digest = digest.lower()
    first = [h for h in store.find_hashes(digest[:12], limit=4) if h != digest]
    if not first:
        return encode(digest)
    digits = DIGITS
    while bits(digits) < HASH_BITS - 1:
        ref_id = encode(digest, digits)
        if not [h for h in matches(store, ref_id, limit=4) if h != digest]:
            return ref_id
        digits += STEP
    return digest


# The recovery line, last line of every lossy result: ``[<sqz> expand ID]``, where <sqz> is
# ``sqz``, an absolute path (quoted when it needs it), SQZ_BIN's words ending in sqz, or
# ``'/abs/python' -m sqz_core``; ID is ``n`` + 15 or more digits (``encode`` above; 12 or more hex digits
# before that form). Also the form sqz printed before
# (``[sqz: full output: <sqz> expand <16 hex>]``), still found in old transcripts. One line,
# anchored at both ends; linear: each line start scans its own line.
RECOVERY_LINE = lazy(r"^\[(?:sqz: full output: )?"
                     r"(?P<sqz>(?:[^\]\n]*[ \t/\\'\"])?sqz(?:\.exe)?['\"]?|[^\]\n]*[ \t]-m[ \t]+sqz_core)"
                     r" expand (?P<id>" + LINE_PATTERN + r")\]$", re.M)


def recovery_text(ref_id: str) -> str:
    """The recovery line (without its newline): ``[<sqz> expand ID]``, as the agent's shell runs it."""
    return f"[{sqz_command()} expand {ref_id}]"


def find_recovery(text: str) -> tuple[str, str] | None:
    """``(sqz words, id)`` of the last recovery line in ``text`` (either form), or None."""
    found = None
    for m in RECOVERY_LINE.finditer(text):
        found = m
    return (found.group("sqz"), found.group("id")) if found is not None else None


# -- a link on PATH, so hints say a bare ``sqz`` -------------------------------------------------

USER_BIN_DIRS = (".local/bin", "bin")  # the per-user bin folders shells' profiles put on PATH (XDG, Debian)


def link_plan(home: str, path_var: str | None = None) -> tuple[str | None, str]:
    """``(link to make, why)`` for a bare ``sqz`` in hints: a symlink to this sqz in the first of
    ``~/.local/bin``, ``~/bin`` that ``PATH`` names, or ``(None, why not)``.

    A link there that names another sqz (this one moved, an older venv) is re-pointed. Nothing is
    made when ``sqz`` on PATH is this sqz already, when another ``sqz`` is on PATH (it is never
    shadowed), when no such folder is on PATH (PATH and shell profiles are the user's: the
    reason says what to add), or when the link's place holds a file that is not a link.
    """
    path_var = os.environ.get("PATH", os.defpath) if path_var is None else path_var
    if os.environ.get("SQZ_BIN"):
        return None, "SQZ_BIN names how sqz runs"
    script = entry_script()
    if script is None:
        return None, "no sqz script to link to (sqz runs as python -m sqz_core)"
    found = on_path(path_var)
    if found is not None and _same(found, script):
        return None, f"sqz on PATH is this sqz already ({found})"
    dirs = [os.path.normpath(d) for d in path_var.split(os.pathsep) if d]
    for rel in USER_BIN_DIRS:
        folder = os.path.join(home, rel)
        if os.path.normpath(folder) not in dirs:
            continue
        link = os.path.join(folder, _NAMES[0])
        if found is not None and not (os.path.islink(found) and _same(os.path.dirname(found), folder)):
            return None, f"another sqz is on PATH ({found}); it is left alone"
        if os.path.lexists(link) and not os.path.islink(link):
            return None, f"{link} is a file that is not sqz's link; it is left alone"
        return link, f"{link} -> {script}"
    return None, (f"neither ~/.local/bin nor ~/bin is on PATH; to have hints say a bare `sqz`, put "
                  f"{os.path.dirname(script)} on PATH for your agents")


def make_link(link: str) -> str:
    """Make (or re-point) the symlink ``link`` to this sqz's script; returns the script."""
    script = entry_script()
    if script is None:
        raise OSError("no sqz script to link to")
    os.makedirs(os.path.dirname(link), exist_ok=True)
    tmp = f"{link}.sqz-tmp"
    if os.path.lexists(tmp):
        os.remove(tmp)
    os.symlink(script, tmp)
    os.replace(tmp, link)  # atomic: a shell never sees no sqz there
    _cache.clear()
    return script
