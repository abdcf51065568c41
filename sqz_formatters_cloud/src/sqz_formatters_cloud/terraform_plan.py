"""``terraform``/``tofu`` plan, apply and destroy: every action and change kept, chatter counted.

Kept verbatim: each ``# <address> will be …`` line, every attribute line with a
change marker (``+ - ~ -/+ +/-``), terraform's own ``# (n unchanged … hidden)``
notes, the ``Plan:`` / ``Apply complete!`` summaries, outputs and every diagnostic
box (errors, warnings). A resource block that repeats the one above it but for a few values
(``server["web-02"]`` after ``server["web-01"]``) is written as its action line and those
values. Every ``Note:`` paragraph stays (the ``-out`` note too: issue 25). Dropped with a count:
``Refreshing state...`` lines, the symbol legend, ``Creating...``-style progress whose completion
line follows, and unchanged multi-line values inside a changed block (a short list of plain values is
written on one line instead, its values kept). A list of plain values that is created whole
(or an output's, or an unchanged one) is written on one line.
"""

from __future__ import annotations

import re

_REFRESH = re.compile(r"^\S.*: (Refreshing state\.\.\.|Reading\.\.\.|Read complete after \S+)( \[.*\])?$")
_PROGRESS = re.compile(r"^(\S.*): (Creating|Modifying|Destroying|Still (?:creating|modifying|destroying|reading)|"
                       r"Provisioning with '[^']+')\.\.\.(?: \[.*\])?$")
_COMPLETE = re.compile(r"^(\S.*): (Creation|Modifications|Destruction) complete after \S+")
_LEGEND_START = "Terraform used the selected providers to generate the following execution"
_LEGEND_SYMBOL = re.compile(r"^\s*(\+|-|~|-/\+|\+/-|<=) \S")
_SEPARATOR = re.compile(r"^─{20,}$")
_RESOURCE_COMMENT = re.compile(r"^  # \S.* (will be|must be|has been|has changed|will be read)")
_MARKED = re.compile(r"^\s*(\+|-|~|-/\+|\+/-|<=)\s")
# terraform's own conclusions: a plan/apply output without one of these is cut off or not terraform's
_CONCLUSIONS = re.compile(r"^(Plan: \d+ to |No changes\. |Apply complete! |Destroy complete! |Planning failed\.|"
                          r"You can apply this plan to save these new output values)")
_BOX = ("╷", "│", "╵")
_DIAG = re.compile(r"^(Error|Warning): ")
_OPEN_VALUE = re.compile(r"^(\s+)(\S.*?) = ([\[{])$")


def is_plan_like(lines: list[str]) -> bool:
    """True when the text carries one of terraform's own plan/apply conclusions or diagnostics."""
    return any(_CONCLUSIONS.match(l) or _DIAG.match(l) or l.startswith("╷") for l in lines)


_HEREDOC_OPEN = re.compile(r" = <<-?([A-Za-z_][A-Za-z0-9_]*)$")


def heredoc_lines(lines: list[str]) -> set[int]:
    """Indices of the lines inside a heredoc string (``content = <<-EOT`` … ``EOT``): file-like
    content that must reach the reader as terraform printed it."""
    inside: set[int] = set()
    i, n = 0, len(lines)
    while i < n:
        m = _HEREDOC_OPEN.search(lines[i])
        i += 1
        if m:
            while i < n and lines[i].strip() != m.group(1):
                inside.add(i)
                i += 1
    return inside


def fold_unchanged_values(lines: list[str]) -> list[str]:
    """Collapse an unchanged multi-line list or object (no change marker inside) to one line with a count.

    Heredoc strings are left alone: they are file-like content.
    """
    out: list[str] = []
    heredoc = heredoc_lines(lines)
    i, n = 0, len(lines)
    while i < n:
        line = lines[i]
        m = _OPEN_VALUE.match(line)
        if m and not _MARKED.match(line) and i not in heredoc:
            indent = m.group(1)
            closer = "]" if m.group(3) == "[" else "}"
            j = i + 1
            while j < n and not (lines[j].lstrip(" ").startswith(closer)
                                 and len(lines[j]) - len(lines[j].lstrip(" ")) == len(indent)):
                j += 1
            body = lines[i + 1:j]
            if j < n and body and not any(_MARKED.match(b) for b in body):
                out.append(f"{line}{closer} # ({len(body)} unchanged lines hidden)")
                i = j + 1
                continue
        out.append(line)
        i += 1
    return out


