"""Markdown printed by a program (a README fetched with curl, ``npm view … readme``).

Drops what a reader does not act on: badge and image-only lines, HTML comments, lines of
bare HTML markup, table padding and blank runs, the link definitions only those badges
used, the 1-3 spaces of indentation Markdown ignores before a paragraph, and the body of a
long ``<details>`` section without code (collapsed by its author; a line names it). A link to an
anchor of the page itself (a table of contents) keeps its text: the heading it points at
is in the output. Code blocks are kept verbatim; so are headings, prose, links to other
pages, list nesting and the text of HTML lines (``<summary>Members</summary>``).
Markdown *read from a file* is file content and never reaches this module.
"""

from __future__ import annotations

from sqz_core.api import lazy_pattern as lazy

_HEADING = lazy(r"^#{1,6} \S")
_FENCE = lazy(r"^\s*(```|~~~)")
_LIST = lazy(r"^\s*(?:[-*+]|\d+\.) \S")
# [text](target): text and target stop at the next bracket or parenthesis, so the scans from two
# starts never overlap and a search stays linear (the old `[^)\s]+[^)\n]*` split the rest of the
# line two ways from every `[`: cubic on `[a](b` repeated, issue 29)
_LINK = lazy(r"\[[^\[\]\n]+\]\([^)\[\]\s][^)\[\]\n]*\)")
_IMAGE = lazy(r"!\[[^\[\]\n]*\]\([^)\[\]\n]*\)")  # stops at brackets, as _LINK
_LINKED_IMAGE = lazy(r"\[!\[[^\[\]\n]*\]\([^)\[\]\n]*\)\]\([^)\[\]\n]*\)")
_BADGE_REF = lazy(r"\[!\[[^\]\n]*\]\[[^\]\n]*\]\]\[[^\]\n]*\]")
_TAG = lazy(r"</?[A-Za-z][A-Za-z0-9-]*(?:\s[^<>]*)?/?>")
_TABLE_ROW = lazy(r"^\s*\|.*\|\s*$")
_CELL_PAD = lazy(r"(?<! ) *\| *")  # (?<! ): a run of spaces is scanned once
_RULE_CELL = lazy(r"(:?)-{3,}(:?)")
# "[label]: url" (a reference definition) and the "[text][label]" / "[label][]" uses of one
_REF_DEF = lazy(r"^ {0,3}\[([^\]\n]+)\]: ?\S")
_BRACKETED = lazy(r"\[([^\[\]\n]*)\]")
_ANCHOR_LINK = lazy(r"(?<!!)\[([^\[\]\n]+)\]\(#[^)\s]*\)")
_PARA_INDENT = lazy(r" {1,3}(?![ \t*+>|<-]|\d+[.)](?: |$))")  # before prose, not a list item or quote
# [name](https://host/…/name): when the text is the URL's last segment, the URL alone says both
_URL_LINK = lazy(r"(?<![!\]])\[([\w.-]{1,100})\]\((https?://[^\s()]{1,1000})\)")
_DETAILS_OPEN = lazy(r"^\s*<details\b")
_DETAILS_CLOSE = lazy(r"</details>")
_SUMMARY = lazy(r"<summary>([^<\n]*)</summary>")
FOLD_DETAILS = 8      # a collapsed <details> section of this many lines or more is folded


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


def _text_of_markup(line: str) -> str:
    """A line of HTML tags with some text (``<summary>Members</summary>``): the text alone;
    a line with a link or image target stays as it is."""
    if not line.lstrip().startswith("<") or "href=" in line or "src=" in line:
        return line     # a link or an image keeps its target
    return _TAG.sub("", line).strip() if _TAG.search(line) else line


def _in_code(lines: list[str]) -> list[bool]:
    """Per line: whether it belongs to a fenced code block (its fence lines included)."""
    flags: list[bool] = []
    fence = None
    for line in lines:
        if fence is not None:
            if line.strip().startswith(fence):
                fence = None
            flags.append(True)
        elif m := _FENCE.match(line):
            fence = m.group(1)
            flags.append(True)
        else:
            flags.append(False)
    return flags


