"""Literal pre-filters: where a pattern can start, found with ``str.find``, so no regex walks text
that lacks its anchor.

A pattern that begins with a character class, a lookbehind or a multi-line ``^`` makes ``re``
try every offset of the text (20–700 ms per MB each). The safety and secret checks instead
list the offsets where a match can begin — the start of a line or of a word holding one of the
pattern's keywords — and try the pattern there only (``matches``): the same matches, in the same
order, as ``finditer``, at the cost of a few ``find`` calls.

Keywords are looked up in ``folded(text, lower(text))``: the text lower-cased offset for offset,
with the letters ``re.IGNORECASE`` also takes for ASCII ones (``İ`` and dotless ``ı`` for ``i``,
long ``ſ`` for ``s``, the Kelvin sign for ``k``). Given a lower-cased text that moved offsets
(``str.lower`` makes ``İ`` two characters) there is no folded text and callers scan the whole text.
"""

from __future__ import annotations

TYPE_CHECKING = False  # not typing's: importing typing would cost every hook call (type checkers know the name)

if TYPE_CHECKING:  # pragma: no cover - types only
    import re
    from collections.abc import Callable, Hashable, Iterable, Iterator
    from typing import Any, TypeVar

    T = TypeVar("T")

WORD = frozenset("abcdefghijklmnopqrstuvwxyz0123456789_")  # [A-Za-z0-9_] of a folded text


_MEMO_FROM = 65536  # a shorter text is scanned again faster than its lists are kept
_memo: list[tuple[str, dict[Hashable, Any]]] = []  # [(text, {key: value})]: the large texts scanned last (held: no identity meets a freed address)


def remembered(text: str, key: Hashable, compute: Callable[[], T]) -> T:
    """``compute()``, once per large ``text`` object and ``key``: the safety verdict, the per-span
    path and the secret detectors read the same offsets of the same text (``forget`` drops them)."""
    if len(text) < _MEMO_FROM:
        return compute()
    for seen, values in _memo:  # noqa: B007 (``values`` is read after the loop breaks)
        if seen is text:
            break
    else:
        values = {}
        _memo.insert(0, (text, values))
        del _memo[2:]  # a text and its lower-cased form: a third would add a copy to the peak
    if key not in values:
        values[key] = compute()
    got: T = values[key]
    return got


def forget() -> None:
    """Drop what ``remembered`` holds (the pipeline calls it once its safety stage is done)."""
    _memo.clear()


def lower(text: str) -> str:
    """``text.lower()`` for what the checks look for: ASCII letters lower-cased, offset for offset, the
    Kelvin sign as ``k`` (the one other character whose lower case is ASCII besides ``İ``, which no
    keyword ends with). Through UTF-8 bytes: 2-3x faster than ``str.lower`` on non-ASCII text."""
    if len(text) >= _MEMO_FROM:
        return remembered(text, "lower", lambda: _lower(text))
    return _lower(text)


def _lower(text: str) -> str:
    if text.isascii():
        return text.lower()
    low = text.encode("utf-8", "surrogatepass").lower().decode("utf-8", "surrogatepass")
    return low.replace("\u212a", "k") if "\u212a" in low else low


def folded(text: str, lowered: str) -> str | None:
    """``lowered`` (from ``lower``, or ``str.lower`` of a text without ``İ``) with ``ı``, ``İ``→``i`` and
    ``ſ``→``s``, offsets kept; None when ``lowered`` does not keep offsets (``str.lower`` of an ``İ``)."""
    if text.isascii():
        return lowered
    if len(lowered) != len(text):
        return None
    if "\u0130" in lowered:
        lowered = lowered.replace("\u0130", "i")
    if "\u0131" in lowered:
        lowered = lowered.replace("\u0131", "i")
    if "\u017f" in lowered:
        lowered = lowered.replace("\u017f", "s")
    return lowered


def find_all(text: str, sub: str) -> list[int]:
    """Every offset of ``sub`` in ``text`` (overlapping ones included; the list is shared: read it only)."""
    if len(text) >= _MEMO_FROM:
        return remembered(text, ("find", sub), lambda: _find_all(text, sub))
    return _find_all(text, sub)


def _find_all(text: str, sub: str) -> list[int]:
    out = []
    pos = text.find(sub)
    while pos >= 0:
        out.append(pos)
        pos = text.find(sub, pos + 1)
    return out


def line_starts(text: str, hints: Iterable[str]) -> list[int]:
    """Sorted offsets of the starts of the lines of ``text`` that contain one of ``hints`` (read it only)."""
    if len(text) >= _MEMO_FROM:
        hints = tuple(hints)
        return remembered(text, ("lines", hints), lambda: _line_starts(text, hints))
    return _line_starts(text, hints)


def _line_starts(text: str, hints: Iterable[str]) -> list[int]:
    starts = set()
    for hint in hints:
        last_line_end = -1
        pos = text.find(hint)
        while pos >= 0:
            start = text.rfind("\n", 0, pos) + 1
            starts.add(start)
            end = text.find("\n", pos)
            if end < 0:
                break
            last_line_end = end
            pos = text.find(hint, last_line_end + 1)
    return sorted(starts)


def run_starts(text: str, hints: Iterable[str], chars: frozenset[str] = WORD) -> list[int]:
    """Sorted offsets where a run of ``chars`` containing one of ``hints`` begins.

    Linear: each back-scan stops at the previous hint of the same run. (Read the list only.)
    """
    if len(text) >= _MEMO_FROM:
        hints = tuple(hints)
        return remembered(text, ("runs", hints, chars), lambda: _run_starts(text, hints, chars))
    return _run_starts(text, hints, chars)


def _run_starts(text: str, hints: Iterable[str], chars: frozenset[str]) -> list[int]:
    hits = sorted({p for hint in hints for p in find_all(text, hint)})
    starts: list[int] = []
    prev_pos = prev_start = -1
    for pos in hits:
        i = pos
        while i > 0 and text[i - 1] in chars:
            i -= 1
            if i == prev_pos:
                i = prev_start
                break
        if not starts or starts[-1] != i:
            starts.append(i)
        prev_pos, prev_start = pos, i
    return starts


def matches(pattern: re.Pattern[str], text: str, starts: Iterable[int]) -> Iterator[re.Match[str]]:
    """The matches ``pattern.finditer(text)`` yields, given a sorted superset of their start offsets."""
    end = 0
    for start in starts:
        if start < end:
            continue
        m = pattern.match(text, start)
        if m is not None:
            end = m.end() if m.end() > start else start + 1
            yield m


def first(pattern: re.Pattern[str], text: str, starts: Iterable[int]) -> re.Match[str] | None:
    """``pattern.search(text)``, given a sorted superset of the offsets where a match can start."""
    return next(matches(pattern, text, starts), None)
