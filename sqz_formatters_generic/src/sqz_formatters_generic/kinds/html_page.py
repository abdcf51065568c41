"""HTML pages printed by a program (``curl`` of a docs page): the readable text.

Scripts, styles and other non-text elements are dropped; headings become ``#`` lines,
list items ``- `` lines, table cells are joined with `` | ``, absolute link targets are
kept after the link text, and ``<pre>`` blocks keep their whitespace. Links that differ
only in their numbers (a change log's ``…/compare/1.12.0...1.12.1`` per release) keep
their target for the first ``SAME_PATTERN_LINKS``; later ones keep their text, and one
closing line says how many targets like which were left out.
"""

from __future__ import annotations

import re
from sqz_core.api import lazy_pattern as lazy

_SKIP = frozenset({"script", "style", "noscript", "template", "svg", "head", "iframe", "object"})
_BLOCK = frozenset({"p", "div", "section", "article", "header", "footer", "nav", "main", "aside",
                    "ul", "ol", "dl", "dt", "dd", "table", "thead", "tbody", "tr", "blockquote",
                    "form", "fieldset", "figure", "figcaption", "hr", "br", "address", "h1", "h2",
                    "h3", "h4", "h5", "h6", "li", "pre", "caption", "details", "summary"})
_VOID = frozenset({"br", "hr", "img", "meta", "link", "input", "area", "base", "col", "embed",
                   "source", "track", "wbr", "param"})
_SPACES = lazy(r"[ \t\r\n\f\v]+")
_DIGITS = lazy(r"\d+")
_HREF = lazy(r"""href=["']?(https?://[^"'\s>]+)""", re.I)
SAME_PATTERN_LINKS = 2   # targets kept per pattern ...
FOLD_MIN = 3             # ... when at least this many more would follow (else all are kept)
# an XHTML page may open with its XML declaration (``<?xml version="1.0" …?>``)
_DOCTYPE = lazy(r"\s*(?:<\?xml\s[^>]{0,200}\?>\s*)?(?:<!--.*?-->\s*)*<(?:!doctype\s+html|html[\s>])", re.I | re.S)


def looks_like_html(text: str) -> bool:
    return bool(_DOCTYPE.match(text[:4096]))


def _folded_patterns(html: str) -> set[str]:
    """Link patterns (digits masked) frequent enough that their later targets are left out."""
    counts: dict[str, int] = {}
    for m in _HREF.finditer(html):
        k = _DIGITS.sub("#", m.group(1))
        counts[k] = counts.get(k, 0) + 1
    return {k for k, n in counts.items() if n >= SAME_PATTERN_LINKS + FOLD_MIN}


def html_to_text(html: str) -> str:
    from html.parser import HTMLParser

    # (no folding when the page already says "… left out]": its line would read as our note)
    folded = _folded_patterns(html) if "href" in html and "left out]" not in html else set()

    class _Text(HTMLParser):
        def __init__(self) -> None:
            super().__init__(convert_charrefs=True)
            self.lines: list[str] = []
            self.cur: list[str] = []
            self.skip = 0
            self.pre = 0
            self.title = False
            self.links: list[str | None] = []
            self.patterns: dict[str, list] = {}   # href with digits masked -> [count, first href]

        def newline(self) -> None:
            text = "".join(self.cur)
            if not self.pre:
                text = _SPACES.sub(" ", text.replace("\u00b6", "")).strip()
                if text == "-" or text.strip("#") == "":
                    return      # a list-item or heading marker waits for its text
                if text.startswith("- - "):
                    text = text[2:]     # a list item whose text starts with its own "- " (a nav's bullets)
            if text:
                # a whitespace-only line of a <pre> block shows as blank
                self.lines.extend([x if x.strip() else "" for x in text.split("\n")] if self.pre else [text])
            elif self.lines and self.lines[-1] != "":
                self.lines.append("")
            self.cur = []

        def handle_starttag(self, tag, attrs):
            if tag == "title" and self.skip:
                self.title = True
                return
            if tag in _SKIP:
                self.skip += 1
                return
            if self.skip:
                return
            if tag in _BLOCK:
                self.newline()
            if tag == "pre":
                self.pre += 1
            elif tag in ("h1", "h2", "h3", "h4", "h5", "h6"):
                self.cur.append("#" * int(tag[1]) + " ")
            elif tag == "li":
                self.cur.append("- ")
            elif tag in ("td", "th") and self.cur and "".join(self.cur).strip():
                self.cur.append(" | ")
            elif tag == "a":
                href = dict(attrs).get("href") or ""
                self.links.append(href if href.startswith(("http://", "https://")) else None)
            elif tag == "img":
                alt = dict(attrs).get("alt")
                if alt:
                    self.cur.append(f"[{alt}]")

        def handle_startendtag(self, tag, attrs):
            self.handle_starttag(tag, attrs)
            if tag not in _VOID:
                self.handle_endtag(tag)

        def handle_endtag(self, tag):
            if tag == "title" and self.title:
                self.title = False
                self.newline()
                return
            if tag in _SKIP:
                self.skip = max(0, self.skip - 1)
                return
            if self.skip:
                return
            if tag == "a" and self.links:
                href = self.links.pop()
                if href and href not in "".join(self.cur[-3:]):
                    key = _DIGITS.sub("#", href)
                    seen = self.patterns.setdefault(key, [0, href])
                    seen[0] += 1
                    if seen[0] <= SAME_PATTERN_LINKS or key not in folded:
                        self.cur.append(f" <{href}>")
            if tag == "pre":
                self.newline()
                self.pre = max(0, self.pre - 1)
            elif tag in _BLOCK:
                self.newline()

        def handle_data(self, data):
            if self.title:
                self.cur.append("# " + data.strip())
            elif not self.skip:
                self.cur.append(data)

    p = _Text()
    p.feed(html)
    p.close()
    p.newline()
    lines = p.lines
    while lines and lines[-1] == "":
        lines.pop()
    for key, (count, first) in p.patterns.items():
        if count > SAME_PATTERN_LINKS and key in folded:
            n = count - SAME_PATTERN_LINKS
            lines.append(f"[{n} more link target{'s' if n > 1 else ''} like <{first}> left out]")
    while lines and lines[0] == "":
        lines.pop(0)
    return "\n".join(lines) + "\n"


def compress_html(request) -> str | None:
    if not looks_like_html(request.text):
        return None
    out = html_to_text(request.text)
    return out if out.strip() and len(out) < len(request.text) else None
