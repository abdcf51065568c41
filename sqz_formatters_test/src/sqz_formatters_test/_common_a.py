"""Small helpers shared by the Python and JavaScript test/build formatters."""

from __future__ import annotations


def plural(n: int, word: str, many: str | None = None) -> str:
    """``1 line`` / ``3 lines`` (``many`` for irregular plurals)."""
    return f"{n} {word}" if n == 1 else f"{n} {many or word + 's'}"


def fold_blank_runs(lines: list[str]) -> list[str]:
    """Collapse runs of blank lines to one and drop leading/trailing blanks."""
    out: list[str] = []
    for line in lines:
        if not line.strip():
            if out and out[-1] != "":
                out.append("")
        else:
            out.append(line)
    while out and out[-1] == "":
        out.pop()
    return out


def join_lines(lines: list[str]) -> str:
    """Lines joined with a final newline (empty input gives an empty string)."""
    lines = fold_blank_runs(lines)
    return "\n".join(lines) + "\n" if lines else ""


def shorter_or_none(result: str, original: str) -> str | None:
    """``result`` when it is really shorter than ``original``, else None (nothing to win)."""
    if len(result) < len(original.rstrip("\n")) + (1 if original.endswith("\n") else 0):
        return result
    return None
