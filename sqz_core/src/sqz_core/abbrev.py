"""N-gram abbreviation: recurring multi-word phrases in one output replaced by short symbols.

Only plain words take part (letters, at least two each, between spaces), so a path,
hash, number, identifier with ``_``/``.``/``-`` or a line of code is never touched;
the legend at the end makes the result reversible, and the core keeps the original
for ``sqz expand``. Off with ``--no-abbrev`` or ``SQZ_NO_ABBREV=1``.
"""

from __future__ import annotations

import re
from .lazyre import lazy

MIN_WORDS, MAX_WORDS = 3, 6
MIN_COUNT = 3
MIN_PHRASE_CHARS = 14
MAX_SYMBOLS = 9
# a run of plain words: letters only, separated by single spaces, not glued to path/identifier characters
_RUN = lazy(r"(?<![\w./\\:@#$%=-])[A-Za-z]{2,}(?: [A-Za-z]{2,})+(?![\w./\\@#$%=-])")
_SYMBOL = lazy(r"§\d")
_CODEY = lazy(r"[{};]\s*$|^\s*(def|class|fn|func|function|import|return|if|for|while)\b")


def _ngrams(lines: list[str]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for line in lines:
        if _CODEY.search(line):
            continue
        for m in _RUN.finditer(line):
            words = m.group(0).split(" ")
            seen: set[str] = set()
            for n in range(MIN_WORDS, min(MAX_WORDS, len(words)) + 1):
                for i in range(len(words) - n + 1):
                    phrase = " ".join(words[i:i + n])
                    if len(phrase) >= MIN_PHRASE_CHARS and phrase not in seen:
                        seen.add(phrase)
                        counts[phrase] = counts.get(phrase, 0) + 1
    return counts


def _cost(phrase: str) -> int:
    """``tokens.estimate(" " + phrase)`` without the scan: a phrase is plain words between single
    spaces, so its pieces are its words, each with the space before it (``len(word) + 1``)."""
    return sum(1 + (len(w) + 1) // 6 if len(w) >= 8 else 1 for w in phrase.split(" "))


def abbreviate(text: str) -> str | None:
    """``text`` with recurring phrases replaced by ``§1``… and a legend, or None if nothing pays.

    A phrase is used only if it saves tokens after its legend entry is paid for
    (``§N`` costs two cl100k tokens).
    """
    if _SYMBOL.search(text):
        return None
    lines = text.split("\n")
    counts = {}
    for p, c in _ngrams(lines).items():
        cost = _cost(p)
        if c >= MIN_COUNT and (cost - 2) * c - (cost + 3) > 0:
            counts[p] = c
    if not counts:
        return None
    chosen: list[str] = []
    # longest-saving phrases first; skip phrases overlapping one already chosen
    for phrase in sorted(counts, key=lambda p: (-(counts[p] - 1) * len(p), p)):
        if any(phrase in c or c in phrase for c in chosen):
            continue
        chosen.append(phrase)
        if len(chosen) >= MAX_SYMBOLS:
            break
    out = text
    legend = []
    for n, phrase in enumerate(chosen, 1):
        symbol = f"§{n}"
        # the phrase first, then what must not stand before it: ``re`` skips to the literal
        pattern = re.compile(re.escape(phrase) + r"(?<![\w./\\:@#$%=-]" + re.escape(phrase) + r")(?![\w./\\@#$%=-])")
        replaced, hits = pattern.subn(symbol, out)
        if hits >= MIN_COUNT:
            out = replaced
            legend.append(f"{symbol}={phrase}")
    if not legend:
        return None
    trailer = "[sqz abbreviations: " + "; ".join(legend) + "]\n"
    result = out + ("" if out.endswith("\n") else "\n") + trailer
    return result if len(result) < len(text) else None


def expand_abbreviations(text: str) -> str:
    """Undo ``abbreviate`` from its legend (for tests and tools)."""
    m = re.search(r"\n?\[sqz abbreviations: (.*)\]\n$", text)
    if not m:
        return text
    body = text[: m.start()] + ("\n" if text[: m.start()] and not text[: m.start()].endswith("\n") else "")
    for item in reversed(m.group(1).split("; ")):  # §12 before §1
        symbol, phrase = item.split("=", 1)
        body = body.replace(symbol, phrase)
    return body
