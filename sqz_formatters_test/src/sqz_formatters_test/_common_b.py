"""Small helpers shared by the Rust, Go, JVM and C/C++ formatters of this pack.

Line-level work only: every formatter here keeps the tool's significant lines
verbatim and replaces known noise with one short counted line.
"""

from __future__ import annotations


def squeeze_blank_lines(lines: list[str]) -> list[str]:
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


def count_phrase(counts: dict[str, int]) -> str:
    """``{"Compiling": 3, "Finished": 1}`` → ``"Compiling ×3, Finished ×1"`` (insertion order)."""
    return ", ".join(f"{k} ×{v}" if v > 1 else k for k, v in counts.items())


def join_output(lines: list[str]) -> str:
    """The formatter's result: lines with blank runs squeezed, ending with one newline."""
    lines = squeeze_blank_lines(lines)
    return "\n".join(lines) + "\n" if lines else ""
