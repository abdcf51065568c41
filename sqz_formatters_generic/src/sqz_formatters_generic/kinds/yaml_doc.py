"""YAML output (``kubectl … -o yaml``, Helm values): drop server bookkeeping and empty values.

Line-based on purpose (no YAML library on the hot path): ``managedFields`` blocks go;
the ``kubectl.kubernetes.io/last-applied-configuration`` annotation keeps its key with a
note in place of its value (its presence is what ``--save-config`` is asked for); nested
keys whose value is ``null``/``{}``/``[]``/``""`` and maps left empty by that are removed.
Top-level keys stay even when empty: ``clusters: null`` in ``kubectl config view`` is the
answer (nothing configured), not noise. A JSON Schema (a top-level ``$schema:`` key) keeps
its empty values: there ``{}`` is a schema that accepts anything (``'^x-': {}``), and
dropping it would say the opposite. Every other line is kept byte for byte, block
scalars included.
"""

from __future__ import annotations

import re
from sqz_core.api import lazy_pattern as lazy

_KEY_LINE = lazy(r"""^(\s*)(- )?("[^"]*"|'[^']*'|[^\s:#"'-][^\s:]*|-[^\s:]+):(?:\s+(.*))?$""")
_ITEM_LINE = lazy(r"^\s*-(?: .*)?$")
_DOC_LINE = lazy(r"^(?:---|\.\.\.)(?:\s.*)?$")
_EMPTY_VALUES = frozenset({"null", "~", "{}", "[]", '""', "''"})
_BLOCK_SCALAR = lazy(r"^[|>][0-9+-]*(?:\s+#.*)?$")
# Keys whose whole subtree is bookkeeping written by the API server or kubectl.
_DROP_KEYS = frozenset({"managedFields"})
# Keys kept with a note in place of a long, machine-written value.
_ELIDE_KEYS = frozenset({"kubectl.kubernetes.io/last-applied-configuration",
                         '"kubectl.kubernetes.io/last-applied-configuration"'})


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def looks_like_yaml(text: str) -> bool:
    """Mostly ``key: value``/``- item`` lines, starting with a key or ``---``, three or more keys."""
    keys = other = 0
    first = True
    block = -1
    for i, line in enumerate(text.splitlines()):
        if i >= 300:
            break
        s = line.strip()
        if not s or s.startswith("#"):
            continue
        ind = _indent(line)
        if block >= 0:
            if ind > block:
                continue
            block = -1
        m = _KEY_LINE.match(line)
        if first:
            if not (m and not m.group(2) and ind == 0) and not _DOC_LINE.match(line):
                return False
            first = False
        if m:
            keys += 1
            if m.group(4) and _BLOCK_SCALAR.match(m.group(4)):
                block = ind
        elif _ITEM_LINE.match(line) or _DOC_LINE.match(line):
            pass
        else:
            other += 1
    return keys >= 3 and other * 10 <= keys


def compress_yaml(request) -> str | None:
    lines = request.text.split("\n")
    n = len(lines)
    keep = [True] * n
    elided: dict[int, str] = {}   # line index -> replacement (key kept, value noted)
    block = -1            # indent of the key that opened a block scalar, or -1
    schema = any(line.startswith("$schema:") for line in lines)   # a JSON Schema: empties mean "anything"
    i = 0
    while i < n:
        line = lines[i]
        s = line.strip()
        ind = _indent(line)
        if block >= 0:
            if not s or ind > block:
                i += 1
                continue
            block = -1
        m = _KEY_LINE.match(line)
        if m:
            key, value = m.group(3), (m.group(4) or "").strip()
            if key in _DROP_KEYS and not m.group(2):
                j = _subtree_end(lines, i, ind)
                for k in range(i, j):
                    keep[k] = False
                i = j
                continue
            if key in _ELIDE_KEYS and not m.group(2):
                j = _subtree_end(lines, i, ind)
                size = len(value) + sum(len(lines[k].strip()) + 1 for k in range(i + 1, j))
                for k in range(i + 1, j):
                    keep[k] = False
                elided[i] = f"{line[:ind]}{key}: [sqz: value dropped, {size} chars]"
                i = j
                continue
            if value in _EMPTY_VALUES and not m.group(2) and ind > 0 and not schema:
                keep[i] = False
            elif value and _BLOCK_SCALAR.match(value):
                block = ind
        i += 1
    _drop_emptied_maps(lines, keep)
    out = "\n".join(elided.get(i, line) for i, (line, k) in enumerate(zip(lines, keep)) if k)
    return out if out != request.text else None


def _subtree_end(lines: list[str], i: int, ind: int) -> int:
    """Index after the value of the key on line ``i`` (deeper lines, or same-indent ``- `` items)."""
    j = i + 1
    while j < len(lines):
        line = lines[j]
        if line.strip():
            d = _indent(line)
            if d < ind or (d == ind and not line.lstrip().startswith("- ")):
                break
        j += 1
    while j > i + 1 and not lines[j - 1].strip():
        j -= 1
    return j


def _drop_emptied_maps(lines: list[str], keep: list[bool]) -> None:
    """A bare ``key:`` whose children were all dropped is dropped too (bottom-up, so it cascades)."""
    nxt = None    # (indent, is_item) of the next kept non-blank line below
    block_lines = _block_scalar_lines(lines)
    for i in range(len(lines) - 1, -1, -1):
        line = lines[i]
        if not keep[i] or not line.strip() or i in block_lines:
            if keep[i] and line.strip():
                nxt = (_indent(line), False)
            continue
        ind = _indent(line)
        m = _KEY_LINE.match(line)
        if m and not m.group(2) and not m.group(4):
            has_child = nxt is not None and (nxt[0] > ind or (nxt[0] == ind and nxt[1]))
            if not has_child:
                keep[i] = False
                continue
        nxt = (ind, line.lstrip().startswith("- ") or line.strip() == "-")


def _block_scalar_lines(lines: list[str]) -> set[int]:
    inside: set[int] = set()
    block = -1
    for i, line in enumerate(lines):
        if block >= 0:
            if not line.strip() or _indent(line) > block:
                inside.add(i)
                continue
            block = -1
        m = _KEY_LINE.match(line)
        if m and m.group(4) and _BLOCK_SCALAR.match(m.group(4).strip()):
            block = _indent(line)
    return inside
