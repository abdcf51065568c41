"""Helpers shared by the git formatters: argument access, diffstat lines, commit headers."""

from __future__ import annotations

import re

# ` path/to/file | 12 +++---`, ` logo.png | Bin 0 -> 1024 bytes`
_STAT_LINE = re.compile(r"^ (?P<path>\S.*?)\s+\|\s+(?P<count>\d+)(?: (?P<bar>[+-]+))?$")
_STAT_BIN = re.compile(r"^ (?P<path>\S.*?)\s+\|\s+(?P<bin>Bin(?: \d+ -> \d+ bytes)?)$")
_STAT_SUMMARY = re.compile(
    r"^ \d+ files? changed(?:, \d+ insertions?\(\+\))?(?:, \d+ deletions?\(-\))?$")
_MODE_LINE = re.compile(r"^ (?:create|delete) mode \d{6} .+$|^ mode change \d{6} => \d{6} .+$|^ (?:rename|copy) .+ \(\d+%\)$")

# Date as git prints it by default: `Sun Mar 3 14:14:00 2024 +0000`
_MONTHS = {m: i + 1 for i, m in enumerate("Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec".split())}
_DEFAULT_DATE = re.compile(r"^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) (\w{3}) (\d{1,2}) \d\d:\d\d:\d\d (\d{4}) [+-]\d{4}$")
_ISO_DATE = re.compile(r"^(\d{4}-\d\d-\d\d)[ T]\d\d:\d\d(?::\d\d)?(?: ?[+-]\d\d:?\d\d|Z)?$")
_PERSON = re.compile(r"^(?P<name>.*?) <[^<>]*>$")


def args_after(request, word: str) -> list[str]:
    """The command's words after the first occurrence of ``word`` (the subcommand)."""
    argv = list(request.argv[1:])
    i = 0
    while i < len(argv):
        a = argv[i]
        if a in ("-C", "-c", "--git-dir", "--work-tree", "--namespace"):
            i += 2
            continue
        if a == word:
            return argv[i + 1:]
        i += 1
    return []


def option_names(args: list[str]) -> list[str]:
    """Option words only (``--stat=80`` → ``--stat``), stopping at ``--``."""
    out = []
    for a in args:
        if a == "--":
            break
        if a.startswith("-") and a != "-":
            out.append(a.split("=", 1)[0])
    return out


def is_stat_line(line: str) -> bool:
    return bool(_STAT_LINE.match(line) or _STAT_BIN.match(line))


def is_stat_summary(line: str) -> bool:
    return bool(_STAT_SUMMARY.match(line))


def is_mode_line(line: str) -> bool:
    return bool(_MODE_LINE.match(line))


def compact_stat_line(line: str) -> str:
    """Drop the alignment padding and the +/- bar of a diffstat line; keep path and count."""
    m = _STAT_LINE.match(line)
    if m:
        return f" {m.group('path')} | {m.group('count')}"
    m = _STAT_BIN.match(line)
    if m:
        return f" {m.group('path')} | {m.group('bin')}"
    return line


def _stat_entry(line: str) -> tuple[str, str] | None:
    """(path, count or ``Bin …``) of a diffstat file line, or None."""
    m = _STAT_LINE.match(line)
    if m:
        return m.group("path"), m.group("count")
    m = _STAT_BIN.match(line)
    if m:
        return m.group("path"), m.group("bin")
    return None


def _stat_dir(path: str) -> str:
    """The directory a path is listed under (with its slash), or "" for a top-level file, a rename
    (``{a => b}``), a quoted path or one git cut to ``.../name`` (its directory unknown)."""
    head, sep, name = path.rpartition("/")
    if not sep or not head or head == "..." or not name or "=>" in path or "{" in path or path.startswith('"'):
        return ""
    return head + "/"


def stat_lines(entries: list[tuple[str, str]]) -> list[str]:
    """Diffstat entries, each path whole with its count, one directory a line: `` src/a.py 12 src/b.py 3``
    (issue 25: a path is one word; a file grouped under its directory lost it). The alignment
    padding, the ``|`` and the +/- bar go. A line stands where git first lists one of its files; a
    name with a blank goes in double quotes (:func:`quote_item`), so items read as path, count, path,
    count; a rename (``{a => b}``, ``a => b``) or a binary file (``Bin 0 -> 1024 bytes``) keeps a line
    of its own as git wrote it. Lines keep git's one-space indent (a log's commit lines stand out)."""
    out: list[str] = []
    where: dict[str, int] = {}
    items: dict[str, list[str]] = {}
    for path, count in entries:
        if "=>" in path or not count.isdigit():
            out.append(f" {path} {count}")
            continue
        item = quote_item(path)
        d = _stat_dir(item[1:-1] if item.startswith('"') else item)
        if d not in where:
            where[d] = len(out)
            out.append("")
            items[d] = []
        items[d].append(f"{item} {count}")
    for d, i in where.items():
        out[i] = " " + " ".join(items[d])
    return out


def compact_stat_block(lines: list[str]) -> list[str] | None:
    """A whole ``--stat`` block (file lines, summary, mode lines) compacted, or None if it is not one.

    File lines as :func:`stat_lines`; the summary and mode lines follow verbatim.
    """
    if not lines or not any(is_stat_summary(x) for x in lines):
        return None
    entries: list[tuple[str, str]] = []
    rest: list[str] = []
    for line in lines:
        entry = _stat_entry(line)
        if entry is not None:
            if rest:
                return None  # file lines after the summary: not one block
            entries.append(entry)
        elif is_stat_summary(line) or is_mode_line(line):
            rest.append(line)
        else:
            return None
    return stat_lines(entries) + rest


