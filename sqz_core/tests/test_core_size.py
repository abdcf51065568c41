"""The core stays small (issue 23: "sqz_core is the contract and one pass … under 6,000 source lines").

Counted as code lines, cloc-style: a line counts when it holds part of a statement; blank lines, comment
lines and docstrings (a string standing alone as a statement) do not. ``python sqz_core/tests/test_core_size.py``
prints the count per module.
"""

from __future__ import annotations

import io
import sys
import tokenize
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src" / "sqz_core"
LIMIT = 6000
_LAYOUT = (tokenize.NEWLINE, tokenize.NL, tokenize.COMMENT, tokenize.INDENT, tokenize.DEDENT, tokenize.ENDMARKER)


def code_lines(text: str) -> int:
    """Lines of ``text`` holding a token of a statement (docstrings, comments and blank lines left out)."""
    toks = list(tokenize.generate_tokens(io.StringIO(text).readline))
    lines: set[int] = set()
    statement: list[tokenize.TokenInfo] = []
    for tok in toks:
        if tok.type in _LAYOUT:
            if tok.type == tokenize.NEWLINE and statement:
                if not (len(statement) == 1 and statement[0].type == tokenize.STRING):  # a docstring
                    for t in statement:
                        lines.update(range(t.start[0], t.end[0] + 1))
                statement = []
            continue
        statement.append(tok)
    for t in statement:  # a last statement without its NEWLINE
        lines.update(range(t.start[0], t.end[0] + 1))
    return len(lines)


def sizes() -> dict[str, int]:
    return {p.name: code_lines(p.read_text("utf-8")) for p in sorted(SRC.glob("*.py"))}


def test_the_counter_counts_code_only():
    text = '"""Doc.\n\nMore."""\n\n# a comment\nimport os  # why\n\n\ndef f(a,\n      b):\n    """Doc."""\n    return (a +\n            b)\n'
    assert code_lines(text) == 5  # import, def over two lines, return over two lines


def test_the_core_is_under_six_thousand_code_lines():
    got = sizes()
    total = sum(got.values())
    biggest = ", ".join(f"{name} {n}" for name, n in sorted(got.items(), key=lambda kv: -kv[1])[:5])
    assert total < LIMIT, f"sqz_core is {total} code lines (limit {LIMIT}); largest: {biggest}"


if __name__ == "__main__":  # pragma: no cover - a report for people
    for name, n in sorted(sizes().items(), key=lambda kv: kv[1]):
        print(f"{n:6} {name}")
    print(f"{sum(sizes().values()):6} total (limit {LIMIT})", file=sys.stdout)
