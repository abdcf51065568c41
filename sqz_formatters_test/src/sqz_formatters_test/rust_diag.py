"""rustc errors without their source echo: header, locations, labels, notes and suggested code kept.

A rustc error prints the source lines it points at with ``^^^^``/``----`` markers under
them. The location (``--> file:line:col``) already says where; what the markers add is
their label text (``expected `String`, found `&str```). Kept: the ``error[E…]:`` header,
every ``-->``/``:::`` location, each label's text on a ``LINE: ^ label`` (primary) or
``LINE: - label`` (secondary) line (LINE: the source line the marker sat under), ``= note:``/``= help:`` lines with their continuations, ``help:``/``note:``
sub-diagnostics and the source lines a ``help:`` suggests (the fix itself). Dropped:
source lines echoed under the error and its notes, bare marker and ``|`` gutter lines.
Stdlib only: imported on the hot path.
"""

from __future__ import annotations

import re

_LOCATION = re.compile(r"^\s*(?:-->|:::) \S")
_NUMBERED = re.compile(r"^\s*(?P<num>\d+)\s*[|:]")  # `10 |     code` (a source line; `:` for elided runs)
_GUTTER = re.compile(r"^\s*\|(?P<rest>.*)$")        # `   |          ^^^^ label` (no line number)
_MARKS = re.compile(r"^[\s|]*(?P<marks>[\^\-+~]+(?:[\s|]+[\^\-+~]+)*)(?:\s+(?P<label>\S.*))?$")
_SUB = re.compile(r"^(?:help|note|warning|error)(?:\[\w+\])?: ")
_ELIDED = re.compile(r"^\.\.\.$")


def compress_error(block: list[str]) -> list[str]:
    """One rustc diagnostic block (header first) without its echoed source; labels kept."""
    out = [block[0]]
    in_help = False
    num = ""          # the number of the source line the next labels sit under
    for line in block[1:]:
        if _SUB.match(line):
            in_help = line.startswith("help")
            num = ""
            out.append(line)
        elif _LOCATION.match(line):
            num = ""
            out.append(line)
        elif _NUMBERED.match(line):
            num = _NUMBERED.match(line).group("num") + ": "
            if in_help:
                out.append(line)  # the code a help suggests
        elif _GUTTER.match(line):
            rest = _GUTTER.match(line).group("rest")
            if rest.strip().startswith("= "):
                out.append("  " + rest.strip())  # `= note: …` / `= help: …`
                continue
            m = _MARKS.match(rest)
            if m:
                if m.group("label") and not in_help:
                    out.append(f"  {num}{'^' if '^' in m.group('marks') else '-'} {m.group('label')}")
                continue
            text = rest.replace("|", " ").strip()
            if text and not in_help:
                out.append(f"  {num}- {text}")  # a label printed below its marker
        elif _ELIDED.match(line.strip()):
            continue
        else:
            out.append(line)  # `= note:` continuations and anything unexpected
    return out
