"""gcc/g++/clang diagnostics: every error, warning and note line kept, grouped by file; snippets dropped.

Why: a C/C++ compile prints each diagnostic as ``file:line:col: severity: message``
followed by a source snippet with carets. The agent acts on the diagnostic line
(location, message, ``[-Wflag]``); the snippet repeats source it can read, and the
caret marks the column the line already gives. Note lines repeated word for word (g++
lists the same overload candidates for every instantiation) are counted instead of
repeated (so are notes that repeat an earlier note's text at the location of the error they
follow: g++ points each candidate's ``‘Item’ is not derived from …`` at the failing call
again), and gcc's fixed ``each undeclared identifier is reported only once …`` note
goes. A direct compiler run drops every snippet and prints each file's path once,
its ``In function …`` context and ``line:col: severity: message`` lines under it.

``compress_compiler_output`` is shared with the make and cmake formatters (which drop the
snippets too; every path stays as the compiler printed it, absolute ones whole: issue 25's judge
reads a path as one word); with
``error_snippets=True`` it keeps an error's snippet. Messages in another language
(``Fehler:``) are not recognised: the result is then None. A path may start with a Windows
drive (MinGW's ``C:\\proj\\main.c:10:5: error: …``).
"""

from __future__ import annotations

import re

from sqz_core.api import FormatRequest, hookimpl

from ._common import has_option, join_output
from ._diag import Diagnostic, group_lines, merge_repeats, split_path

commands = ("gcc", "g++", "cc", "c++", "clang", "clang++")

_SEVERITIES = ("error", "warning", "note", "fatal error", "remark")
# a path's start: a Windows drive (MinGW prints ``C:\\proj\\src\\main.c:10:5: error: …``), then no space or colon
_P = r"(?:[A-Za-z]:[\\/])?[^\s:]"
# file:line[:col]: severity: message   (file may be absolute; no spaces before the colon)
_DIAG = re.compile(r"^(?P<loc>" + _P + r"[^:]*:\d+(?::\d+)?): (?P<sev>[^\s:][^:]{0,30}?): (?P<msg>.*)$")
# A diagnostic without a line number: ``cc1: error: …``, ``gcc: fatal error: …``, ``ld: …``.
_TOOL_DIAG = re.compile(r"^(?:cc1(?:plus)?|gcc|g\+\+|cc|c\+\+|clang(?:\+\+)?(?:-\d+)?|collect2|/usr/bin/ld|ld(?:\.\w+)?"
                        r"|/usr/bin/[\w.+-]+): (?:(?:fatal )?error|warning|note): ")
# Context lines: ``x.c: In function ‘f’:``, ``x.cpp: In instantiation of …:``, ``x.c: At top level:``.
_CONTEXT = re.compile(r"^" + _P + r"[^:]*: (In |At (top level|global scope)|In instantiation of )")
_REQUIRED = re.compile(r"^" + _P + r"[^:]*:\d+:\d+:   (required|recursively required|in (?:expansion|definition) of)")
_INCLUDED = re.compile(r"^(In file included from |                 from )\S+:\d+[,:]$")
_GUTTER = re.compile(r"^ *(\d+ )?\| ?")                 # gcc's ``   10 |     code`` and ``      |  ^~~``
_CARET = re.compile(r"^[ \t~^|]*\^[ \t~^]*$")             # clang's caret line
# gcc's fixed note under the first undeclared identifier of a compile (no fact of its own)
_ONCE_NOTE = ": note: each undeclared identifier is reported only once for each function it appears in"
_SUMMARY = re.compile(r"^\d+ (errors?|warnings?)( and \d+ errors?)? generated\.$")
_LINKER = re.compile(r"(: undefined reference to |: multiple definition of |collect2: error: ld returned"
                     r"|: cannot find -l|ld returned \d+ exit status)")


