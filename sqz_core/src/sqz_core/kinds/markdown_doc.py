"""Markdown printed by a program (a README fetched with curl, ``npm view … readme``).

Drops what a reader does not act on: badge and image-only lines, HTML comments, lines of
bare HTML markup, table padding and blank runs. Code blocks are kept verbatim; so are
headings, prose, links and lists. Markdown *read from a file* is file content and never
reaches this module.
"""

from __future__ import annotations

import re
from ..lazyre import lazy

_HEADING = lazy(r"^#{1,6} \S")
_FENCE = lazy(r"^\s*(```|~~~)")
_LIST = lazy(r"^\s*(?:[-*+]|\d+\.) \S")
_LINK = lazy(r"\[[^\]\n]+\]\([^)\s]+[^)\n]*\)")
_IMAGE = lazy(r"!\[[^\]\n]*\]\([^)\n]*\)")
_LINKED_IMAGE = lazy(r"\[!\[[^\]\n]*\]\([^)\n]*\)\]\([^)\n]*\)")
_BADGE_REF = lazy(r"\[!\[[^\]\n]*\]\[[^\]\n]*\]\]\[[^\]\n]*\]")
_TAG = lazy(r"</?[A-Za-z][A-Za-z0-9-]*(?:\s[^<>]*)?/?>")
_COMMENT = lazy(r"<!--.*?-->", re.S)
_TABLE_ROW = lazy(r"^\s*\|.*\|\s*$")
_CELL_PAD = lazy(r" *\| *")
_RULE_CELL = lazy(r"(:?)-{3,}(:?)")


def looks_like_markdown(text: str) -> bool:
    """A heading plus some other Markdown: a fence, a list, or a link."""
    headings = features = 0
    for line in text.splitlines()[:400]:
        if _HEADING.match(line):
            headings += 1
        elif _FENCE.match(line) or _LIST.match(line) or _LINK.search(line):
            features += 1
    return headings >= 1 and features >= 2


def _only_markup(line: str) -> bool:
    """True for a line made of images, badges and HTML tags only."""
    rest = _IMAGE.sub("", _BADGE_REF.sub("", _LINKED_IMAGE.sub("", line)))
    rest = _TAG.sub("", rest)
    return not rest.strip()


def compress_markdown(request) -> str | None:
    text = _COMMENT.sub("", request.text) if "<!--" in request.text else request.text
    out: list[str] = []
    fence = None
    for line in text.split("\n"):
        if fence is not None:
            out.append(line)
            if line.strip().startswith(fence):
                fence = None
            continue
        m = _FENCE.match(line)
        if m:
            fence = m.group(1)
            out.append(line)
            continue
        line = line.rstrip()
        if line and _only_markup(line):
            continue
        if _TABLE_ROW.match(line):
            line = _RULE_CELL.sub(r"\1---\2", _CELL_PAD.sub(" | ", line.strip())).strip()
        if not line and (not out or out[-1] == ""):
            continue
        out.append(line)
    while out and out[-1] == "":
        out.pop()
    result = "\n".join(out) + "\n"
    return result if len(result) < len(request.text) else None
