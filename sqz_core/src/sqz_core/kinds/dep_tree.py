"""Dependency trees (``npm ls``, ``cargo tree``, ``pipdeptree``) and ``pip list``.

Trees lose their box-drawing indentation (two spaces a level), the leaf dependencies of one
parent share a line (npm's: space-separated, before the ones with dependencies of their own), and
a subtree printed in full earlier is written once more only as its label with
``(subtree above)``; an npm dependency whose own are all leaves is one line
(``name@1.0.0: a@1 b@2``). Lines that are not tree lines (warnings, ``npm error``) are kept
verbatim. ``pip list`` is an aligned table without its dashed rule.
"""

from __future__ import annotations

import re
from ..lazyre import lazy

# "├── ", "└─┬ " (npm), "|-- ", "`-- "; prefixes of "│ ", "│   ", spaces (U+00A0 too)
_TREE_LINE = lazy("^((?:[│|][ \xa0]*|[ \xa0])*?)((?:├|└)─[─┬┐][ \xa0]|[|`]-- )(.+)$")
_PIPDEPTREE_OLD = lazy(r"^( +)- (.+)$")


def parse_tree(text: str):
    """Roots as ``[label, children]`` nodes plus verbatim lines ``(text,)``, in order; None if no tree."""
    items: list = []
    stack: list[tuple[int, list]] = []    # (column, node)
    edges = 0
    for line in text.split("\n"):
        if not line.strip():
            continue
        m = _TREE_LINE.match(line)
        col = label = None
        if m:
            col, label = len(m.group(1)) + 1, m.group(3)
        else:
            m2 = _PIPDEPTREE_OLD.match(line)
            if m2 and stack:
                col, label = len(m2.group(1)), m2.group(2)
        if col is not None:
            while stack and stack[-1][0] >= col:
                stack.pop()
            if not stack:
                return None
            node = [label, []]
            stack[-1][1][1].append(node)
            stack.append((col, node))
            edges += 1
        elif line[0] in " \xa0│|":
            return None
        else:
            node = [line, []]
            items.append(node)
            stack = [(0, node)]
    if edges < 2:
        return None
    return items


def render_tree(items: list) -> str:
    out: list[str] = []
    seen: dict[str, tuple] = {}
    for node in items:
        _render(node, 0, out, seen)
    return "\n".join(out) + "\n"


def _shape(node: list) -> tuple:
    return (node[0], tuple(_shape(c) for c in node[1]))


def _render(node: list, depth: int, out: list[str], seen: dict) -> None:
    label, children = node
    ind = "  " * depth
    if not children:
        out.append(ind + label)
        return
    shape = _shape(node)
    if depth and seen.get(label) == shape:
        out.append(f"{ind}{label} (subtree above)")
        return
    seen.setdefault(label, shape)
    leaves = [c[0] for c in children if not c[1] and ", " not in c[0]]
    if depth and len(leaves) == len(children) and _plain_labels(leaves + [label]):
        out.append(f"{ind}{label}: {' '.join(leaves)}")  # only leaf dependencies: one line
        return
    out.append(ind + label)
    if leaves and _plain_labels(leaves):
        # npm's ``name@version`` leaves on one line first, then the ones with dependencies
        out.append(ind + "  " + " ".join(leaves))
        for child in children:
            if child[1] or ", " in child[0]:
                _render(child, depth + 1, out, seen)
        return
    # labels with spaces (cargo's paths, its ``(*)`` = printed above): the tool's order kept
    run: list[str] = []

    def flush() -> None:
        if run:
            out.append(ind + "  " + ", ".join(run))
            run.clear()

    for child in children:
        if child[1] or ", " in child[0]:
            flush()
            _render(child, depth + 1, out, seen)
        else:
            run.append(child[0])
    flush()


def _plain_labels(labels: list[str]) -> bool:
    """Labels that one space can separate: one word each, npm's `` deduped`` after its label."""
    return all(" " not in label.removesuffix(" deduped") and label.strip() == label and label != "deduped"
               and "," not in label for label in labels)


def compress_pip_list(text: str) -> str | None:
    """``pip list``: the core's aligned table (the rule under the header dropped, any notice kept)."""
    from .aligned_table import compact_table_text

    return compact_table_text(text)


def compress_deptree(request) -> str | None:
    if request.program in ("pip", "pip3"):
        return compress_pip_list(request.text)
    items = parse_tree(request.text)
    if items is None:
        return None
    return render_tree(items)
