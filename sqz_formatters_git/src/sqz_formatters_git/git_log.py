"""``git log`` / ``git show`` commit listings → one line per commit header.

``commit <sha> (refs)`` + ``Author:`` + ``Date:`` become ``<sha12> (refs) <date> <author>: <subject>``
(a person's e-mail is written with their name the first time it appears, ``Dev <dev@example.org>:``,
and again only where that name comes with another address; the date as git printed it);
where two or more commits of a listing share a day (not ``--graph``), each day is written once,
in git's words, as a ``Sat Mar 2 2024 +0000:`` line before its first commit, and the headers
under it carry only the time of day; the last line names git's header fields (issue 25's word
rule: every word of every header line stays on the page);
further message lines follow indented by two; ``--stat`` blocks lose their bar graph, ``-p``
patches go through the diff formatter, ``--graph`` keeps every topology line. Custom
``--format``/``--pretty=format:`` output, ``--oneline`` (already one line per commit) and any
line that does not fit the named format → None.
"""

from __future__ import annotations

import re

from ._common import LISTINGS, args_after, compact_listing, compact_stat_block, option_names, person_name
from .git_diff import format_patch_lines

_COMMIT = re.compile(r"^commit ([0-9a-f]{40}|[0-9a-f]{64})(?: \((.+)\))?$")
_FIELD = re.compile(r"^(Merge|Author|Date|Commit|AuthorDate|CommitDate):\s+(.*)$")
_GRAPH_CHARS = frozenset("*|/\\_ .-")
_TOPOLOGY = frozenset("/\\_")
HASH_LEN = 12

# options whose output shape this module does not parse
_REFUSED = ("--format", "--pretty", "--oneline", "--raw", "--summary", "--word-diff", "--show-signature", "--source", "--line-prefix", "-z",
            "--dirstat", "--compact-summary", "--left-right", "--parents", "--children", "--notes",
            "--show-notes", "--cherry-mark", "--cherry", "--binary", "--patch-with-raw", "--patch-with-stat",
            "--color-words", "--word-diff-regex", "--check", "-L", "--show-linear-break", "--full-diff")
_NAMED_PRETTY = ("medium", "short", "full", "fuller")


# (``--first-parent`` is not among them: it lists a merge's files against its first parent, same shape)
_PATCH_OR_STAT = ("-p", "-u", "--patch", "--stat", "--shortstat", "-m", "--cc", "-c", "--diff-merges", "--graph")


def _listing(args: list[str]) -> str | None | bool:
    """The file listing asked for (``--name-status``, ``--name-only``, ``--numstat``), None for none,
    False for a mix this module does not parse (two listings, or one with a patch or stat)."""
    names = [a.split("=", 1)[0] for a in args[:args.index("--")] if a.startswith("-")] if "--" in args else [
        a.split("=", 1)[0] for a in args if a.startswith("-")]
    asked = [a for a in LISTINGS if a in names]
    if not asked:
        return None
    if len(asked) > 1 or any(a in names for a in _PATCH_OR_STAT):
        return False
    return asked[0]


def _format_ok(args: list[str]) -> bool:
    """False when an option asks for a shape this module does not parse (``--summary`` is one
    unless ``--stat`` comes with it: its create/delete/rename lines then follow each stat)."""
    with_stat = any(a == "--stat" or a.startswith("--stat=") for a in args)
    for a in args:
        if a == "--":
            break
        name, _, value = a.partition("=")
        if name == "--summary" and with_stat:
            continue
        if name in ("--pretty", "--format") and value in _NAMED_PRETTY:
            continue
        if name in _REFUSED or (name.startswith("-L") and len(name) > 2):
            return False
        if name.startswith("--pretty") or name.startswith("--format"):
            return False
    return True


_TIME = re.compile(r"(?<![\d:])\d{1,2}:\d{2}(?::\d{2})?(?:\.\d+)?(?![\d:])")