def _collapsed_sections(lines: list[str], code: list[bool]) -> dict[int, tuple[int, str]]:
    """Top-level ``<details>`` sections outside code blocks: start line -> (end line, summary)."""
    found: dict[int, tuple[int, str]] = {}
    start, depth, summary = -1, 0, ""
    for i, line in enumerate(lines):
        if code[i] or "<" not in line:
            continue
        if _DETAILS_OPEN.match(line):
            if depth == 0:
                start, summary = i, ""
            depth += 1
        if depth and not summary and (s := _SUMMARY.search(line)):
            summary = s.group(1).strip()
        if depth and _DETAILS_CLOSE.search(line):
            depth -= 1
            if depth == 0:
                found[start] = (i, summary)
    return found


def _strip_comments(text: str) -> str:
    """HTML comments removed; an unclosed ``<!--`` and what follows it stay (one scan, linear)."""
    parts, i = [], 0
    while (a := text.find("<!--", i)) >= 0:
        b = text.find("-->", a + 4)
        if b < 0:
            break
        parts.append(text[i:a])
        i = b + 3
    parts.append(text[i:])
    return "".join(parts)


def compress_markdown(request) -> str | None:
    text = _strip_comments(request.text) if "<!--" in request.text else request.text
    out: list[str] = []
    defs: list[tuple[int, str]] = []   # (index in out, label) of each reference definition
    prev_blank = prose = True
    lines = text.split("\n")
    code = _in_code(lines)
    # (no folding when the text already says "… not shown]": its line would read as our note)
    sections = _collapsed_sections(lines, code) if "<details" in text and "not shown]" not in text else {}
    skip_to = -1
    for i, line in enumerate(lines):
        if i <= skip_to:
            continue
        if i in sections:
            end, summary = sections[i]
            body = lines[i + 1:end]
            shown = sum(1 for x in body if x.strip() and not _SUMMARY.search(x))
            if shown >= FOLD_DETAILS and not any(_FENCE.match(x) for x in body):
                # collapsed by its author (credits, old entries): folded here too, its lines
                # recoverable with the rest; a section with code (install steps) stays
                out.append(f"[{summary or 'details'}: a collapsed section of {shown} lines, not shown]")
                prev_blank = prose = False
                skip_to = end
                continue
        if code[i]:
            out.append(line)  # code stays as it stands
            prev_blank = False
            continue
        line = line.rstrip()
        if line and _only_markup(line):
            continue
        if _TABLE_ROW.match(line):
            line = _RULE_CELL.sub(r"\1---\2", _CELL_PAD.sub(" | ", line.strip())).strip()
        elif line:
            if prev_blank or prose:
                p = _PARA_INDENT.match(line) if line[:1] == " " else None
                line = line[p.end():] if p else line
            prose = not _LIST.match(line)
            line = _text_of_markup(line)
            if "](" in line:
                line = _ANCHOR_LINK.sub(r"\1", line) if "](#" in line else line
                line = _URL_LINK.sub(_self_link, line)
            d = _REF_DEF.match(line)
            if d:
                defs.append((len(out), _label(d.group(1))))
        if not line and (not out or out[-1] == ""):
            continue
        prev_blank = not line
        out.append(line)
    if defs:
        _drop_unused_definitions(out, defs)
    while out and out[-1] == "":
        out.pop()
    result = "\n".join(out) + "\n"
    return result if len(result) < len(request.text) else None


def _self_link(m) -> str:
    """``[name](https://host/…/name)`` → the URL alone (it holds the text); other links as they are."""
    return m.group(2) if m.group(2).endswith("/" + m.group(1)) else m.group(0)


def _label(text: str) -> str:
    """A link label as Markdown matches it: case-insensitive, inner whitespace as one space."""
    return " ".join(text.split()).lower()


def _drop_unused_definitions(out: list[str], defs: list[tuple[int, str]]) -> None:
    """Blank out the reference definitions no kept line uses (those of dropped badges)."""
    at = {i for i, _ in defs}
    used: set[str] = set()
    for i, line in enumerate(out):
        if i not in at and "[" in line:  # any bracketed text may name a label: "[x][y]", "[y][]", "[y]"
            used.update(_label(m.group(1)) for m in _BRACKETED.finditer(line))
    gone = {i for i, label in defs if label not in used}
    if gone:
        kept: list[str] = []
        for i, line in enumerate(out):
            if i not in gone and not (line == "" and kept and kept[-1] == ""):  # no blank runs left behind
                kept.append(line)
        out[:] = kept
