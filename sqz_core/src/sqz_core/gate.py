"""The net-win gate and the recovery line: whether a result is used, and how its original comes back.

A result goes out only when it saves enough tokens (``net_win``) and bytes (``passes``);
otherwise the original does. A lossy result ends with the recovery line, a command the
agent's shell can run to print the original (``sqz expand ID``); ID is ``n`` + decimal digits
(``runnable.short_decimal``), refs print a hex prefix (``short_id``).
"""

from __future__ import annotations

TYPE_CHECKING = False  # not typing's: importing typing would cost every hook call (type checkers know the name)

if TYPE_CHECKING:  # pragma: no cover - types only
    from collections.abc import Iterator

    from .storeproto import StoreProtocol


def min_saving(est_in: int, mode: str) -> int:
    """Tokens a result must save to be used: 10% (5% in aggressive mode), at least 8.

    The margin covers the estimate's error (about ±10% against cl100k, more when a
    transformation changes the mix of characters), so a result the gate lets through
    is shorter in real tokens too.
    """
    frac = 0.05 if mode == "aggressive" else 0.10
    return max(8, int(est_in * frac))


def net_win(est_in: int, est_out: int, mode: str) -> bool:
    """The gate: the result must save ``min_saving`` tokens even if the estimate of it is 8% low."""
    return est_out * 1.08 + min_saving(est_in, mode) <= est_in


def passes(est_in: int, est_out: int, mode: str, candidate: str, text: str) -> bool:
    """The final gate on a whole result: a net win in tokens and shorter than the text it replaces."""
    return net_win(est_in, est_out, mode) and len(candidate) < len(text)


_RULE_CHARS = frozenset("|+-=─━│┃┼┬┴├┤┌┐└┘╋═║╪╞╡╤╧╒╕╘╛")


def keeps_every_word(text: str, candidate: str) -> bool:
    """True when ``candidate`` holds every word of ``text`` (its runs of non-blank characters), in
    order, and nothing else: only the layout changed (padding collapsed, a table's rules and borders
    gone). Issue 25: such a rendering keeps every cell and word of the original, so it needs no
    recovery line. Borders do not count on either side: ``|`` and ``│`` part words as blanks do
    (``a | b`` and ``a|b`` hold the same words), and runs of two or more rule characters (``--``,
    ``-----+----``, ``├───┼``) are no words; a lone ``-`` or ``+`` is a value (``ps``'s missing
    field, psql's continuation mark) and counts."""
    from itertools import zip_longest

    def words(s: str) -> Iterator[str]:
        for bar in "|│┃║":  # (``replace``: a dict ``translate`` of a non-ASCII text is 50x slower)
            s = s.replace(bar, " ")
        return (w for w in s.split() if not (len(w) > 1 and _RULE_CHARS.issuperset(w)))

    return all(a == b for a, b in zip_longest(words(text), words(candidate)))  # stops at the first word that differs


def recovery_line(digest: str, store: StoreProtocol) -> str:
    """``[<sqz> expand ID]``: the last line of a lossy result, a command the agent's shell can run.

    ID is ``digest``'s shortest decimal id (``n`` + 15 digits or more, ``runnable.encode``) that names no
    other hash in ``store`` now, so ``sqz expand ID`` never answers "ambiguous"
    (``runnable.RECOVERY_LINE`` parses it); always 6 cl100k tokens where hex ids took 4 to 9.
    """
    from .runnable import recovery_text, short_decimal

    return recovery_text(short_decimal(store, digest)) + "\n"


def with_recovery_line(candidate: str, digest: str, store: StoreProtocol) -> str:
    """``candidate`` ending with the recovery line on a line of its own (even after a last line
    without a newline; an empty candidate is the line alone)."""
    if candidate and not candidate.endswith("\n"):
        candidate += "\n"
    return candidate + recovery_line(digest, store)


ID_DIGITS = 12  # hex digits of a recovery line's id: 48 bits, ~5 cl100k tokens


def short_id(store: StoreProtocol, digest: str, digits: int = ID_DIGITS) -> str:
    """The shortest prefix of ``digest``, at least ``digits`` long, that no other stored hash starts with.

    ``sqz expand`` then never answers "ambiguous" for an id sqz printed (as long as the
    store holds no newer hash with that prefix). One indexed query; more digits, and one
    more query, only in the rare case of a shared prefix.
    """
    from os.path import commonprefix

    digest = digest.lower()
    n = min(digits, len(digest))
    while n < len(digest):
        others = [h for h in store.find_hashes(digest[:n], limit=4) if h != digest]
        if not others:
            break
        n = max(n + 1, max(len(commonprefix((digest, h))) for h in others) + 1)
    return digest[:n]