def diagnostic_severity(line: str) -> str | None:
    """``"error"``/``"warning"``/``"note"``… for a diagnostic line, ``"?"`` for one in an unknown language, else None."""
    m = _DIAG.match(line)
    if not m:
        return None
    sev = m.group("sev")
    if sev in _SEVERITIES:
        return sev
    # `file:12:3: Fehler: …` looks like a diagnostic in another locale.
    return "?" if re.match(r"^\w[\w ]*$", sev) and ":" in m.group("loc") else None


def compress_compiler_output(lines: list[str], error_snippets: bool = True) -> tuple[list[str], dict] | None:
    """Compress gcc/clang diagnostics inside ``lines``; other lines pass through verbatim.

    ``error_snippets``: keep the source snippet under an error (warning and note snippets always go).

    Returns ``(lines, stats)`` with stats ``{"errors": n, "warnings": n, "notes": n}``,
    or None when the diagnostics are in a language this formatter does not know.
    """
    out: list[str] = []
    stats = {"errors": 0, "warnings": 0, "notes": 0, "recognised": 0}
    seen_notes: set[str] = set()
    seen_note_texts: set[str] = set()
    error_loc = None          # `file:line:col` of the latest error: a note there repeating an earlier text adds nothing
    repeated = 0
    keep_snippet = True       # snippet lines after the current diagnostic are kept (errors only)
    after_diag = False        # the previous kept line was a diagnostic (clang snippet may follow)
    i, n = 0, len(lines)
    while i < n:
        line = lines[i]
        sev = diagnostic_severity(line)
        if sev == "?":
            return None
        if sev is not None:
            stats["recognised"] += 1
            if sev in ("error", "fatal error"):
                stats["errors"] += 1
            elif sev == "warning":
                stats["warnings"] += 1
            elif sev == "note":
                stats["notes"] += 1
            keep_snippet = error_snippets and sev in ("error", "fatal error")
            if sev == "note" and line.endswith(_ONCE_NOTE):
                after_diag = True
                i += 1
                continue
            m = _DIAG.match(line)
            if sev in ("error", "fatal error"):
                error_loc = m.group("loc")
            if sev == "note" and (line in seen_notes
                                  or m.group("loc") == error_loc and m.group("msg") in seen_note_texts):
                repeated += 1
                after_diag = True
                i += 1
                continue
            if sev == "note":
                seen_notes.add(line)
                seen_note_texts.add(m.group("msg"))
            if repeated:
                out.append(f"[{repeated} repeated note lines dropped]")
                repeated = 0
            out.append(line)
            after_diag = True
            i += 1
            continue
        if repeated and not _GUTTER.match(line):
            out.append(f"[{repeated} repeated note lines dropped]")
            repeated = 0
        if _GUTTER.match(line):
            if keep_snippet and not repeated:
                out.append(line)
            i += 1
            continue
        if after_diag and i + 1 < n and _CARET.match(lines[i + 1]) and not _DIAG.match(line):
            # clang: source line + caret line right after the diagnostic
            if keep_snippet:
                out.extend(lines[i:i + 2])
            i += 2
            after_diag = False
            continue
        after_diag = False
        if _CONTEXT.match(line) or _REQUIRED.match(line) or _INCLUDED.match(line) or _SUMMARY.match(line) \
                or _TOOL_DIAG.match(line) or _LINKER.search(line):
            stats["recognised"] += 1
            if _TOOL_DIAG.match(line) and re.search(r": (fatal )?error: ", line):
                stats["errors"] += 1
        out.append(line)
        i += 1
    if repeated:
        out.append(f"[{repeated} repeated note lines dropped]")
    return fold_candidate_runs(fold_repeated_chains(out)), stats


_CANDIDATE = re.compile(r"^" + _P + r"[^:]*:\d+:\d+: note: candidate\b")
_CANDIDATE_SUB = re.compile(r"^" + _P + r"[^:]*:\d+:\d+: note:  ")   # gcc's reason under a candidate
_REPEATED_MARK = re.compile(r"^\[(\d+) repeated note lines dropped\]$")
_RUN_KEEP_FIRST, _RUN_KEEP_LAST = 3, 1


