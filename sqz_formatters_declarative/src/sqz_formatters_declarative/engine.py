"""Run one compiled declarative formatter on an output (the hot path: ``re`` and the core's api only).

The order is fixed and documented (docs/declarative-formatters.md): escapes stripped; on failure
(exit status not 0, or not known) the lines matching an ``errors`` pattern, and ``context`` lines
around them, are marked kept; ``drop`` and ``keep`` remove other lines; runs are folded
(``fold_identical``, ``fold_similar``, then ``fold`` patterns); ``head``/``tail`` cut the middle.
A kept line is never removed, folded, cut or changed by any later step. A line longer than a
pattern's cap (``linear.CAPS``) is never tested against it: it stays, and on failure it is kept
as an error line, so the guard can only keep more.
"""

from __future__ import annotations

from sqz_core.api import lazy_pattern

_DIGITS = lazy_pattern(r"[0-9]+")
_HEX = lazy_pattern(r"\b[0-9a-fA-F]{7,64}\b")

NORMAL, KEPT, NOTE = 0, 1, 2  # a line's state: may go / must stay / a line the formatter wrote

_compiled: dict[tuple[str, int], object] = {}


def _rx(pattern: str):
    rx = _compiled.get((pattern, 0))
    if rx is None:
        import re

        rx = _compiled[(pattern, 0)] = re.compile(pattern)
    return rx


def test(patterns, line: str):
    """True when one of ``patterns`` (``[pattern, cap]``) is found in ``line``; None when none is but the
    line was too long to test against at least one; False when none is."""
    unsure = False
    for pattern, cap in patterns:
        if len(line) > cap:
            unsure = True
        elif _rx(pattern).search(line) is not None:
            return True
    return None if unsure else False


def matches(spec: dict, request) -> bool:
    """Whether ``spec`` is for ``request``'s command line (program, subcommand, argv pattern)."""
    if request.program is None or request.program not in spec["programs"]:
        return False
    if spec.get("subcommands") is not None and request.subcommand() not in spec["subcommands"]:
        return False
    argv = spec.get("argv")
    if argv is not None:
        return test([argv], " ".join(request.argv)) is True
    return True


def failing(exit_code) -> bool:
    """A run whose status is not 0 or not known: its error lines are kept."""
    return exit_code != 0


def apply(spec: dict, text: str, exit_code=None) -> str:
    """``text`` as ``spec`` renders it (the text itself when nothing changes)."""
    if failing(exit_code) and spec.get("keep_all"):
        return text
    body = text
    if spec.get("strip_ansi", True):
        from sqz_core.api import strip_escapes

        body = strip_escapes(body)
    ends = body.endswith("\n")
    lines = body.split("\n")
    if ends:
        lines.pop()
    items = _select(spec, lines, failing(exit_code))
    fold_min = spec.get("fold_min", 3)
    if spec.get("fold_identical", True):
        items = _fold_identical(items)
    if spec.get("fold_similar"):
        items = _fold_runs(items, _similar_key, fold_min)
    if spec.get("fold"):
        folds = spec["fold"]
        items = _fold_runs(items, lambda line: _first_match(folds, line), fold_min)
    items = _cut(items, spec.get("head"), spec.get("tail"))
    out = "\n".join(line for line, _ in items) + ("\n" if ends and items else "")
    if len(out) > len(text):  # folding two short lines can cost more than it saves
        return text
    return out


def _select(spec: dict, lines: list[str], failed: bool) -> list[tuple[str, int]]:
    n = len(lines)
    state = [NORMAL] * n
    errors = spec.get("errors") or []
    if failed and errors:
        context = spec.get("context", 0)
        for i, line in enumerate(lines):
            if test(errors, line) is not False:  # found, or too long to be sure: kept
                for j in range(max(0, i - context), min(n, i + context + 1)):
                    state[j] = KEPT
    drop, keep = spec.get("drop") or [], spec.get("keep") or []
    out = []
    for line, st in zip(lines, state):
        if st == NORMAL:
            if drop and test(drop, line) is True:
                continue
            if keep and test(keep, line) is False:
                continue
        out.append((line, st))
    return out


def _fold_identical(items):
    out, i, n = [], 0, len(items)
    while i < n:
        line, st = items[i]
        j = i + 1
        if st == NORMAL:
            while j < n and items[j] == (line, NORMAL):
                j += 1
        if j - i >= 2 and line.strip():
            out.append((f"{line} [×{j - i}]", NOTE))
        else:
            out.extend(items[i:j])
        i = j
    return out


def _similar_key(line: str):
    if not line.strip():
        return None
    return _DIGITS.sub("#", _HEX.sub("#", line)) if len(line) <= 4096 else None


def _first_match(patterns, line: str):
    for k, (pattern, cap) in enumerate(patterns):
        if len(line) <= cap and _rx(pattern).search(line) is not None:
            return k
    return None


def _fold_runs(items, key, fold_min: int):
    """Runs of at least ``fold_min`` NORMAL lines with one non-None ``key``: first line, a count, last line."""
    out, i, n = [], 0, len(items)
    while i < n:
        line, st = items[i]
        k = key(line) if st == NORMAL else None
        j = i + 1
        if k is not None:
            while j < n and items[j][1] == NORMAL and key(items[j][0]) == k:
                j += 1
        if j - i >= max(3, fold_min):
            out.append(items[i])
            out.append((f"  … {j - i - 2} more like these …", NOTE))
            out.append(items[j - 1])
        else:
            out.extend(items[i:j])
        i = j
    return out


def _cut(items, head, tail):
    """The first ``head`` and last ``tail`` lines, the KEPT ones between them too, a count for each gap."""
    if head is None and tail is None:
        return items
    head = head or 0
    tail = tail or 0
    n = len(items)
    if n <= head + tail or (head == 0 and tail == 0 and not n):
        return items
    out, gap = [], 0
    for i, item in enumerate(items):
        if i < head or i >= n - tail or item[1] == KEPT:
            if gap:
                out.append((f"… {gap} lines omitted …", NOTE))
                gap = 0
            out.append(item)
        else:
            gap += 1
    if gap:
        out.append((f"… {gap} lines omitted …", NOTE))
    return out
