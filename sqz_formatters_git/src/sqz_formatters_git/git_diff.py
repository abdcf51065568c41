"""``git diff`` / ``git show`` patches: every +/- line and hunk header kept, headers shortened.

The output is still a unified diff (``diff --git``, ``--- a/x`` / ``+++ b/x`` then hunks), so a
reader can reason about it line by line. Runs of unchanged context are folded to a count, keeping
only the line above a change that opens its block (a fold must hide more text than its marker
costs, see ``_fold_context``). The ``index`` lines are dropped, and so is the ``--- /dev/null``
(``+++ /dev/null``) line of a file whose ``new file mode`` (``deleted file mode``) line says so.
Every file's ``diff --git`` line stays (the line agents and people search a patch for, issue 25),
and so do mode, rename, copy, similarity, new/deleted-file and binary lines, verbatim.
"""

from __future__ import annotations

import re

from ._common import LISTINGS, args_after, compact_listing, compact_stat_block, option_names

_HUNK = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@(?: .*)?$")
_COMBINED_HUNK = re.compile(r"^(@{3,}) (?:-\d+(?:,\d+)? )+\+\d+(?:,\d+)? \1(?: .*)?$")
_DIFF_GIT = re.compile(r"^diff --git (\S.*)$")
_DIFF_CC = re.compile(r"^diff --(?:cc|combined) (\S.*)$")
_EXTENDED = re.compile(
    r"^(?:old mode \d{6}|new mode \d{6}|deleted file mode \d{6}|new file mode \d{6}|copy from .+|copy to .+|"
    r"rename from .+|rename to .+|similarity index \d+%|dissimilarity index \d+%|"
    r"index [0-9a-f]+(?:,[0-9a-f]+)*\.\.[0-9a-f]+(?: \d{6})?|mode \d{6}(?:,\d{6})*\.\.\d{6}|"
    r"new file mode \d{6}|deleted file mode \d{6}(?:,\d{6})*|Binary files .+ differ)$")
_INDEX = re.compile(r"^index [0-9a-f]+(?:,[0-9a-f]+)*\.\.[0-9a-f]+(?: \d{6})?$")
_NO_NEWLINE = "\\ No newline at end of file"

MIN_FOLDED = 1           # a fold hides at least this many lines ...
MIN_FOLDED_CHARS = 30    # ... and at least this much text (a marker costs about 4 tokens: 30 characters leave a clear saving)


def _marker(n: int) -> str:
    return f"[{n} unchanged]"  # inside a hunk, where every line starts with ' ', '+', '-' or '\\'


def _indent(line: str, width: int) -> int:
    code = line[width:]
    return len(code) - len(code.lstrip(" \t"))


def _opener(run: list[str], change: str, width: int) -> list[str]:
    """The last line of a context ``run`` when it opens the block of the ``change`` after it (a
    non-blank line less indented than the changed line), else nothing."""
    last = run[-1]
    if last[width:].strip() and change[width:].strip() and _indent(last, width) < _indent(change, width):
        return [last]
    return []


def _fold_context(body: list[str], width: int) -> list[str]:
    """Fold runs of context lines in one hunk body; +/- lines are never touched.

    A run becomes ``[N unchanged]`` when that hides at least ``MIN_FOLDED`` lines and
    ``MIN_FOLDED_CHARS`` characters; the one context line kept is the line just above a change
    that opens the block it is in (less indented than the changed line: ``def f2(x):`` above
    ``-    return x + 2``), which says where the change is as the hunk header's function name
    does for the hunk's start (issue 25: a big patch had to lose its context to pay for its
    recovery line). The hunk header's line numbers still place every kept line.
    """
    def is_context(line: str) -> bool:
        return line == "" or (line[:width].strip() == "" and len(line) >= width)

    out: list[str] = []
    i, n = 0, len(body)
    while i < n:
        if not is_context(body[i]):
            out.append(body[i])
            i += 1
            continue
        j = i
        while j < n and is_context(body[j]):
            j += 1
        run = body[i:j]
        at_start, at_end = i == 0, j == n
        if at_start and at_end:
            head, tail = run, []  # no change in this hunk (combined diffs): nothing to anchor to
        else:
            head = []
            tail = [] if at_end else _opener(run, body[j], width)
        folded = run[len(head):len(run) - len(tail)]
        if len(folded) >= MIN_FOLDED and sum(len(x) for x in folded) >= MIN_FOLDED_CHARS:
            out.extend(head)
            out.append(_marker(len(folded)))
            out.extend(tail)
        else:
            out.extend(run)
        i = j
    return out