_LIST_OPEN = re.compile(r"^(\s*)([+-] )?(\S+) += (tolist\(|toset\()?\[$")
_LIST_ITEM = re.compile(r'^\s*([+-] )?("(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?|true|false|null),?$')
MAX_INLINE = 200    # characters of one inlined list


def inline_scalar_lists(lines: list[str]) -> list[str]:
    """A list of plain values printed one a line (``+ tags = [`` / ``+ "a",`` / ``]``; an
    output's ``tolist([``) goes on one line: ``+ tags = ["a", "b"]``. Only when every item
    carries the list's own marker (a created list's ``+``) or none: a list whose items are
    added and removed keeps its lines."""
    out: list[str] = []
    heredoc = heredoc_lines(lines)
    i, n = 0, len(lines)
    while i < n:
        m = _LIST_OPEN.match(lines[i]) if i not in heredoc else None
        if m:
            indent, marker, call = m.group(1), m.group(2) or "", m.group(4) or ""
            closer = "])" if call else "]"
            items: list[str] = []
            j = i + 1
            while j < n:
                it = _LIST_ITEM.match(lines[j])
                if not it or (it.group(1) or "") != marker:
                    break
                items.append(it.group(2))
                j += 1
            size = sum(len(x) + 2 for x in items)
            if items and j < n and lines[j] == indent + " " * len(marker) + closer and size <= MAX_INLINE:
                out.append(f"{lines[i]}{', '.join(items)}{closer}")
                i = j + 1
                continue
        out.append(lines[i])
        i += 1
    return out


_ACTION = re.compile(r"^  # (\S.*) (will be \S.*|must be replaced)$")
_BLOCK_OPEN = re.compile(r"^  (?:\S+ )?(?:resource|data) \"[^\"]+\" \"[^\"]+\" \{$")
_BLOCK_CLOSE = "    }"
_VALUE = re.compile(r"^(\s+(?:[+~-] |-/\+ |\+/- |<= )?)(\S+?) *= (.*)$")
_LOOKS_LIKE_NEXT = re.compile(r", (?:[+~-] |-/\+ |\+/- |<= )?\S+ = ")
MAX_DIFFERENT = 4   # values that may differ for a block to be written against the one above


def _block_end(lines: list[str], start: int) -> int | None:
    """Index of the ``    }`` closing the resource block opened at ``start``; None if another action comes first."""
    for j in range(start + 1, len(lines)):
        if lines[j] == _BLOCK_CLOSE:
            return j
        if lines[j].startswith("  # ") or not lines[j].strip():
            return None
    return None


