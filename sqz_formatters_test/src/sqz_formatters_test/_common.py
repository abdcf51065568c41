"""Helpers shared by every formatter of this pack (stdlib only: imported on the hot path).

Line-level work only: the formatters keep the tool's significant lines verbatim and
replace known noise with a short counted line.
"""

from __future__ import annotations

# ---------------------------------------------------------------- result lines


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


def join_output(lines: list[str]) -> str:
    """The formatter's result: lines with blank runs squeezed, ending with one newline (empty input gives "")."""
    lines = squeeze_blank_lines(lines)
    return "\n".join(lines) + "\n" if lines else ""


def shorter_or_none(result: str, original: str) -> str | None:
    """``result`` when it is really shorter than ``original``, else None (nothing to win)."""
    if len(result) < len(original.rstrip("\n")) + (1 if original.endswith("\n") else 0):
        return result
    return None


# ---------------------------------------------------------------- counted drops


def plural(n: int, word: str, many: str | None = None) -> str:
    """``1 line`` / ``3 lines`` (``many`` for irregular plurals)."""
    return f"{n} {word}" if n == 1 else f"{n} {many or word + 's'}"


def count_phrase(counts: dict[str, int]) -> str:
    """``{"Compiling": 3, "Finished": 1}`` → ``"Compiling ×3, Finished ×1"`` (insertion order)."""
    return ", ".join(f"{k} ×{v}" if v > 1 else k for k, v in counts.items())


class DropCounter:
    """Counts dropped lines by kind for one closing ``[dropped: …]`` line."""

    __slots__ = ("counts",)

    def __init__(self) -> None:
        self.counts: dict[str, int] = {}

    def add(self, kind: str) -> None:
        self.counts[kind] = self.counts.get(kind, 0) + 1

    def summary(self) -> list[str]:
        """``["", "[dropped: 12 download lines, 3 plugin banners]"]``, or ``[]`` when nothing was dropped."""
        if not self.counts:
            return []
        return ["", "[dropped: " + ", ".join(f"{n} {k}" for k, n in self.counts.items()) + "]"]


# ---------------------------------------------------------------- command lines


def has_option(argv: tuple[str, ...], names, prefixes: tuple[str, ...] = ()) -> bool:
    """True when a word after the program is one of ``names`` or starts with one of ``prefixes``."""
    return any(word in names or word.startswith(prefixes) for word in argv[1:])


def words_after_options(argv: tuple[str, ...], value_options: frozenset) -> list[str]:
    """The non-option words after the program (goals, phases, task names).

    An option listed in ``value_options`` consumes the next word unless written ``--opt=value``.
    """
    words: list[str] = []
    skip = False
    for word in argv[1:]:
        if skip:
            skip = False
            continue
        if word.startswith("-"):
            skip = word in value_options
            continue
        words.append(word)
    return words