def split_date(value: str) -> tuple[str, str] | None:
    """A date as git printed it, cut into its day and its time of day, every word of it kept:
    ``Sat Mar 2 06:30:00 2024 +0000`` → (``Sat Mar 2 2024 +0000``, ``06:30:00``), ISO
    ``2024-03-02 06:30:00 +0000`` → (``2024-03-02 +0000``, ``06:30:00``). None when the value
    does not hold exactly one time of day (``3 days ago``, ``2024-03-02``): it then stays whole."""
    value = value.strip()
    times = _TIME.findall(value)
    if len(times) != 1:
        return None
    m = _TIME.search(value)
    if m.start() > 0 and not value[m.start() - 1].isspace() or m.end() < len(value) and not value[m.end()].isspace():
        return None  # glued to the day or zone (``2024-03-02T06:30:00+00:00``): kept whole
    day = " ".join((value[:m.start()] + " " + value[m.end():]).split())
    if not day:
        return None
    return day, m.group(0)


def _person(value: str, people: dict | None) -> str:
    """``Dev Example <dev@example.org>`` as ``Dev Example`` once ``people`` (name → address last
    written) has that address for the name, else whole (and noted in ``people``)."""
    name = person_name(value)
    if people is None:
        return name
    address = value.strip()[len(name):].strip()
    if not address or people.get(name) == address:
        return name
    people[name] = address
    return f"{name} {address}"


def _header_line(sha: str, refs: str | None, fields: dict, subject: str | None, dated: bool = True,
                 people: dict | None = None) -> str:
    """The one-line summary of a commit header (without its date when a day line gives it); ``people``:
    the addresses already written (see :func:`_person`)."""
    parts = [sha[:HASH_LEN]]
    if refs:
        parts.append(f"({refs})")
    date = fields.get("Date") or fields.get("AuthorDate")
    if date:
        # under a day line only the time of day is left to say (see :func:`split_date`)
        parts.append(date.strip() if dated else split_date(date)[1])
    author = fields.get("Author")
    if author:
        name = person_name(author)
        if ":" in name or name.startswith('"'):
            # `Bob: Smith: fix: x` would not say where the name ends and the subject starts
            name = '"' + name.replace("\\", "\\\\").replace('"', '\\"') + '"'
        parts.append(name + _person(author, people)[len(person_name(author)):] + ":")
    line = " ".join(parts)
    if subject is not None:
        line += " " + subject
    committer = fields.get("Commit")
    committed = []
    if committer and author and person_name(committer) != person_name(author):
        committed.append(f"by {_person(committer, people)}")
    when = fields.get("CommitDate", "").strip()
    if when and when != (date or "").strip():
        committed.append(when)  # fuller: a commit date of its own (a rebase, a cherry-pick) is a fact too
    if committed:
        line += f" [committed {' '.join(committed)}]"
    return line


# what ``str.splitlines`` cuts a line at (``\r\n`` is one break: no line starts between its two characters)
_BREAKS = "\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"
_BREAK = re.compile("[" + _BREAKS + "]")


def _commit_blocks(text: str) -> list[tuple[int, int]] | None:
    """(start, end) offsets in ``text`` of each commit block, a block from its commit line (one
    ``_COMMIT`` reads, a line as ``splitlines`` cuts it) to the next; None if the text does not start
    with one. Found by searching the text: a 10 MB log is split block by block, never into one list of
    its 280,000 lines."""
    starts = []
    at = text.find("commit ")
    while at >= 0:
        if at == 0 or text[at - 1] in _BREAKS:
            brk = _BREAK.search(text, at)
            if _COMMIT.match(text[at:brk.start() if brk else len(text)]):
                starts.append(at)
        at = text.find("commit ", at + 7)
    if not starts or starts[0] != 0:
        return None
    return list(zip(starts, starts[1:] + [len(text)]))


def _day(block: list[str]) -> str | None:
    """The day a commit block's header shows (``Sat Mar 2 2024 +0000``), or None when its date has
    no single time of day to split off (see :func:`split_date`)."""
    for line in block[1:]:
        if not line:
            break
        f = _FIELD.match(line)
        if f and f.group(1) in ("Date", "AuthorDate"):
            split = split_date(f.group(2))
            return split[0] if split else None
    return None


