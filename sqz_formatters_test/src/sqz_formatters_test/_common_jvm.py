"""Helpers shared by the Maven and Gradle formatters: argv goals and counted drops."""

from __future__ import annotations

import re


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


class DropCounter:
    """Counts dropped lines by kind for one closing ``[dropped: …]`` line."""

    __slots__ = ("counts",)

    def __init__(self) -> None:
        self.counts: dict[str, int] = {}

    def add(self, kind: str) -> None:
        self.counts[kind] = self.counts.get(kind, 0) + 1

    def summary(self) -> list[str]:
        """``["[dropped: 12 download lines, 3 plugin banners]"]``, or ``[]`` when nothing was dropped."""
        if not self.counts:
            return []
        return ["", "[dropped: " + ", ".join(f"{n} {k}" for k, n in self.counts.items()) + "]"]


_JVM_FRAME = re.compile(r"^\s+at [\w$.<>/]+\([^()]*\)\s*$")


def trace_paragraph_lines(lines: list[str]) -> set[int]:
    """Indexes of every line in a blank-line-delimited paragraph that holds a JVM stack frame.

    Such paragraphs are kept verbatim and whole (the core only accepts a summary that keeps
    them), even when they also hold lines that would otherwise be dropped.
    """
    keep: set[int] = set()
    start = 0
    n = len(lines)
    for i in range(n + 1):
        if i == n or not lines[i].strip():
            if any(_JVM_FRAME.match(lines[j]) for j in range(start, i)):
                keep.update(range(start, i))
            start = i + 1
    return keep
