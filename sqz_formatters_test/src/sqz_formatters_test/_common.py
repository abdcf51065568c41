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


# ---------------------------------------------------------------- lines equal but for a few words

FOLD_MIN = 3        # fewer lines of one shape stay as they are
FOLD_VARY = 6       # at most this many word positions may differ across a folded run
FOLD_TRIES = 8      # runs of a shape a line is tried against (the latest first): linear work


def fold_similar(lines: list[str], min_run: int = FOLD_MIN, max_vary: int = FOLD_VARY) -> list[str]:
    """Lines equal but for a few words (a compiler run per source file, ``gcc -O2 -c a.c -o a.o``;
    ``Compiling NAME vX.Y.Z``) as one template line, each differing word a ``*``, then every line's
    words for the stars on one line, ``;`` between lines: ``gcc -O2 -c * -o * [×40, per line:]`` /
    ``a.c a.o; b.c b.o; …``. A position that holds the same word as an earlier star on every line
    (``-MT x.o … -o x.o``) is numbered after it (``*1 … *1``) and its word is not repeated. Every
    line can be rebuilt word for word from the two (blanks aside), and every word of every line is
    still on the page. A run needs ``min_run`` lines with the same word count and first word that
    differ in at most ``max_vary`` places (at most half of a line's words when it has more than 4);
    other lines stay as they are, where they were; a run is written at its first line's place."""
    runs: list[list] = []                        # [template words, varying positions, [(words, line)]]
    by_shape: dict[tuple[int, str], list[int]] = {}
    order: list[object] = []                     # a run's index or a line
    for line in lines:
        words = line.split()
        if len(words) < 2 or any("*" in w or ";" in w for w in words):
            order.append(line)
            continue
        shape = (len(words), words[0])
        placed = False
        for k in reversed(by_shape.get(shape, [])[-FOLD_TRIES:]):
            template, vary, members = runs[k]
            diff = vary | {i for i, (a, b) in enumerate(zip(template, words)) if a != b}
            if len(diff) <= max_vary and 2 * len(diff) <= max(len(words), 4) and 0 not in diff:
                runs[k][1] = diff
                members.append((words, line))
                placed = True
                break
        if not placed:
            by_shape.setdefault(shape, []).append(len(runs))
            order.append(len(runs))
            runs.append([words, set(), [(words, line)]])
    out: list[str] = []
    for item in order:
        if isinstance(item, str):
            out.append(item)
        else:
            out.extend(_render_run(*runs[item], min_run))
    return out


def _render_run(template: list[str], vary: set, members: list, min_run: int) -> list[str]:
    if len(members) < min_run:
        return [line for _, line in members]
    if not vary:
        return [f"{members[0][1]} [×{len(members)}]"]
    at = sorted(vary)
    same = {j: i for n, i in enumerate(at) for j in at[n + 1:]
            if all(words[i] == words[j] for words, _ in members)}     # j always repeats i's word
    own = [i for i in at if i not in same]
    label = {i: f"*{n + 1}" for n, i in enumerate(own)} if same else {i: "*" for i in own}
    shown = [label[same.get(i, i)] if i in vary else w for i, w in enumerate(template)]
    return [" ".join(shown) + f" [×{len(members)}, per line:]",
            "; ".join(" ".join(words[i] for i in own) for words, _ in members)]


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