def _format_commit(block: list[str], dated: bool = True, listing: str | None = None,
                   people: dict | None = None) -> list[str] | None:
    """One commit block (header, message, optional stat or patch) compacted."""
    m = _COMMIT.match(block[0])
    sha, refs = m.group(1), m.group(2)
    fields: dict = {}
    i = 1
    while i < len(block) and block[i]:
        f = _FIELD.match(block[i])
        if not f or f.group(1) in fields:
            return None
        fields[f.group(1)] = f.group(2)
        i += 1
    if "Author" not in fields:
        return None
    message: list[str] = []
    while i < len(block) and (block[i] == "" or block[i].startswith("    ")):
        if block[i].strip():
            message.append(block[i][4:])
        i += 1
    rest = block[i:]
    while rest and rest[-1] == "":
        rest.pop()
    out = [_header_line(sha, refs, fields, message[0] if message else None, dated, people)]
    if "Merge" in fields:
        out.append(f"  Merge: {fields['Merge']}")
    out.extend("  " + x for x in message[1:])
    if not rest:
        return out
    if listing:
        if "" in rest:
            return None  # one block of file lines after the message
        files = compact_listing(rest, listing)
        if files is None:
            return None
        out.extend(files)
        return out
    if rest[0] == "---" and len(rest) > 1 and not rest[1].startswith("diff "):
        rest = rest[1:]  # `-p` with `--stat`: git's `---` line between the message and the stat
    if rest[0].startswith("diff "):
        patch = format_patch_lines(rest)
        if patch is None:
            return None
        out.extend(patch)
        return out
    stat_end = len(rest)
    for k, line in enumerate(rest):
        if line.startswith("diff "):
            stat_end = k
            break
    stat = compact_stat_block([x for x in rest[:stat_end] if x])
    if stat is None:
        return None
    out.extend(stat)
    if stat_end < len(rest):
        patch = format_patch_lines(rest[stat_end:])
        if patch is None:
            return None
        out.extend(patch)
    return out


def format_commits(text: str, listing: str | None = None) -> str | None:
    """A sequence of commits in the medium/short/full/fuller format, with optional stat/patch
    or file listing (``listing``: ``--name-status``, ``--name-only`` or ``--numstat``)."""
    spans = _commit_blocks(text)
    if spans is None:
        return None
    # the last commit first: a listing cut short (``| head -c``, a stat without its summary) is refused
    # before the rest is read (whether a block reads does not depend on the blocks before it)
    if _format_commit(text[spans[-1][0]:].splitlines(), listing=listing, people={}) is None:
        return None
    days = [_day(text[s:e].splitlines()) for s, e in spans]
    # a day line pays where a day has two commits or more; every date must be a plain day
    by_day = None not in days and len(set(days)) < len(days)
    out: list[str] = []  # a commit's lines joined: one string per commit, not one per line
    previous = None
    people: dict = {}
    fields: set[str] = set()  # git's header fields the listing shows (its last line names them)
    for (s, e), day in zip(spans, days):
        block = text[s:e].splitlines()
        fields.update(f.group(1) for x in block if x and not x[0].isspace() and (f := _FIELD.match(x)))
        part = _format_commit(block, dated=not by_day, listing=listing, people=people)
        if part is None:
            return None
        if by_day and day != previous:
            out.append(f"{day}:")
            previous = day
        out.append("\n".join(part))
    out.append(legend(fields))
    out.append("")
    return "\n".join(out)


_LEGEND_FIELDS = ("Author", "AuthorDate", "Date", "Commit", "CommitDate")


def legend(seen: set[str]) -> str:
    """The last line of a compacted listing: which of git's header fields (``seen``: those its commits
    carry) each commit line carries, in git's own words (``[commit hash, Author, Date]``), so a reader
    knows what the columns are and no word of git's header is lost."""
    return "[" + ", ".join(["commit hash"] + [n for n in _LEGEND_FIELDS if n in seen]) + "]"