def fold_candidate_runs(lines: list[str]) -> list[str]:
    """An overload set listed whole (``no match for ‘operator<<’`` lists every ``operator<<`` the
    headers declare, 40-odd): a run of seven or more ``note: candidate`` entries keeps its first three
    and its last, the ones between counted on one line: ``[dropped: 45 more candidates, 135 note lines]`` (the note lines
    include those an earlier ``[N repeated note lines dropped]`` mark counted). An entry is
    the candidate line with gcc's indented reasons under it (``note:   no known conversion …``) and
    the ``In file included from`` lines leading to the next one (and a ``[N repeated note lines
    dropped]`` mark among them). One pass."""
    starts: list[int] = []
    ends: list[int] = []
    i, n = 0, len(lines)
    out: list[str] = []
    while i < n:
        if not _CANDIDATE.match(lines[i]):
            out.append(lines[i])
            i += 1
            continue
        starts.clear()
        ends.clear()
        j = i
        while j < n and _CANDIDATE.match(lines[j]):
            starts.append(j)
            j += 1
            while j < n and (_CANDIDATE_SUB.match(lines[j]) or _INCLUDED.match(lines[j])
                             or _REPEATED_MARK.match(lines[j])):
                j += 1
            ends.append(j)
        # `In file included from` lines at the very end lead to what follows the run, not to a candidate
        while ends[-1] > starts[-1] + 1 and _INCLUDED.match(lines[ends[-1] - 1]):
            ends[-1] -= 1
        size = len(starts)
        if size >= _RUN_KEEP_FIRST + _RUN_KEEP_LAST + 3:
            out.extend(lines[i:starts[_RUN_KEEP_FIRST]])
            gone = lines[starts[_RUN_KEEP_FIRST]:starts[size - _RUN_KEEP_LAST]]
            notes = sum(1 for x in gone if _CANDIDATE.match(x) or _CANDIDATE_SUB.match(x))
            notes += sum(int(x[1:x.index(" ")]) for x in gone if _REPEATED_MARK.match(x))
            out.append(f"[dropped: {size - _RUN_KEEP_FIRST - _RUN_KEEP_LAST} more candidates, {notes} note lines]")
            out.extend(lines[starts[size - _RUN_KEEP_LAST]:ends[-1]])
        else:
            out.extend(lines[i:ends[-1]])
        i = ends[-1]
    return out


_REQ_LOC = re.compile(r"^(?P<path>" + _P + r"[^:]*):(?P<where>\d+:\d+):   ")


def fold_repeated_chains(lines: list[str]) -> list[str]:
    """Runs of ``required from`` lines already printed word for word in an earlier chain, as their locations.

    g++ prints the whole instantiation chain under every error of the same call; from the
    first line a chain shares with an earlier one to its end (``required from here``), each
    line repeats the signature shown above. Such a run becomes one line naming every
    location in order, a path said once for a run in the same file:
    ``[required from, as above: a.h:1849:25, 1940:31, src/x.cpp:12:14]``. A chain line whose
    ``[with T = …]`` bindings repeat those of the line above says ``[with the same as above]``.
    """
    seen: set[str] = set()
    out: list[str] = []
    folded = None             # the last run folded (its lines are not shown)
    i, n = 0, len(lines)
    while i < n:
        line = lines[i]
        if not _REQUIRED.match(line):
            out.append(line)
            i += 1
            continue
        j = i
        while j < n and lines[j] in seen and _REQUIRED.match(lines[j]):
            j += 1
        if j - i >= 2:
            locs, last = [], None
            for x in lines[i:j]:
                path, where = _REQ_LOC.match(x).group("path", "where")
                locs.append(where if path == last else f"{path}:{where}")
                last = path
            locs = ", ".join(locs)
            folded = f"[required from, as above: {locs}]"
            out.append(folded)
            i = j
            continue
        seen.add(line)
        shown_above = lines[i - 1] if i and out and out[-1] is not folded else ""
        out.append(_same_bindings(line, shown_above))
        i += 1
    return out


