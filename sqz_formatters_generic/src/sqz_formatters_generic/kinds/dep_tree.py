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
from sqz_core.api import lazy_pattern as lazy

# "├── ", "└─┬ " (npm), "|-- ", "`-- "; prefixes of "│ ", "│   ", spaces (U+00A0 too)
# (one class for the prefix: nested repeats there backtrack exponentially on a line that fails)
_TREE_LINE = lazy("^([│| \xa0]*?)((?:├|└)─[─┬┐][ \xa0]|[|`]-- )(.+)$")
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
    """Two spaces a level, leaves grouped, a repeated subtree as its label only. Iterative
    (an explicit stack), so a tree thousands of levels deep renders like a shallow one."""
    out: list[str] = []
    seen: dict[str, int] = {}
    shapes = _shapes(items)
    todo: list = [(node, 0) for node in reversed(items)]   # (node, depth) or a finished line (str,)
    while todo:
        item = todo.pop()
        if len(item) == 1:
            out.append(item[0])
            continue
        node, depth = item
        steps = _render(node, depth, out, seen, shapes)
        todo.extend(reversed(steps))
    return "\n".join(out) + "\n"


def _shapes(items: list) -> dict[int, int]:
    """``id(node)`` → a number equal for equal subtrees (label and children, all the way
    down): each subtree is numbered once, bottom-up, so the whole is linear in the tree."""
    numbers: dict[tuple, int] = {}
    shape: dict[int, int] = {}
    todo = [(node, False) for node in items]
    while todo:
        node, done = todo.pop()
        if done:
            key = (node[0], tuple(shape[id(c)] for c in node[1]))
            shape[id(node)] = numbers.setdefault(key, len(numbers))
            continue
        todo.append((node, True))
        todo.extend((c, False) for c in node[1])
    return shape


def _render(node: list, depth: int, out: list[str], seen: dict, shapes: dict) -> list:
    """Write ``node``'s own lines; return what follows it, in order: children to render
    (``(child, depth)``) and lines to write after them (``(line,)``)."""
    label, children = node
    ind = "  " * depth
    if not children:
        out.append(ind + label)
        return []
    shape = shapes[id(node)]
    if depth and seen.get(label) == shape:
        out.append(f"{ind}{label} (subtree above)")
        return []
    seen.setdefault(label, shape)
    leaves = [c[0] for c in children if not c[1] and ", " not in c[0]]
    if depth and len(leaves) == len(children) and _plain_labels(leaves + [label]):
        out.append(f"{ind}{label}: {' '.join(leaves)}")  # only leaf dependencies: one line
        return []
    out.append(ind + label)
    if leaves and _plain_labels(leaves):
        # npm's ``name@version`` leaves on one line first, then the ones with dependencies
        out.append(ind + "  " + " ".join(leaves))
        return [(child, depth + 1) for child in children if child[1] or ", " in child[0]]
    # labels with spaces (cargo's paths, its ``(*)`` = printed above): the tool's order kept
    steps: list = []
    run: list[str] = []
    for child in children:
        # npm's status before a name (``UNMET OPTIONAL DEPENDENCY x@1 || 2``) would read as the status
        # of the names joined after it: such a label stands on its own line
        alone = child[0].startswith(_STATUS_FIRST)
        if child[1] or ", " in child[0] or alone:
            if run:
                steps.append((ind + "  " + ", ".join(run),))
                run = []
            steps.append((child, depth + 1) if child[1] else (ind + "  " + child[0],))
        else:
            run.append(child[0])
    if run:
        steps.append((ind + "  " + ", ".join(run),))
    return steps


_STATUS_FIRST = ("UNMET ",)


def _plain_labels(labels: list[str]) -> bool:
    """Labels that one space can separate: one word each, npm's `` deduped`` after its label."""
    return all(" " not in label.removesuffix(" deduped") and label.strip() == label and label != "deduped"
               and "," not in label for label in labels)


_PIP_NOTICES = ("WARNING: ", "DEPRECATION: ", "ERROR: ")


def compress_pip_list(text: str) -> str | None:
    """``pip list``: the core's aligned table (the rule under the header dropped, any notice kept).
    pip's own warnings printed above the table (``WARNING: Location … is ignored``) stay as
    they are, above it."""
    from .aligned_table import compact_table_text

    lines = text.split("\n", 200)
    k = 0
    while k < min(len(lines) - 1, 200) and lines[k].startswith(_PIP_NOTICES):
        k += 1
    if k == 0:
        return compact_table_text(text)
    body = compact_table_text("\n".join(lines[k:]))
    return None if body is None else "\n".join(lines[:k]) + "\n" + body


def compress_deptree(request) -> str | None:
    if request.program in ("pip", "pip3"):
        return compress_pip_list(request.text)
    items = parse_tree(request.text)
    if items is None:
        return None
    return render_tree(items)