def _differences(ref: list[str], block: list[str]) -> list[str] | None:
    """``[marker] key = value`` for each line of ``block`` whose value differs from ``ref``'s, when
    the two blocks have the same lines but for at most ``MAX_DIFFERENT`` values (and a third of the
    lines), each of a key met once with its marker in the block, and none with an update marker (``~``, ``-/+``: a changed
    value stays on its own line); else None."""
    if len(ref) != len(block) or ref[0] != block[0]:
        return None
    diffs: list[str] = []
    keys: set[tuple[str, str]] = set()
    for a, b in zip(ref, block):
        ma = _VALUE.match(a)
        if ma:
            key = (ma.group(1).strip(), ma.group(2))
            if key in keys:
                return None  # a key met twice with one marker: "[marker] key = value" would be ambiguous
            keys.add(key)
        if a == b:
            continue
        mb = _VALUE.match(b)
        if not (ma and mb and ma.group(1) == mb.group(1) and ma.group(2) == mb.group(2)):
            return None
        if ma.group(1).strip() not in ("", "+", "-") or a.rstrip().endswith(("{", "[")):
            return None
        if _LOOKS_LIKE_NEXT.search(mb.group(3)):
            return None  # a value holding ", k = " would read as two values in "[as …, but …]"
        diffs.append(f"{mb.group(1).lstrip()}{mb.group(2)} = {mb.group(3)}")
        if len(diffs) > min(MAX_DIFFERENT, max(1, len(block) // 3)):
            return None
    return diffs or None


def fold_similar_blocks(lines: list[str]) -> list[str]:
    """A resource block that repeats an earlier block of the same action line for line, but for a
    few values, is written as its action line plus ``[as ADDRESS above, but k = v, …]``.

    Each block is compared with the first block of its run only, so the values written out are
    always against a block printed in full (linear: every line is compared once).
    """
    out: list[str] = []
    ref: tuple[str, str, list[str]] | None = None   # (address, action, block lines)
    i, n = 0, len(lines)
    while i < n:
        m = _ACTION.match(lines[i])
        if m and i + 1 < n and _BLOCK_OPEN.match(lines[i + 1]):
            end = _block_end(lines, i + 1)
            if end is not None:
                block = lines[i + 1:end + 1]
                diffs = _differences(ref[2], block) if ref and ref[1] == m.group(2) else None
                if diffs is not None:
                    out.append(lines[i])
                    out.append(f"    [as {ref[0]} above, but {', '.join(diffs)}]")
                else:
                    ref = (m.group(1), m.group(2), block)
                    out.extend(lines[i:end + 1])
                i = end + 1
                continue
        out.append(lines[i])
        i += 1
    return out


def format_plan(text: str) -> str | None:
    """Compact plan/apply/destroy output; None when it is not terraform's."""
    lines = text.split("\n")
    if not is_plan_like(lines):
        return None
    completed = {m.group(1) for m in map(_COMPLETE.match, lines) if m}
    out: list[str] = []
    refreshed = progress = 0
    in_box = False
    verbatim_rest = False
    i, n = 0, len(lines)
    while i < n:
        line = lines[i]
        if verbatim_rest:
            out.append(line)
            i += 1
            continue
        if line.startswith(_BOX):
            in_box = not line.startswith("╵")
            out.append(line)
            i += 1
            continue
        if in_box:
            out.append(line)
            i += 1
            continue
        if _DIAG.match(line):
            verbatim_rest = True  # -no-color diagnostics: keep them and everything after whole
            out.append(line)
            i += 1
            continue
        if _REFRESH.match(line):
            refreshed += 1
            i += 1
            continue
        m = _PROGRESS.match(line)
        if m and m.group(1) in completed:
            progress += 1
            i += 1
            continue
        if line == _LEGEND_START:
            j = i + 1
            if j < n and line_is_legend_second(lines[j]):
                j += 1
                while j < n and _LEGEND_SYMBOL.match(lines[j]):
                    j += 1
                i = j
                continue
        if _SEPARATOR.match(line.strip()) or line == "Terraform will perform the following actions:":
            i += 1
            continue
        out.append(line)
        i += 1
    # a short unchanged list is written on one line (its values kept), before longer or nested
    # unchanged values are folded to a count
    out = fold_similar_blocks(fold_unchanged_values(inline_scalar_lists(out)))
    notes = []
    if refreshed:
        notes.append(f"[{refreshed} 'Refreshing state...' lines dropped]")
    if progress:
        notes.append(f"[{progress} progress lines dropped; their completion lines are kept]")
    body = fold_blank_lines(out)
    return "\n".join(notes + body).rstrip("\n") + "\n"


def line_is_legend_second(line: str) -> bool:
    return line.startswith("plan. Resource actions are indicated with the following symbols:")


def fold_blank_lines(lines: list[str]) -> list[str]:
    """Runs of blank lines become one; leading blank lines go."""
    out: list[str] = []
    for line in lines:
        if not line.strip() and (not out or not out[-1].strip()):
            continue
        out.append(line)
    return out
