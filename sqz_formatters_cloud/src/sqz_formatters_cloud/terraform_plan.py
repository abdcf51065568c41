"""``terraform``/``tofu`` plan, apply and destroy: every action and change kept, chatter counted.

Kept verbatim: each ``# <address> will be …`` line, every attribute line with a
change marker (``+ - ~ -/+ +/-``), terraform's own ``# (n unchanged … hidden)``
notes, the ``Plan:`` / ``Apply complete!`` summaries, outputs and every diagnostic
box (errors, warnings). Dropped with a count: ``Refreshing state...`` lines, the
symbol legend, the ``-out`` note, ``Creating...``-style progress whose completion
line follows, and unchanged multi-line values inside a changed block.
"""

from __future__ import annotations

import re

_REFRESH = re.compile(r"^\S.*: (Refreshing state\.\.\.|Reading\.\.\.|Read complete after \S+)( \[.*\])?$")
_PROGRESS = re.compile(r"^(\S.*): (Creating|Modifying|Destroying|Still (?:creating|modifying|destroying|reading)|"
                       r"Provisioning with '[^']+')\.\.\.(?: \[.*\])?$")
_COMPLETE = re.compile(r"^(\S.*): (Creation|Modifications|Destruction) complete after \S+")
_LEGEND_START = "Terraform used the selected providers to generate the following execution"
_LEGEND_SYMBOL = re.compile(r"^\s*(\+|-|~|-/\+|\+/-|<=) \S")
_OUTRO_NOTE = "Note: You didn't use the -out option to save this plan, so Terraform can't"
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


def fold_unchanged_values(lines: list[str]) -> list[str]:
    """Collapse an unchanged multi-line list or object (no change marker inside) to one line with a count.

    Heredoc strings are left alone: they are file-like content.
    """
    out: list[str] = []
    i, n = 0, len(lines)
    while i < n:
        line = lines[i]
        m = _OPEN_VALUE.match(line)
        if m and not _MARKED.match(line):
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
        if line.startswith(_OUTRO_NOTE):
            j = i + 1
            while j < n and lines[j].strip():
                j += 1
            i = j
            continue
        if _SEPARATOR.match(line.strip()) or line == "Terraform will perform the following actions:":
            i += 1
            continue
        out.append(line)
        i += 1
    out = fold_unchanged_values(out)
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