def _read_hunk(lines: list[str], i: int) -> tuple[list[str], int] | None:
    """The body of the hunk whose header is ``lines[i]`` and the index after it, or None."""
    head = lines[i]
    m = _HUNK.match(head)
    if m:
        old = int(m.group(2)) if m.group(2) is not None else 1
        new = int(m.group(4)) if m.group(4) is not None else 1
        body: list[str] = []
        i += 1
        while (old > 0 or new > 0) and i < len(lines):
            line = lines[i]
            c = line[:1]
            if line == "" or c == " ":
                old -= 1
                new -= 1
            elif c == "-":
                old -= 1
            elif c == "+":
                new -= 1
            elif line == _NO_NEWLINE:
                pass
            else:
                return None
            body.append(line)
            i += 1
        if old != 0 or new != 0:
            return None  # truncated or miscounted: not a patch we can vouch for
        while i < len(lines) and lines[i] == _NO_NEWLINE:
            body.append(lines[i])
            i += 1
        return body, i
    m = _COMBINED_HUNK.match(head)
    if m:
        width = len(m.group(1)) - 1
        body = []
        i += 1
        while i < len(lines):
            line = lines[i]
            if line == _NO_NEWLINE or line == "" or (len(line) >= width and set(line[:width]) <= {" ", "+", "-"}):
                if line.startswith("diff "):
                    break
                body.append(line)
                i += 1
            else:
                break
        return body, i
    return None


def format_patch_lines(lines: list[str]) -> list[str] | None:
    """A whole patch (one or more files) compacted; None if any line is not part of a git patch."""
    out: list[str] = []
    i, n = 0, len(lines)
    if n == 0:
        return None
    while i < n:
        line = lines[i]
        m = _DIFF_GIT.match(line) or _DIFF_CC.match(line)
        if not m:
            return None
        header = [line]
        i += 1
        while i < n and _EXTENDED.match(lines[i]):
            header.append(lines[i])
            i += 1
        files: list[str] = []
        if i + 1 < n and lines[i].startswith("--- ") and lines[i + 1].startswith("+++ "):
            files = [lines[i], lines[i + 1]]
            i += 2
        extended = [h for h in header[1:] if not _INDEX.match(h)]
        out.append(header[0])
        out.extend(extended)
        # `new file mode` / `deleted file mode` already say that side is /dev/null
        if files[:1] == ["--- /dev/null"] and any(h.startswith("new file mode ") for h in extended):
            files = files[1:]
        elif files[1:] == ["+++ /dev/null"] and any(h.startswith("deleted file mode ") for h in extended):
            files = files[:1]
        # a combined diff keeps its `--- a/P`/`+++ b/P` pair even where it repeats `diff --cc P`:
        # the pipeline knows a diff by it (sqz_core.cleanup.looks_like_diff) and leaves its
        # whitespace alone; without it the blank context lines would be folded
        out.extend(files)
        if files and (i >= n or not lines[i].startswith("@@")):
            return None
        while i < n and lines[i].startswith("@@"):
            hunk_header = lines[i]
            read = _read_hunk(lines, i)
            if read is None:
                return None
            body, i = read
            out.append(hunk_header)
            cm = _COMBINED_HUNK.match(hunk_header)
            out.extend(_fold_context(body, len(cm.group(1)) - 1 if cm else 1))
    return out


def format_diff(request) -> str | None:
    """``git diff`` in patch, ``--stat`` or file-listing (``--name-status``, ``--name-only``,
    ``--numstat``) form."""
    lines = request.text.splitlines()
    if not lines:
        return None
    options = option_names(args_after(request, "diff"))
    listing = [a for a in LISTINGS if a in options]
    if listing:
        if len(listing) > 1 or any(a in options for a in ("-p", "-u", "--patch", "--stat", "--shortstat",
                                                          "--summary", "--raw", "-z", "--dirstat")):
            return None
        out = compact_listing(lines, listing[0])
    elif lines[0].startswith("diff "):
        out = format_patch_lines(lines)
    else:
        out = _stat_then_patch(lines)
    return "\n".join(out) + "\n" if out is not None else None


def _stat_then_patch(lines: list[str]) -> list[str] | None:
    """A ``--stat`` block alone, or (``--stat -p``, ``--patch-with-stat``) followed by one blank
    line and the patch: each part compacted as on its own, the blank line kept between them."""
    if "" not in lines:
        return compact_stat_block(lines)
    k = lines.index("")
    if k + 1 >= len(lines) or not lines[k + 1].startswith("diff "):
        return None
    stat = compact_stat_block(lines[:k])
    patch = format_patch_lines(lines[k + 1:]) if stat is not None else None
    return None if patch is None else stat + [""] + patch


def format_stash(request) -> str | None:
    """``git stash show`` (a diffstat) and ``git stash show -p`` (a patch), as ``git diff``;
    any other stash verb (``list`` is one line per entry already) → None."""
    args = args_after(request, "stash")
    if args[:1] != ["show"]:
        return None
    options = option_names(args[1:])
    if any(a not in ("-p", "--patch", "--stat") for a in options) or len(set(options)) > 1:
        return None
    lines = request.text.splitlines()
    if not lines:
        return None
    out = format_patch_lines(lines) if lines[0].startswith("diff ") else compact_stat_block(lines)
    return "\n".join(out) + "\n" if out is not None else None
