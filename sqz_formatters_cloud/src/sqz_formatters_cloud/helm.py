"""sqz formatter entry for ``helm``.

``list``/``ls`` → lossless compact table. ``install``/``upgrade``/``status``
keep every line but the placeholders that say nothing (``TEST SUITE: None``, an
empty ``DESCRIPTION:``); NOTES are chart text and stay verbatim. Errors
(``Error: INSTALLATION FAILED: …``) pass through untouched.
"""

from __future__ import annotations

import re

from sqz_core.api import FormatRequest, hookimpl

commands = ("helm",)

_RELEASE_VERBS = frozenset({"install", "upgrade", "status"})
_EMPTY_FIELDS = re.compile(r"^(TEST SUITE: None|DESCRIPTION: ?)$")
_FIELD = re.compile(r"^[A-Z][A-Z ]*: ")


def format_release(text: str) -> str | None:
    """The release summary without empty placeholders; None unless it has helm's NAME/STATUS shape."""
    lines = text.split("\n")
    head = 1 if lines and lines[0].startswith("Release \"") else 0
    if len(lines) <= head or not lines[head].startswith("NAME: ") or not any(l.startswith("STATUS: ") for l in lines):
        return None
    out = []
    in_notes = False
    for line in lines:
        if line == "NOTES:":
            in_notes = True
        if not in_notes and _EMPTY_FIELDS.match(line):
            continue
        out.append(line)
    result = "\n".join(out)
    return None if result == text else result


@hookimpl
def sqz_format(request: FormatRequest) -> str | None:
    verb = request.subcommand()
    if verb in ("list", "ls"):
        if any(a.startswith(("-o", "--output", "-q", "--short")) for a in request.argv[2:]):
            return None
        from sqz_formatters_generic.api import compact_tables

        return compact_tables(request.text, tabbed=True)
    if verb in _RELEASE_VERBS:
        return format_release(request.text)
    return None
