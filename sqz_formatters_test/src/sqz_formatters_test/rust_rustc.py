"""rustc (or clippy-driver) run directly: each error and warning without its echoed source, labels and notes kept.

The same reduction cargo's errors get (``rust_diag.compress_error``): the ``error[E…]:``
header, every ``-->`` location, the label texts with their line, ``= note:``/``help:``
lines and the code a ``help:`` suggests stay; the echoed source, marker and gutter lines
go. rustc's closing lines (``aborting due to N previous errors``, ``Some errors have
detailed explanations``) and any line not recognised stay; the ``For more information
about this error, try `rustc --explain E…``` pointer goes (the codes are in the headers).
Machine formats (``--error-format=json``), ``--explain``, ``--print`` and version queries
give None.
"""

from __future__ import annotations

import re

from sqz_core.api import FormatRequest, hookimpl

from ._common import has_option, join_output, shorter_or_none
from .rust_diag import EXPLAIN_HINT, RepeatedNotes, compress_error

commands = ("rustc", "clippy-driver")  # clippy-driver: rustc with clippy's lints, the same output

_HEAD = re.compile(r"^(?:error|warning)(?:\[[A-Za-z0-9_:]+\])?: ")
_LOCATION = re.compile(r"^\s*--> \S+:\d+:\d+")


def compact_rustc(lines: list[str]) -> list[str] | None:
    """rustc's human output with each located diagnostic reduced; None when none is found."""
    out: list[str] = []
    located = 0
    repeated = RepeatedNotes()
    i, n = 0, len(lines)
    while i < n:
        if EXPLAIN_HINT.match(lines[i]):
            i += 1
            continue
        if not _HEAD.match(lines[i]):
            out.append(lines[i])
            i += 1
            continue
        j = i + 1
        while j < n and lines[j].strip() and not _HEAD.match(lines[j]):
            j += 1
        block = lines[i:j]
        if any(_LOCATION.match(x) for x in block):
            located += 1
            out.extend(repeated.apply(compress_error(block)))
            while j < n and not lines[j].strip():
                j += 1  # the blank line closing it: the next header starts a line of its own
        else:
            out.extend(block)
        i = j
    return out if located else None


@hookimpl
def sqz_format(request: FormatRequest) -> str | None:
    """Compact rustc diagnostics; other modes and output give None."""
    if request.is_file_content() or request.program not in commands:
        return None
    if has_option(request.argv, ("--explain", "--version", "-V", "-vV", "--help", "-h", "--print"),
                  ("--error-format", "--print=", "--json")):
        return None
    out = compact_rustc(request.text.splitlines())
    if out is None:
        return None
    return shorter_or_none(join_output(out), request.text)
