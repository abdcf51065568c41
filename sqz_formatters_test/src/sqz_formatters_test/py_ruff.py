"""ruff check, flake8, pylint: one concise line per diagnostic instead of code frames, grouped by file.

The full output format repeats source lines and fix diffs around every diagnostic;
the concise form ruff itself prints with ``--output-format=concise`` carries the same
codes, locations and messages, so the full format becomes those concise lines (each
``path:line:col`` as ruff printed it), with the frame's ``help:`` line kept under its diagnostic
when it names code the message does not (``help: Add return type annotation: `int```; a help
that repeats the message, ``Remove unused import: `os```, goes). Output already in the concise format is grouped
by file instead: the path once, its ``line:col: CODE message`` lines under it. Summary lines (``Found N errors.``, fixable counts) and ruff's
own ``warning:``/``error:`` lines stay verbatim. Within a file, diagnostics that repeat one code and
message print once with every location (``54:5, 144:5: D205 1 blank line required …``).

flake8 and pylint print the same one-line shape (``path:line:col: CODE message``, pylint's with a
``(symbol)`` after it, its ``************* Module m`` headers and its rating kept verbatim): they are
grouped the same way (pylint's ``==m:[a:b]`` duplicate-code spans continue their message); any other
line (``--statistics``, ``--count``, a crash) gives None.
"""

from __future__ import annotations

import re

from sqz_core.api import FormatRequest, hookimpl

from ._common import join_output, shorter_or_none
from ._diag import group_lines, split_path

commands = ("ruff", "flake8", "pylint")

_HEAD = re.compile(r"^(?P<code>[A-Z]+[0-9]+|[a-z][a-z-]+) (?P<msg>\S.*)$")
_ARROW = re.compile(r"^ *--> (?P<loc>\S+:\d+:\d+)$")
_FOUND = re.compile(r"^Found \d+ errors?(?: \(\d+ fixed, \d+ remaining\))?\.$")
_TRAILER = re.compile(r"^(?:\[\*\] \d+ fixable with |No fixes available |\d+ hidden fixes? can be enabled )")
_OWN = re.compile(r"^(?:warning|error): ")
_HELP = re.compile(r"^help: \S")
_SNIPPET = re.compile(r"`([^`]+)`")
_LOC = re.compile(r"(?<!\d)\d+:\d+(?=: )")  # (?<!\d): linear in a digit run
_CONCISE = re.compile(r"^(?P<path>\S.*?):\d+:\d+: (?:[A-Z]+[0-9]+|[a-z][a-z-]+:?) ")


_PYLINT_MSG = re.compile(r"^(?P<path>\S.*?):\d+:\d+: [CRWEFI]\d{4}: ")
_PYLINT_KEPT = re.compile(r"^(?:\*{13} Module \S+|-{10,}|Your code has been rated at .*)$")


def _head(line: str):
    m = _CONCISE.match(line)
    return split_path(line, m.end("path")) if m else None


def _kept(line: str) -> bool:
    return bool(_OWN.match(line) or _TRAILER.match(line) or _FOUND.match(line))


def _names_new_code(help_line: str, msg: str) -> bool:
    """Whether a ``help:`` line quotes code its diagnostic's message does not (a fix worth keeping)."""
    return any(snip not in msg for snip in _SNIPPET.findall(help_line))


def group_concise(lines: list[str]) -> list[str] | None:
    """Concise diagnostics grouped by file; None when a line is not ruff's or nothing groups."""
    if not any(_FOUND.match(x) for x in lines):
        return None
    return group_lines(lines, _head, _kept, _LOC)


def group_flake8(lines: list[str]) -> list[str] | None:
    """flake8's default output grouped by file; None for anything else."""
    return group_lines(lines, _head, lambda line: False, _LOC)


def _pylint_head(line: str):
    m = _PYLINT_MSG.match(line)
    return split_path(line, m.end("path")) if m else None


def group_pylint(lines: list[str]) -> list[str] | None:
    """pylint's text report grouped by file (module headers and rating kept); None for anything else."""
    if not any(x.startswith("Your code has been rated at ") for x in lines):
        return None
    # duplicate-code (R0801) lists its ``==module:[a:b]`` spans unindented under the message: they continue it
    lines = [" " + x if x.startswith("==") else x for x in lines]
    return group_lines(lines, _pylint_head, lambda line: bool(_PYLINT_KEPT.match(line)), _LOC)


def compact_ruff(lines: list[str]) -> list[str] | None:
    """Concise diagnostics from ruff's full output; None on any unknown block shape."""
    i, n = 0, len(lines)
    out: list[str] = []
    seen_found = False
    while i < n:
        line = lines[i]
        if not line.strip():
            i += 1
            continue
        if _OWN.match(line) or _TRAILER.match(line):
            out.append(line)
            i += 1
            continue
        if _FOUND.match(line):
            out.append(line)
            seen_found = True
            i += 1
            continue
        m = _HEAD.match(line)
        if not m or i + 1 >= n:
            return None
        a = _ARROW.match(lines[i + 1])
        if not a:
            return None
        code, msg = m.group("code"), m.group("msg")
        if code[0].islower():  # e.g. invalid-syntax: …
            if not msg.startswith(": ") and not code.endswith(":"):
                return None
            out.append(f"{a.group('loc')}: {code.rstrip(':')}{msg if msg.startswith(':') else ': ' + msg}")
        else:
            out.append(f"{a.group('loc')}: {code} {msg}")
        i += 2
        # the code frame, help text and fix diff run to the next blank line that precedes a header
        while i < n and not (lines[i] == "" and (i + 1 >= n or not lines[i + 1].startswith((" ", "|"))
                                                  and not lines[i + 1][:1].isdigit())):
            if _HELP.match(lines[i]) and _names_new_code(lines[i], msg):
                out.append("  " + lines[i])
            i += 1
    return out if seen_found else None


@hookimpl
def sqz_format(request: FormatRequest) -> str | None:
    """Compact ``ruff check`` output in the full format, or flake8/pylint reports; None for anything else."""
    if request.program in ("flake8", "pylint"):
        if any(a.startswith(("--format", "--output-format", "-f", "--statistics", "--count", "--show-source",
                             "--reports", "-r", "--msg-template", "--list", "--help", "--version"))
               for a in request.argv[1:]):
            return None
        out = (group_flake8 if request.program == "flake8" else group_pylint)(request.lines)
        return None if out is None else shorter_or_none(join_output(out), request.text)
    if request.subcommand() not in ("check", None):
        return None
    if any(a in ("--statistics", "--show-files", "--show-settings", "--watch") for a in request.argv):
        return None
    if any(a.startswith("--output-format") and not a.endswith(("=full", "full")) for a in request.argv):
        if not any(a.endswith(("=concise", "concise")) for a in request.argv):
            return None
        out = group_concise(request.lines)
    else:
        out = compact_ruff(request.lines)  # kept as `path:line:col: CODE message`: the path:line:col
        # the full format prints on its ` --> ` line stays one searchable string
    if out is None:
        return None
    return shorter_or_none(join_output(out), request.text)