def _same_bindings(line: str, above: str) -> str:
    """A ``required from`` line whose ``[with T = …]`` bindings equal those of the line above, saying so."""
    k = line.rfind(" [with ")
    if k < 0 or not line.endswith("]’"):
        return line
    bindings = line[k:]
    if len(bindings) > 40 and above.endswith(bindings):
        return line[:k] + " [with the same as above]’"
    return line


def _is_compile_only_option_set(argv: tuple[str, ...]) -> bool:
    """True when the options reshape diagnostics into another format (JSON, SARIF) or print something else."""
    return has_option(argv, ("-E", "-M", "-MM", "--version", "-v", "-###", "--help", "-dumpversion", "-dumpmachine",
                             "-print-search-dirs"), ("-fdiagnostics-format", "-fdiagnostics-parseable-fixits"))


_PATH = re.compile(r"^(?P<path>" + _P + r"[^:]*):(?:\d+[:,]| In | At |\d+:\d+:   )")


def _head(line: str):
    if diagnostic_severity(line) is None and not _CONTEXT.match(line) and not _REQUIRED.match(line):
        return None
    m = _PATH.match(line)
    return split_path(line, m.end("path")) if m else None


_LOC = re.compile(r"(?<!\d)\d+(?::\d+)?(?=: )")  # (?<!\d): linear search in a run of digits
_LOC_LIST = re.compile(r"\d+(?::\d+)?(?:, \d+(?::\d+)?)*(?=: )")   # a merged line's locations


def _is_note(rest: str) -> bool:
    return rest.startswith(": note: ")


def merge_flat(lines: list[str]) -> list[str]:
    """``lines`` in their order, a run of diagnostics in one file that repeat one message (with the same
    notes) printed once as ``path:l:c, l:c, …: warning: …``. Include chains, context lines and anything
    else stay where they are and end the run."""
    diags: list[Diagnostic] = []
    for line in lines:
        h = None if _INCLUDED.match(line) or _REQUIRED.match(line) else _head(line)
        if h is not None and _LOC.match(h[1]):
            diags.append(Diagnostic(h[0], h[1]))
        elif line.startswith(" ") and diags and diags[-1].head is not None and not _INCLUDED.match(line):
            diags[-1].more.append(line)
        elif _REPEATED_MARK.match(line) and diags and diags[-1].head is not None:
            # the count of the notes dropped under a diagnostic goes with it: it merges only with a
            # repeat whose notes were dropped the same way, never with one that had none
            diags[-1].more.append(line)
        else:
            diags.append(Diagnostic("", None, [line]))
    out: list[str] = []
    times = 1     # how many diagnostics the latest (merged) line stands for
    for d in merge_repeats(diags, _LOC, _is_note):
        if d.head is not None:
            out.append(f"{d.path}:{d.head}")
            locs = _LOC_LIST.match(d.head)  # anchored: a search would rescan a long line from every offset
            if locs is not None and not _is_note(d.head[locs.end():]):
                times = locs.group(0).count(", ") + 1
        else:
            times = 1
        for x in d.more:
            m = _REPEATED_MARK.match(x) if times > 1 else None
            # each merged diagnostic had that many notes dropped: the count says how many went in all
            out.append(f"[{int(m.group(1)) * times} repeated note lines dropped]" if m else x)
    return out


def _kept(line: str) -> bool:
    return bool(_SUMMARY.match(line) or _TOOL_DIAG.match(line) or _LINKER.search(line) or _INCLUDED.match(line)
                or line.startswith("[") and line.endswith(" repeated note lines dropped]"))