def format_graph(text: str) -> str | None:
    """``--graph`` with a multi-line format: header fields folded, topology lines kept."""
    people: dict = {}
    lines = text.splitlines()
    out: list[str] = []
    width = None
    state = None  # "fields" | "message"
    pending: dict = {}
    header_index = -1
    for line in lines:
        pos = line.find("commit ")
        if pos >= 0 and set(line[:pos]) <= _GRAPH_CHARS and "*" in line[:pos]:
            m = _COMMIT.match(line[pos:])
            if not m:
                return None
            width = pos
            pending = {"sha": m.group(1), "refs": m.group(2), "fields": {}, "subject": None}
            out.append(line[:pos] + _header_line(m.group(1), m.group(2), {}, None))
            header_index = len(out) - 1
            state = "fields"
            continue
        if width is None:
            return None
        graph, body = line[:width], line[width:]
        if not set(graph) <= _GRAPH_CHARS:
            return None
        if state == "fields" and body:
            f = _FIELD.match(body)
            if not f:
                return None
            pending["fields"][f.group(1)] = f.group(2)
            if f.group(1) == "Merge":
                out.append(graph + f"Merge: {f.group(2)}")
            elif _TOPOLOGY & set(graph):
                out.append(graph.rstrip())
            continue
        if not body.strip():
            if state == "fields":
                state = "message"
            if _TOPOLOGY & set(line):
                out.append(line.rstrip())
            continue
        if state == "message" and body.startswith("    "):
            if pending["subject"] is None:
                pending["subject"] = body[4:]
                graph0 = out[header_index][:width]
                out[header_index] = graph0 + _header_line(pending["sha"], pending["refs"], pending["fields"],
                                                          pending["subject"], people=people)
            else:
                out.append(graph + "  " + body[4:])
            continue
        if set(line) <= _GRAPH_CHARS:
            out.append(line.rstrip())
            continue
        return None
    if header_index < 0:
        return None
    return "\n".join(out) + "\n"


_ONELINE_HEAD = re.compile(r"^[0-9a-f]{7,64}(?: .*)?$")
_ONELINE_OK = frozenset(("--oneline", "--stat", "--shortstat", "--name-status", "--numstat", "--name-only",
                         "--no-merges", "--merges",
                         "--first-parent", "--all", "--decorate", "--no-decorate", "--reverse", "--author", "--since",
                         "--until", "--after", "--before", "--grep", "-n", "--max-count", "--skip", "--abbrev",
                         "--abbrev-commit", "--no-renames", "-M", "--find-renames", "--date-order", "--topo-order",
                         "--no-color", "--relative", "--follow", "--diff-filter", "-i", "--regexp-ignore-case",
                         "--invert-grep", "--all-match", "--branches", "--tags", "--remotes", "--stat-width",
                         "--stat-name-width", "--stat-count", "--stat-graph-width"))


def format_oneline_files(text: str, kind: str) -> str | None:
    """``--oneline`` with ``--stat``/``--shortstat``/``--name-status``/``--numstat``: each commit's
    line as git wrote it, its file lines compacted as in the long format. A line that is neither
    a commit line nor a file line of ``kind`` → None."""
    lines = text.splitlines()
    if not lines or not _ONELINE_HEAD.match(lines[0]):
        return None
    stat = kind in ("--stat", "--shortstat")

    def is_entry(line: str) -> bool:
        if stat:
            return line.startswith(" ")
        if kind == "--name-only":
            return True  # (one commit only: every line after its own is a path)
        return compact_listing([line], kind) is not None

    out: list[str] = [lines[0]]
    block: list[str] = []
    for line in lines[1:] + [None]:
        if line is not None and is_entry(line):
            block.append(line)
            continue
        if block:
            files = compact_stat_block(block) if stat else compact_listing(block, kind)
            if files is None:
                return None
            out.extend(files)
            block = []
        if line is None:
            break
        if not _ONELINE_HEAD.match(line):
            return None
        out.append(line)
    return "\n".join(out) + "\n"


def _oneline_kind(args: list[str], forms: tuple = ("--stat", "--shortstat", "--name-status", "--numstat")) -> str | None:
    """The file form asked with ``--oneline`` (one of ``forms``), or None when the options ask
    for anything else (or for no file form)."""
    names = option_names(args)
    if "--oneline" not in names or any(n not in _ONELINE_OK and not re.fullmatch(r"-\d+", n) for n in names):
        return None
    kinds = [n for n in ("--stat", "--shortstat", "--name-status", "--numstat", "--name-only") if n in names]
    return kinds[0] if len(kinds) == 1 and kinds[0] in forms else None


def format_log(request) -> str | None:
    """``git log`` in the forms listed in the module docstring."""
    args = args_after(request, "log")
    kind = _oneline_kind(args)
    if kind is not None:
        return format_oneline_files(request.text, kind)
    listing = _listing(args)
    if not _format_ok(args) or listing is False:
        return None
    if "--graph" in args:
        if any(a in args for a in ("-p", "-u", "--patch", "--stat")) or any(a.startswith("--stat=") for a in args):
            return None
        return format_graph(request.text)
    return format_commits(request.text, listing)


