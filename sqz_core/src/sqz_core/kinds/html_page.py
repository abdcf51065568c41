"""HTML pages printed by a program (``curl`` of a docs page): the readable text.

Scripts, styles and other non-text elements are dropped; headings become ``#`` lines,
list items ``- `` lines, table cells are joined with `` | ``, absolute link targets are
kept after the link text, and ``<pre>`` blocks keep their whitespace.
"""

from __future__ import annotations

import re
from ..lazyre import lazy

_SKIP = frozenset({"script", "style", "noscript", "template", "svg", "head", "iframe", "object"})
_BLOCK = frozenset({"p", "div", "section", "article", "header", "footer", "nav", "main", "aside",
                    "ul", "ol", "dl", "dt", "dd", "table", "thead", "tbody", "tr", "blockquote",
                    "form", "fieldset", "figure", "figcaption", "hr", "br", "address", "h1", "h2",
                    "h3", "h4", "h5", "h6", "li", "pre", "caption", "details", "summary"})
_VOID = frozenset({"br", "hr", "img", "meta", "link", "input", "area", "base", "col", "embed",
                   "source", "track", "wbr", "param"})
_SPACES = lazy(r"[ \t\r\n\f\v]+")
_DOCTYPE = lazy(r"\s*(?:<!--.*?-->\s*)*<(?:!doctype\s+html|html[\s>])", re.I | re.S)


def looks_like_html(text: str) -> bool:
    return bool(_DOCTYPE.match(text[:4096]))


def html_to_text(html: str) -> str:
    from html.parser import HTMLParser

    class _Text(HTMLParser):
        def __init__(self) -> None:
            super().__init__(convert_charrefs=True)
            self.lines: list[str] = []
            self.cur: list[str] = []
            self.skip = 0
            self.pre = 0
            self.title = False
            self.links: list[str | None] = []

        def newline(self) -> None:
            text = "".join(self.cur)
            if not self.pre:
                text = _SPACES.sub(" ", text.replace("\u00b6", "")).strip()
                if text == "-" or text.strip("#") == "":
                    return      # a list-item or heading marker waits for its text
            if text:
                self.lines.extend(text.split("\n") if self.pre else [text])
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
    while lines and lines[0] == "":
        lines.pop(0)
    return "\n".join(lines) + "\n"


def compress_html(request) -> str | None:
    if not looks_like_html(request.text):
        return None
    out = html_to_text(request.text)
    return out if out.strip() and len(out) < len(request.text) else None
