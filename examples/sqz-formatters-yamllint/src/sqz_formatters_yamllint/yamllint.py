"""yamllint's ``-f parsable`` report: each file's path once, its problems under it, repeats of one message
folded into one line with every location.

``path:line:col: [level] message (rule)`` for every problem (yamllint 1.x); a report with any other line
(another format, a traceback) is not this formatter's: it answers None and the input passes through.
"""

from __future__ import annotations

import re

from sqz_core.api import FormatRequest, hookimpl

commands = ("yamllint",)

_LINE = re.compile(r"(?P<path>[^:\n]+):(?P<line>\d+):(?P<col>\d+): \[(?P<level>error|warning)\] "
                   r"(?P<message>[^\n]*) \((?P<rule>[a-z-]+)\)")


@hookimpl
def sqz_format(request: FormatRequest) -> str | None:
    if request.is_file_content():
        return None
    files: dict[str, dict[tuple[str, str, str], list[str]]] = {}
    for raw in request.text.splitlines():
        if not raw.strip():
            continue
        m = _LINE.fullmatch(raw)
        if m is None:
            return None  # not a parsable report: never guess
        problems = files.setdefault(m["path"], {})
        problems.setdefault((m["level"], m["message"], m["rule"]), []).append(f"{m['line']}:{m['col']}")
    if not files:
        return None
    out = []
    for path, problems in files.items():
        out.append(path)
        for (level, message, rule), where in problems.items():
            out.append(f"  {', '.join(where)}: [{level}] {message} ({rule})")
    return "\n".join(out) + "\n"