def format_show(request) -> str | None:
    """``git show`` of commits (header + patch or stat); tags, trees and blobs → None."""
    args = args_after(request, "show")
    revs = [a for a in args[:args.index("--")] if not a.startswith("-")] if "--" in args else [
        a for a in args if not a.startswith("-")]
    single = len(revs) <= 1 and not any(".." in r for r in revs)
    kind = _oneline_kind(args, ("--stat", "--shortstat", "--name-status", "--numstat")
                         + (("--name-only",) if single else ()))
    if kind is not None:
        return format_oneline_files(request.text, kind)
    listing = _listing(args)
    if not _format_ok(args) or listing is False:
        return None
    text = request.text
    if text.startswith("tag "):
        # an annotated tag: its own header and message stay as git wrote them, the commit it
        # points to follows as in a log (a tag of a tree or a blob has no commit line: None)
        lines = text.splitlines()
        start = next((k for k, x in enumerate(lines) if _COMMIT.match(x)), None)
        if start is None or len(lines) < 2 or not lines[1].startswith("Tagger: "):
            return None
        commits = format_commits("\n".join(lines[start:]) + "\n", listing)
        return None if commits is None else "\n".join(lines[:start]) + "\n" + commits
    return format_commits(text, listing)


_MBOX_FROM = re.compile(r"^From [0-9a-f]{40} Mon Sep 17 00:00:00 2001$")


def _format_one_patch_mail(lines: list[str]) -> list[str] | None:
    """One ``format-patch`` mail: header and message verbatim up to ``---``, then the diffstat
    compacted, the patch as in ``git diff``, the ``-- `` signature verbatim."""
    try:
        sep = lines.index("---")
    except ValueError:
        return None
    try:
        sig = len(lines) - 1 - lines[::-1].index("-- ")
    except ValueError:
        return None
    body = lines[sep + 1:sig]
    try:
        blank = body.index("")
    except ValueError:
        return None
    stat = compact_stat_block(body[:blank])
    patch = format_patch_lines(body[blank + 1:])
    if stat is None or patch is None:
        return None
    return lines[:sep + 1] + stat + [""] + patch + lines[sig:]


def format_format_patch(request) -> str | None:
    """``git format-patch --stdout``: each mail as :func:`_format_one_patch_mail`; other output
    (file names written, no ``--stdout``) → None."""
    args = args_after(request, "format-patch")
    if "--stdout" not in args or any(a.split("=", 1)[0] in ("--no-stat", "--numstat", "--cover-letter", "--attach",
                                                            "--inline", "--binary", "--no-binary")
                                     or a.startswith("--stat") for a in args):
        return None
    lines = request.text.splitlines()
    starts = [k for k, x in enumerate(lines) if _MBOX_FROM.match(x)]
    if not starts or starts[0] != 0:
        return None
    out: list[str] = []
    for s, e in zip(starts, starts[1:] + [len(lines)]):
        mail = lines[s:e]
        while mail and mail[-1] == "":
            mail.pop()
        part = _format_one_patch_mail(mail)
        if part is None:
            return None
        out.extend(part + ([""] if e < len(lines) else []))
    return "\n".join(out) + "\n"


_FIRST_BAD = re.compile(r"^([0-9a-f]{40}|[0-9a-f]{64}) is the first bad commit$")
_BISECT_DONE = "bisect found first bad commit"


def format_bisect(request) -> str | None:
    """``git bisect`` (``run``, ``good``, ``bad``) once it names the first bad commit: every line
    up to ``<sha> is the first bad commit`` verbatim, the commit it shows (header, message,
    stat) compacted as in a log, ``bisect found first bad commit`` verbatim. Before that (a
    bisection still going) → None."""
    lines = request.text.splitlines()
    found = [k for k, x in enumerate(lines) if _FIRST_BAD.match(x)]
    if len(found) != 1:
        return None
    k = found[0]
    sha = _FIRST_BAD.match(lines[k]).group(1)
    if k + 1 >= len(lines) or lines[k + 1] != f"commit {sha}":
        return None
    end = len(lines)
    if lines[-1] == _BISECT_DONE:
        end -= 1
    commit = format_commits("\n".join(lines[k + 1:end]) + "\n")
    if commit is None:
        return None
    return "\n".join(lines[:k + 1]) + "\n" + commit + "".join(x + "\n" for x in lines[end:])
