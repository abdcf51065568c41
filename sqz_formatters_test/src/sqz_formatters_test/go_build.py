"""go build / go vet / go install: drop module download chatter, keep every diagnostic verbatim.

Why: the compiler's and vet's output is already one line per problem
(``./x.go:11:32: undefined: missing`` under a ``# pkg`` header), so it is kept as is;
what bloats these commands is ``go: downloading module vX`` lines, which are counted.
Output with nothing recognisable returns None.
"""

from __future__ import annotations

import re

from ._common import join_output

_PKG_HEADER = re.compile(r"^# \S+$")
_DIAG = re.compile(r"^(\.{0,2}/)?[\w./-]+\.go:\d+(:\d+)?: \S")
_DOWNLOAD = re.compile(r"^go: (downloading|finding|extracting) \S+ v\S+$")
_GO_MSG = re.compile(r"^go: |^vet: |^too many errors$|^note: module requires Go ")


def format_go_build(text: str, exit_code: int | None) -> str | None:
    """The compact rendering of go build/vet output, or None."""
    lines = text.splitlines()
    out: list[str] = []
    downloads = 0
    recognised = False
    for line in lines:
        if _DOWNLOAD.match(line):
            downloads += 1
            recognised = True
            continue
        if _PKG_HEADER.match(line) or _DIAG.match(line) or _GO_MSG.match(line):
            recognised = True
        out.append(line)
    if not recognised:
        return None
    if exit_code not in (None, 0) and not any(_DIAG.match(l) or _GO_MSG.match(l) for l in out):
        return None
    if downloads:
        out.insert(0, f"[dropped: go: downloading ×{downloads}]")
    return join_output(out)
