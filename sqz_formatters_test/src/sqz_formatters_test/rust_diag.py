"""rustc/clippy diagnostics without their source echo: header, locations, labels, notes and suggested code kept.

A rustc diagnostic prints the source lines it points at with ``^^^^``/``----`` markers under
them. The location (``--> file:line:col``) already says where; what the markers add is
their label text (``expected `String`, found `&str```). Kept: the ``error[E…]:``/``warning:``
header with its ``-->`` location joined to it (``error[E0308]: mismatched types --> src/a.rs:9:5``;
a ``help:``/``note:`` sub-diagnostic's location joins it the same way), every other
``-->``/``:::`` location, each label's text as ``^ label`` (primary) or ``- label``
(secondary), prefixed ``LINE:`` when it sits under another source line than the location's
(a span over several lines, drawn with ``/``, ``|`` and ``|____^``, labels its last line),
``= note:``/``= help:`` lines with their continuations, ``help:``/``note:`` sub-diagnostics
and the source lines a ``help:`` suggests (the fix itself).

Shortened: the lint note rustc prints once per lint (``= note: `#[warn(unused_mut)]` (part
of `#[warn(unused)]`) on by default``) becomes the lint's name after the header
(``[unused_mut, part of unused]``), and so does the note ``-D warnings`` prints
(```-D clippy::len-zero` implied by `-D warnings``` → ``[clippy::len-zero, denied by -D
warnings]``; its ``to override `-D warnings` add `#[allow(…)]``` help goes); the ``(in Nightly builds, run with -Z macro-backtrace …)``
tail of a macro note goes. Dropped: source lines echoed under the diagnostic and its notes,
bare marker and ``|`` gutter lines, clippy's ``= help: for further information visit <url>``
lines, and locations in the standard library's source (``--> /rustc/<commit>/library/…``: a
path on no disk, as in cargo's backtraces; the notes under them stay).
Stdlib only: imported on the hot path.
"""

from __future__ import annotations

import re

_LOCATION = re.compile(r"^\s*(?:-->|:::) \S")
_LOC_LINE = re.compile(r":(\d+):\d+$")
_NUMBERED = re.compile(r"^\s*(?P<num>\d+)\s*[|:]")  # `10 |     code` (a source line; `:` for elided runs)
_GUTTER = re.compile(r"^\s*\|(?P<rest>.*)$")        # `   |          ^^^^ label` (no line number)
# a marker line: carets/dashes, with a multi-line span's `|`, `/` and `___` drawing (`|_____^ label`)
_MARKS = re.compile(r"^(?P<marks>[\s|/_^\-+~]*[\^\-+~])(?:\s+(?P<label>\S.*))?$")
_SUB = re.compile(r"^(?:help|note|warning|error)(?:\[\w+\])?: ")
_ELIDED = re.compile(r"^\.\.\.$")
_STD_PATH = re.compile(r"^(?:-->|:::) /rustc/[0-9a-f]{40}/")
_LINT_NOTE = re.compile(r"^= note: `#\[(?:warn|deny|forbid)\((?P<lint>[\w:]+)\)\]`"
                        r"(?: \(part of `#\[(?:warn|deny|forbid)\((?P<group>[\w:]+)\)\]`\))? on by default$")
_LINT_URL = re.compile(r"^= help: for further information visit \S+$")
# `-D warnings` turns each lint into an error and says so under its first hit, with how to override it
_DENY_NOTE = re.compile(r"^= note: `-D (?P<lint>[\w:-]+)` implied by `-D warnings`$")
_OVERRIDE_HELP = re.compile(r"^= help: to override `-D warnings` add `#\[(?:allow|expect)\([\w:]+\)\]`"
                            r"(?: or `#\[allow\([\w:]+\)\]`)?$")
_NIGHTLY = " (in Nightly builds, run with -Z macro-backtrace for more info)"
# rustc's closing pointer to its error index (rustc and cargo drop it: the codes stay in the
# headers and in ``Some errors have detailed explanations: …``)
EXPLAIN_HINT = re.compile(r"^For more information about (?:this|an) error, try `rustc --explain E\d+`\.$")


