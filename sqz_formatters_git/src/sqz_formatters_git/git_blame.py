"""``git blame`` (default human format) → one header per run of lines from the same commit.

``^5c7782b (Dev Example   2024-03-09 04:52:00 +0000  1) text`` repeated for every line
becomes the commit/author/date once, then its `` 1) text`` lines indented by one space under it
(the nesting is what ties each line to its commit); a commit met again further down is named by
its hash alone (its author and date were given where it first appeared).
File content is kept exactly (line numbers and text); ``--incremental``, ``-e``/``--show-email``
and ``-c`` shapes → None.

``--porcelain`` / ``-p`` / ``--line-porcelain`` (see :func:`format_porcelain`): the same nesting.
A commit's header lines are given once, where it first appears: its full id, then
``author NAME <MAIL> TIME TZ`` on one line (``, committer same`` when the four committer lines
repeat the author's, else the committer's own four values), then ``summary``, ``previous``,
``boundary`` and ``filename`` as git printed them (``filename`` again only where it changes).
A commit met again is named by the first 12 digits of its id. Each line is `` N) text`` (N its
line in the file, text after git's tab exactly), or `` N:M) text`` where its line in the commit
it comes from (porcelain's original number) is another.
"""

from __future__ import annotations

import re

from ._common import args_after

_LINE = re.compile(
    r"^(?P<sha>\^?[0-9a-f]{7,64}) (?:(?P<file>\S+) +)?\((?P<who>.*?) +"
    r"(?P<date>\d{4}-\d\d-\d\d \d\d:\d\d:\d\d [+-]\d{4}) +(?P<num>\d+)\)(?: (?P<text>.*))?$")
_REFUSED = frozenset({"--porcelain", "-p", "--line-porcelain", "--incremental", "-e", "--show-email", "-c",
                      "-t", "--date", "-s", "-n", "--show-number", "-f", "--show-name", "--root", "-b", "--score-debug"})


_PORCELAIN = frozenset({"--porcelain", "-p", "--line-porcelain"})
_PORCELAIN_HEAD = re.compile(r"^([0-9a-f]{40}|[0-9a-f]{64}) (\d+) (\d+)(?: (\d+))?$")
_PERSON = ("author", "author-mail", "author-time", "author-tz")
_COMMITTER = ("committer", "committer-mail", "committer-time", "committer-tz")
_KEYS = frozenset(_PERSON + _COMMITTER + ("summary", "previous", "boundary", "filename"))


def format_porcelain(text: str) -> str | None:
    """``git blame --porcelain`` / ``--line-porcelain`` nested as the default form is (see the
    module docstring); None at any line that is not part of that shape."""
    out: list[str] = []
    seen: set[str] = set()
    current = None       # the commit whose lines are being written
    filename = None      # the last filename written
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    i, n = 0, len(lines)
    if n == 0:
        return None
    while i < n:
        m = _PORCELAIN_HEAD.match(lines[i])
        if not m:
            return None
        sha, orig, final = m.group(1), m.group(2), m.group(3)
        i += 1
        keys: dict[str, str] = {}
        order: list[str] = []
        # (a line of only blanks comes as "" once terminal clean-up has cut trailing blanks)
        while i < n and lines[i] and not lines[i].startswith("\t"):
            key, sep, value = lines[i].partition(" ")
            if key not in _KEYS or key in keys or (not sep and key != "boundary"):
                return None
            keys[key] = value
            order.append(key)
            i += 1
        if i >= n:
            return None  # a header without its line: cut short
        content = lines[i][1:]
        i += 1
        if sha not in seen:
            if any(k not in keys for k in _PERSON + _COMMITTER + ("summary", "filename")):
                return None
            seen.add(sha)
            person = " ".join(keys[k] for k in _PERSON)
            committer = " ".join(keys[k] for k in _COMMITTER)
            same = [keys[a] for a in _PERSON] == [keys[c] for c in _COMMITTER]
            out.append(f"{sha} author {person}, committer {'same' if same else committer}")
            out.extend(f"{k} {keys[k]}".rstrip() for k in order if k in ("summary", "previous", "boundary"))
            if keys["filename"] != filename:
                filename = keys["filename"]
                out.append(f"filename {filename}")
            current = sha
        elif sha != current or ("filename" in keys and keys["filename"] != filename):
            head = sha[:12]
            if "filename" in keys and keys["filename"] != filename:
                filename = keys["filename"]
                head += f" filename {filename}"
            out.append(head)
            current = sha
        num = final if orig == final else f"{final}:{orig}"
        out.append(f" {num})" + (f" {content}" if content else ""))
    return "\n".join(out) + "\n"


def format_blame(request) -> str | None:
    """Group consecutive lines that share commit, file, author and date."""
    args = args_after(request, "blame")
    words = args[:args.index("--")] if "--" in args else args
    if any(a in _PORCELAIN for a in words):
        return None if "--incremental" in words else format_porcelain(request.text)
    for a in args:
        if a == "--":
            break
        if a.split("=", 1)[0] in _REFUSED:
            return None
    rows = []
    for line in request.text.splitlines():
        m = _LINE.match(line)
        if not m:
            return None
        rows.append(m)
    if not rows:
        return None
    out: list[str] = []
    key = None
    seen: dict[str, tuple] = {}
    for m in rows:
        k = (m.group("sha"), m.group("file"), m.group("who"), m.group("date"))
        if k != key:
            file_part = f" {m.group('file')}" if m.group("file") else ""
            if seen.get(k[0]) == k[2:]:
                out.append(f"{m.group('sha')}{file_part}")  # author and date given above
            else:
                out.append(f"{m.group('sha')}{file_part} ({m.group('who').rstrip()} {m.group('date')})")
                seen.setdefault(k[0], k[2:])
            key = k
        text = m.group("text")
        # one space of indent nests the line under its commit; no padding to align the numbers
        out.append(f" {m.group('num')})" + (f" {text}" if text is not None else ""))
    return "\n".join(out) + "\n"
