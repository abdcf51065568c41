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


GROUP_MIN = 2  # a directory is written once when it holds this many files of one stat block


def _stat_dir(path: str) -> str:
    """The directory a diffstat path is grouped under (with its slash), or "" for none."""
    head, sep, name = path.rpartition("/")
    if (not sep or not head or head == "..." or not name or "=>" in path or "{" in path or path.startswith('"')
            or "," in name or ": " in head):
        # top-level file, rename (``{a => b}``), a quoted path, one git cut to ``.../name``
        # (its directory unknown), or a name/directory that would blur the ``dir/: a 1, b 2``
        # separators: written whole
        return ""
    return head + "/"


def group_stat_entries(entries: list[tuple[str, str]]) -> list[str]:
    """Diffstat entries grouped by directory: `` dir/: name count name count`` (``, `` between
    pairs when a name has a space or a count is ``Bin …``).

    Lines keep git's one-space indent (a log's commit lines stand out against them).

    A directory with at least ``GROUP_MIN`` files of the block is written once, where git
    first lists it; other files stay ``path count``. Every path stays on the page (its
    directory and name on one line) with its count; renames and top-level files are
    written whole.
    """
    sizes: dict[str, int] = {}
    for path, _ in entries:
        d = _stat_dir(path)
        sizes[d] = sizes.get(d, 0) + 1
    out: list[str] = []
    where: dict[str, int] = {}
    items: dict[str, list[str]] = {}
    for path, count in entries:
        d = _stat_dir(path)
        if d and sizes[d] >= GROUP_MIN:
            if d not in where:
                where[d] = len(out)
                out.append("")
                items[d] = []
            items[d].append(f"{path[len(d):]} {count}")
        else:
            if "/: " in f"{path} " and not path.startswith('"'):
                # `` a/: b 1`` would read as a group of directory a/: git's double quotes keep it one path
                path = '"' + path.replace("\\", "\\\\").replace('"', '\\"') + '"'
            out.append(f" {path} {count}")
    for d, i in where.items():
        # `name count name count`: unambiguous while names have no space and counts are numbers
        plain = all(" " not in x.rpartition(" ")[0] and x.rpartition(" ")[2].isdigit() for x in items[d])
        out[i] = f" {d}: " + (" " if plain else ", ").join(items[d])
    return out


def compact_stat_block(lines: list[str]) -> list[str] | None:
    """A whole ``--stat`` block (file lines, summary, mode lines) compacted, or None if it is not one.

    File lines are grouped by directory (:func:`group_stat_entries`); the summary and mode
    lines follow verbatim.
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
    return group_stat_entries(entries) + rest


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


def group_paths(entries: list[tuple[str, str, str]]) -> list[str]:
    """File entries ``(lead, path, tail)`` grouped by ``lead`` and directory: `` M docs/: a.rst b.rst``.

    A (lead, directory) pair holding ``GROUP_MIN`` entries or more is written once, where git
    first lists one of them, followed by each name with its tail (``name 3 1``); items are
    joined by a space (a tail is one form for a whole listing, as ``3 1`` in ``--numstat``, so
    each item still reads name first), or by ``, `` when a name has a space. Every other entry is
    written whole (`` M README.md``, `` src/app.py 3 1``); the directory rules are the stat's
    (:func:`_stat_dir`: renames, quoted paths, ``.../`` cuts and names that would blur the
    separators are never grouped).
    """
    def key(lead: str, path: str) -> tuple[str, str]:
        # (a rename's `old<TAB>new` or status's `old -> new`: whole; so is a name that would
        # read as one next to another, `a, -> b`)
        if "\t" in path or " -> " in path:
            return lead, ""
        d = _stat_dir(path)
        return lead, ("" if " -> " in f" {path[len(d):]} " else d)

    sizes: dict[tuple[str, str], int] = {}
    for lead, path, _ in entries:
        k = key(lead, path)
        sizes[k] = sizes.get(k, 0) + 1
    out: list[str] = []
    where: dict[tuple[str, str], int] = {}
    items: dict[tuple[str, str], list[str]] = {}
    spaced: set = set()  # groups with a name holding a space
    for lead, path, tail in entries:
        k = key(lead, path)
        lead_text = f"{lead} " if lead else ""
        if k[1] and sizes[k] >= GROUP_MIN:
            if k not in where:
                where[k] = len(out)
                out.append("")
                items[k] = []
            items[k].append(path[len(k[1]):] + (f" {tail}" if tail else ""))
            if " " in path[len(k[1]):]:
                spaced.add(k)
            continue
        if "/: " in f"{path} " and not path.startswith('"') and "\t" not in path:
            # ` a/: b` would read as a group of directory a/: git's double quotes keep it one path
            # (a line holding a tab is a rename's, never a group)
            path = '"' + path.replace("\\", "\\\\").replace('"', '\\"') + '"'
        out.append(f" {lead_text}{path}" + (f" {tail}" if tail else ""))
    for (lead, d), i in where.items():
        out[i] = f" {lead + ' ' if lead else ''}{d}: " + (", " if (lead, d) in spaced else " ").join(items[(lead, d)])
    return out


def compact_listing(lines: list[str], kind: str) -> list[str] | None:
    """A whole ``--name-status``/``--name-only``/``--numstat`` block grouped (:func:`group_paths`),
    or None when a line is not of that kind. A rename or copy (``R087``/``C100`` with two paths)
    is written whole, its two paths apart by git's tab."""
    if not lines:
        return None
    entries: list[tuple[str, str, str]] = []
    for line in lines:
        if kind == "--name-status":
            m = _NAME_STATUS.match(line)
            if not m or (m.group("dest") is None) != (m.group("status")[0] not in "RC"):
                return None
            path = m.group("path") + (f"\t{m.group('dest')}" if m.group("dest") is not None else "")
            entries.append((m.group("status"), path, ""))
        elif kind == "--numstat":
            m = _NUMSTAT.match(line)
            if not m:
                return None
            entries.append(("", m.group("path"), f"{m.group('added')} {m.group('deleted')}"))
        elif kind == "--name-only":
            if not line or line != line.strip() or "\t" in line:
                return None
            entries.append(("", line, ""))
        else:
            return None
    return group_paths(entries)
