"""What a safety classifier answers (the return type of ``sqz_classify_safety``)."""

from __future__ import annotations

TYPE_CHECKING = False  # not typing's: importing typing would cost every hook call (type checkers know the name)

if TYPE_CHECKING:  # pragma: no cover - types only
    from collections.abc import Iterable
    from typing import Any

# Levels from least to most restrictive. The most restrictive answer wins.
LEVELS = ("aggressive", "default", "safe")


class Safety:
    """A classifier's verdict on one output.

    level   ``"safe"``: the content must reach the model unchanged and is never cached;
            ``"default"``: ordinary content; ``"aggressive"``: low-information
            content that may be compressed harder.
    reason  a short label for stats and the stderr note (``"python-traceback"``).
    spans   for ``"safe"``: the ``(first, last)`` 0-based inclusive line ranges that
            are sensitive. A formatter's summary may be used around them only if it
            keeps every line of the paragraphs holding them; a span
            ``(first, last, "trace")`` (a stack trace) is held as it stands, not
            widened to its paragraph. Empty means the whole output is sensitive.
    secret  True when the content holds a credential or key: then nothing of the
            output is compressed or stored, formatter or not.
    """

    __slots__ = ("level", "reason", "spans", "secret")

    def __init__(self, level: str, reason: str = "", spans: tuple[tuple[Any, ...], ...] = (),
                 secret: bool = False) -> None:
        if level not in LEVELS:
            raise ValueError(f"unknown safety level {level!r}; expected one of {LEVELS}")
        self.level = level
        self.reason = reason
        self.spans = tuple(spans)
        self.secret = secret

    def __repr__(self) -> str:
        return f"Safety({self.level!r}, {self.reason!r}, spans={self.spans!r}, secret={self.secret})"


def most_restrictive(verdicts: Iterable[Safety | None]) -> Safety | None:
    """Merge classifier answers: the highest level wins; spans and reasons of that level are joined."""
    best: Safety | None = None
    for v in verdicts:
        if v is None:
            continue
        if best is None or LEVELS.index(v.level) > LEVELS.index(best.level):
            best = Safety(v.level, v.reason, v.spans, v.secret)
        elif v.level == best.level:
            reasons = best.reason + ("," if best.reason and v.reason else "") + v.reason
            whole = (best.level == "safe") and (not best.spans or not v.spans)
            spans = () if whole else tuple(sorted(set(best.spans) | set(v.spans)))
            best = Safety(best.level, reasons, spans, best.secret or v.secret)
    return best