def compress_error(block: list[str]) -> list[str]:
    """One rustc diagnostic block (header first) without its echoed source; labels and notes kept."""
    out = [block[0]]
    head_len = len(block[0])  # the header's own text (a lint name goes right after it)
    joinable = 0              # index in out of the line the next `-->` joins, or -1
    in_help = False
    num = ""                  # the source line the next labels sit under
    loc = ""                  # the source line of the latest location
    for line in block[1:]:
        if _SUB.match(line):
            in_help = line.startswith("help")
            num = ""
            out.append(line)
            joinable = len(out) - 1
        elif _LOCATION.match(line):
            text = line.strip()
            if _STD_PATH.search(text):
                joinable = -1
                num = loc = ""
                continue  # the standard library's source, at a path no disk has
            m = _LOC_LINE.search(text)
            loc = m.group(1) if m else ""
            num = ""
            if joinable >= 0 and text.startswith("-->"):
                out[joinable] += " " + text
            else:
                out.append("  " + text)
            joinable = -1
        elif _NUMBERED.match(line):
            num = _NUMBERED.match(line).group("num")
            if in_help:
                out.append(line)  # the code a help suggests
        elif _GUTTER.match(line):
            rest = _GUTTER.match(line).group("rest").strip()
            if rest.startswith("= "):
                joinable = -1
                kept = _note(rest, out, head_len)
                if kept:
                    out.append("  " + kept)
                continue
            where = f"{num}: " if num and num != loc else ""
            m = _MARKS.match(rest)
            if m:
                if m.group("label") and not in_help:
                    out.append(f"  {where}{'^' if '^' in m.group('marks') else '-'} {m.group('label')}")
                continue
            text = rest.replace("|", " ").strip()
            if text and not in_help:
                out.append(f"  {where}- {text}")  # a label printed below its marker
        elif _ELIDED.match(line.strip()):
            continue
        else:
            stripped = line.strip()
            if stripped.startswith("= "):
                joinable = -1
                kept = _note(stripped, out, head_len)
                if kept:
                    out.append(line[:len(line) - len(line.lstrip())] + kept)
                continue
            out.append(line)  # `= note:` continuations and anything unexpected
    return out


def _note(note: str, out: list[str], head_len: int) -> str | None:
    """A ``= note:``/``= help:`` line as kept (None when dropped); a lint note goes after the header instead."""
    lint = _LINT_NOTE.match(note)
    deny = _DENY_NOTE.match(note)
    if lint or deny:
        if lint:
            tag = lint.group("lint") + (f", part of {lint.group('group')}" if lint.group("group") else "")
        else:
            tag = f"{deny.group('lint')}, denied by -D warnings"
        out[0] = out[0][:head_len] + f" [{tag}]" + out[0][head_len:]
        return None
    if _LINT_URL.match(note) or _OVERRIDE_HELP.match(note):
        return None
    return note[:-len(_NIGHTLY)] if note.endswith(_NIGHTLY) else note


_HEAD_NAME = re.compile(r"`([^`\n]{1,200})`")
_HEAD_LOC = re.compile(r" (?:-->|:::) \S+$")
_TAG = re.compile(r" \[[^\]]*\]")


class RepeatedNotes:
    """The ``= note:``/``= help:`` items a diagnostic shares with an earlier one of its kind, said once.

    A lint that fires many times (``unexpected_cfgs`` for each ``cfg`` a build script sets, clippy's
    ``incompatible_msrv``) repeats the same help under every hit, often with only the hit's own name in
    it (``check-cfg = ['cfg(doc_cfg)']``). The kind of a diagnostic is its header with the backticked
    names blanked (``warning: unexpected `cfg` condition name: `_```); an item (the ``= …`` line and
    its deeper-indented continuation lines) equal to one already shown under a diagnostic of that kind,
    once each header's names are blanked in both, is dropped, and the header says
    ``(notes as above)``: the first hit of its kind, whose notes apply with this hit's names in them. The first hit keeps
    all of its items. Linear: one dictionary lookup per item.
    """

    def __init__(self) -> None:
        self._seen: dict[str, set[str]] = {}

    @staticmethod
    def _items(block: list[str]):
        """(start, end) of each ``= …`` item in a compressed block (header at 0)."""
        i, n = 1, len(block)
        while i < n:
            line = block[i]
            strip = line.lstrip()
            if strip.startswith(("= note:", "= help:")):
                ind = len(line) - len(strip)
                j = i + 1
                while j < n:
                    nxt = block[j]
                    s = nxt.lstrip()
                    if not s or len(nxt) - len(s) <= ind or s.startswith(("= ", "^ ", "- ", "-->", ":::")):
                        break
                    j += 1
                yield i, j
                i = j
            else:
                i += 1

    def apply(self, block: list[str]) -> list[str]:
        if len(block) < 2:
            return block
        head = _HEAD_LOC.sub("", _TAG.sub("", block[0]))
        names = list(dict.fromkeys(n for n in _HEAD_NAME.findall(head) if len(n) > 2))
        kind = _HEAD_NAME.sub("`_`", head)
        order = sorted(range(len(names)), key=lambda k: -len(names[k]))  # longest first: `doc_cfg` before `cfg`

        def norm(lines: list[str]) -> str:
            text = "\n".join(x.strip() for x in lines)
            for k in order:
                text = text.replace(names[k], f"\0{k}\0")  # the k-th name of the header, wherever it is
            return text

        items = list(self._items(block))
        if not items:
            return block
        first = self._seen.get(kind)
        if first is None:
            self._seen[kind] = {norm(block[a:b]) for a, b in items}
            return block
        shown = first
        drop = [(a, b) for a, b in items if norm(block[a:b]) in shown]
        if not drop:
            return block
        cut = set()
        for a, b in drop:
            cut.update(range(a, b))
        out = [line for k, line in enumerate(block) if k not in cut]
        loc = _HEAD_LOC.search(out[0])
        tail = " (notes as above)"
        out[0] = out[0][:loc.start()] + tail + out[0][loc.start():] if loc else out[0] + tail
        return out