def short_date(value: str) -> str:
    """``Sun Mar 3 14:14:00 2024 +0000`` or ISO → ``2024-03-03``; any other form is kept as printed."""
    value = value.strip()
    m = _DEFAULT_DATE.match(value)
    if m and m.group(1) in _MONTHS:
        return f"{m.group(3)}-{_MONTHS[m.group(1)]:02d}-{int(m.group(2)):02d}"
    m = _ISO_DATE.match(value)
    if m:
        return m.group(1)
    return value


def person_name(value: str) -> str:
    """``Dev Example <dev@example.org>`` → ``Dev Example``."""
    m = _PERSON.match(value.strip())
    return m.group("name") if m else value.strip()


# ----------------------------------------------------------------------------- file listings
# `--name-status`, `--name-only`, `--numstat` (in `log`, `show`, `diff`): one file a line, as git
# writes them (a name git had to quote stays in its double quotes, so a tab is never inside one)
_NAME_STATUS = re.compile(r"^(?P<status>[AMDTUXB]|[RC]\d{1,3})\t(?P<path>[^\t]+)(?:\t(?P<dest>[^\t]+))?$")
_NUMSTAT = re.compile(r"^(?P<added>\d+|-)\t(?P<deleted>\d+|-)\t(?P<path>[^\t]+)$")
LISTINGS = ("--name-status", "--name-only", "--numstat")


def quote_item(path: str) -> str:
    """``path`` as one blank-free item of a line: in git's double quotes when it holds a blank (as
    git's short status writes ``"a b.txt"``), an arrow (``->``: a rename is ``old -> new``) or
    starts with a quote; one git already quoted stays."""
    if len(path) >= 2 and path[0] == '"' == path[-1]:
        return path
    if not path or path.startswith('"') or "->" in path or any(c.isspace() for c in path):
        return '"' + path.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return path


def _bare_blank(item: str) -> bool:
    """Whether ``item`` holds a blank outside git's double quotes (a rename's `` -> ``, a note).

    A quoted part is a ``"`` up to the next ``"`` not escaped by a backslash, read left to right as a
    search for ``"(?:[^"\\]|\\.)*"`` would; an opening quote with no close is a plain character. Linear
    in the item (that search restarts at every unclosed quote: quadratic on ``\\"`` repeated): where the
    quoted part opened at each position closes is found once, from the right.
    """
    n = len(item)
    close = [-1] * (n + 2)  # close[p]: index of the '"' that ends a quoted part whose body starts at p
    for p in range(n - 1, -1, -1):
        ch = item[p]
        if ch == '"':
            close[p] = p
        elif ch == "\\":
            close[p] = close[p + 2] if p + 1 < n else -1
        else:
            close[p] = close[p + 1]
    i = 0
    while i < n:
        ch = item[i]
        if ch == '"' and close[i + 1] >= 0:
            i = close[i + 1] + 1
            continue
        if ch.isspace():
            return True
        i += 1
    return False


def group_paths(entries: list[tuple[str, str]]) -> list[str]:
    """File entries ``(lead, item)`` one (lead, directory) a line, every path whole and apart by a
    space: `` M docs/a.rst docs/b.rst`` (issue 25: a path is one word; a name written under its
    directory lost it). Items are blank-free (:func:`quote_item`); one that is not (a rename's
    ``old<TAB>new`` or ``old -> new``) keeps a line of its own. The lead is said once a line; a
    line stands where git first lists one of its entries.
    """
    out: list[str] = []
    where: dict[tuple[str, str], int] = {}
    items: dict[tuple[str, str], list[str]] = {}
    for lead, item in entries:
        if _bare_blank(item):
            out.append(f" {lead + ' ' if lead else ''}{item}")
            continue
        k = (lead, _stat_dir(item[1:-1] if item.startswith('"') else item))  # a quoted name groups by its directory too
        if k not in where:
            where[k] = len(out)
            out.append("")
            items[k] = []
        items[k].append(item)
    for k, i in where.items():
        out[i] = f" {k[0] + ' ' if k[0] else ''}" + " ".join(items[k])
    return out


def compact_listing(lines: list[str], kind: str) -> list[str] | None:
    """A whole ``--name-status``/``--name-only`` block grouped (:func:`group_paths`), or None when a
    line is not of that kind. A rename or copy (``R087``/``C100`` with two paths) is written whole,
    its two paths apart by git's tab. ``--numstat`` keeps a line a file, `` path 3 1`` (as short as
    git's ``3<TAB>1<TAB>path``: no rendering that keeps each path whole with its counts is shorter)."""
    if not lines:
        return None
    entries: list[tuple[str, str]] = []
    for line in lines:
        if kind == "--name-status":
            m = _NAME_STATUS.match(line)
            if not m or (m.group("dest") is None) != (m.group("status")[0] not in "RC"):
                return None
            dest = m.group("dest")
            entries.append((m.group("status"), m.group("path") + f"\t{dest}" if dest is not None else quote_item(m.group("path"))))
        elif kind == "--numstat":
            m = _NUMSTAT.match(line)
            if not m:
                return None
            entries.append(("", f" {m.group('path')} {m.group('added')} {m.group('deleted')}"))
        elif kind == "--name-only":
            if not line or line != line.strip() or "\t" in line:
                return None
            entries.append(("", quote_item(line)))
        else:
            return None
    return [x[1] for x in entries] if kind == "--numstat" else group_paths(entries)
