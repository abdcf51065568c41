"""The net-win gate and the recovery line: whether a result is used, and how its original comes back.

A result goes out only when it saves enough tokens (``net_win``) and bytes (``passes``);
otherwise the original does. A lossy result ends with the recovery line, a command the
agent's shell can run to print the original (``sqz expand ID``).
"""

from __future__ import annotations


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


def recovery_line(digest: str, store) -> str:
    """``[<sqz> expand ID]``: the last line of a lossy result, a command the agent's shell can run.

    ID is the shortest prefix of ``digest`` (12 hex digits or more) unique in ``store`` now,
    so ``sqz expand ID`` never answers "ambiguous" (``runnable.RECOVERY_LINE`` parses it).
    """
    from .expand import short_id
    from .runnable import recovery_text

    return recovery_text(short_id(store, digest)) + "\n"


def with_recovery_line(candidate: str, digest: str, store) -> str:
    """``candidate`` ending with the recovery line on a line of its own (even after a last line
    without a newline; an empty candidate is the line alone)."""
    if candidate and not candidate.endswith("\n"):
        candidate += "\n"
    return candidate + recovery_line(digest, store)