def group_compiler_output(lines: list[str]) -> list[str]:
    """Diagnostics grouped by file when the report allows it, else ``lines`` unchanged.

    A note in another file than the error or warning it follows (``src/a.h:8:10: note:
    candidate: …``), with the ``In file included from`` lines just before it, stays under
    that diagnostic with its full path. Template instantiation chains, and include chains
    leading to an error or warning, read top-down across files (each line explains the
    next): grouping them would scramble the chain, so such reports are left in their order.
    Within a file's group, a warning repeated with the same message and notes prints once with
    every location (``2390:6, 2392:6: warning: missing initializer …``). A report whose include
    chains lead to diagnostics in other files stays in its order, with runs of such repeats merged
    in place (:func:`merge_flat`).
    """
    if any(_REQUIRED.match(x) or " In instantiation of " in x for x in lines):
        return lines
    attached = _attach_foreign_notes(lines)
    if attached is None:
        return merge_flat(lines)
    grouped = group_lines(attached, _head, _kept, _LOC, _is_note)
    return _count_merged_marks(grouped) if grouped else merge_flat(lines)


_GROUPED_PRIMARY = re.compile(r"^  (\d+(?::\d+)?(?:, \d+(?::\d+)?)*): (?:warning|error|fatal error): ")


def _count_merged_marks(lines: list[str]) -> list[str]:
    """Grouped output: a ``[N repeated note lines dropped]`` under a merged line (``  2390:6, 2392:6:
    warning: …``) was said under each of its warnings (it is part of what repeated): it counts them all."""
    out: list[str] = []
    times = 1
    for line in lines:
        m = _GROUPED_PRIMARY.match(line)
        if m:
            times = m.group(1).count(", ") + 1
        elif len(line) - len(line.lstrip(" ")) <= 2:
            times = 1
        mark = _REPEATED_MARK.match(line.strip()) if times > 1 else None
        out.append(line[:len(line) - len(line.lstrip(" "))]
                   + f"[{int(mark.group(1)) * times} repeated note lines dropped]" if mark else line)
    return out


def _attach_foreign_notes(lines: list[str]) -> list[str] | None:
    """``lines`` with notes in another file than their diagnostic (and the include lines before them)
    turned into continuation lines (one leading space); None when an include chain leads elsewhere."""
    out: list[str] = []
    primary = None            # the path of the latest error/warning
    pending: list[str] = []   # include lines waiting for the diagnostic they introduce
    for line in lines:
        if _INCLUDED.match(line):
            pending.append(line)
            continue
        if primary is not None and not pending and line.startswith("[") \
                and line.endswith(" repeated note lines dropped]"):
            out.append(" " + line)      # the count stands where the notes stood, under their diagnostic
            continue
        sev = diagnostic_severity(line)
        path = _PATH.match(line).group("path") if sev is not None and _PATH.match(line) else None
        if sev == "note" and primary is not None and path != primary:
            out.extend(" " + x for x in pending + [line])
            pending = []
            continue
        if pending:
            return None       # an include chain leading to an error, a warning or a note in its own file
        if sev is not None and sev != "note":
            primary = path
        elif sev is None and not line.startswith(" "):
            primary = None if not _CONTEXT.match(line) else primary
        out.append(line)
    return None if pending else out


@hookimpl
def sqz_format(request: FormatRequest) -> str | None:
    if request.is_file_content() or request.program not in commands:
        return None
    if _is_compile_only_option_set(request.argv):
        return None
    lines = request.text.splitlines()
    if not lines:
        return None
    res = compress_compiler_output(lines, error_snippets=False)
    if res is None:
        return None
    out, stats = res
    if not stats["recognised"]:
        return None
    if request.exit_code not in (None, 0) and not stats["errors"]:
        return None  # a failure without an error line: nothing here explains it
    return join_output(group_compiler_output(out))
