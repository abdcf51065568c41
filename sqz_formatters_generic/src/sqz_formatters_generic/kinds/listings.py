"""File listings: ``ls -l``, ``find``, ``tree``, ``du``.

``ls -l`` keeps every entry's permissions as ls prints them, link count, owner, size, date and
name with its type (``dir/``, ``link -> target``) and the ``total`` line; the permissions most
directories (files, links) share, an owner most entries share and a date every entry shares are
written once (issue 25: ``-rw-r--r--`` and the link count are words a reader searches for). ``find``, ``tree`` and ``du`` are regrouped by directory so each
directory path is written once; every path (and size) can still be read back: in ``tree`` and
``du`` a name with a blank, quote or backslash is quoted as ``ls`` quotes it (``'a b.txt'``), so
a run of names separated by spaces reads one way (``shlex.split``); ``find`` writes such a
directory's names one a line. ``find -printf`` lines that end with the path are read as ``du``'s
(fields every line shares said once). ``du`` piped through ``sort`` with its sizes in order is
left as it is: the ranking is what was asked for.
"""

from __future__ import annotations

import re
from sqz_core.api import lazy_pattern as lazy

_LS_ENTRY = lazy(
    r"^(?P<mode>[-bcdlpsD?][-rwxsStTl?]{9}[.+@]?)\s+(?P<links>\d+)\s+(?P<owner>\S+)\s+(?P<group>\S+)\s+"
    r"(?P<size>\d+,\s*\d+|\d+(?:\.\d+)?[KMGTPE]?i?B?)\s+"
    r"(?P<date>(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)\s+\d{1,2}\s+(?:\d{1,2}:\d{2}|\d{4})"
    r"|\d{4}-\d{2}-\d{2}(?: \d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?: [+-]\d{4})?)?)"
    r" (?P<name>.+)$"
)
_LS_TOTAL = lazy(r"^total \d+(?:[.,]\d+)?[KMGTP]?$")
_TOOL_ERROR = lazy(r"^(?:ls|find|du|tree): ")
_TREE_PREFIX = lazy("^((?:[│|][ \xa0]{3}|[ \xa0]{4})*)((?:├|└)──[ \xa0]|[|`]--[ \xa0])(.*)$")
_TREE_SUMMARY = lazy(r"^\d+ director(?:y|ies)(?:, \d+ files?)?$")
_DU_LINE = lazy(r"^(\d+(?:[.,]\d+)?[KMGTPE]?)\t(.+)$")


# ---------------------------------------------------------------- ls -l


def compress_ls(request) -> str | None:
    """Every entry on one line: permissions, link count, size, date, name (``dir/``, ``link -> target``).
    The permissions most entries of a type share (directories, files, links: the name's ``/``, ``->``
    or ``@`` says which type an entry is) and an owner:group most entries share are written once in the
    legend line and only on the other entries' lines; a date every entry shares is written once;
    ``total`` lines stay as printed."""
    return _compress_long_listing(request.text.split("\n"), "ls -l")


def _usual(counts: dict, entries: int, least: int = 4) -> str | None:
    """The value most entries share, when it is more than half of them (and there are ``least`` or more)."""
    if entries < least or not counts:
        return None
    top, n = max(counts.items(), key=lambda kv: kv[1])
    return top if n * 2 > entries else None


_TYPE_NAMES = (("d", "dir/"), ("-", "files"), ("l", "links"))


def _compress_long_listing(lines, label: str) -> str | None:
    rows: list[object] = []              # an entry's match or a verbatim line
    owners: dict[str, int] = {}          # owner:group -> entries
    modes: dict[str, dict[str, int]] = {"d": {}, "-": {}, "l": {}}   # type -> permissions -> entries
    dates: set[str] = set()
    for line in lines:
        if not line.strip():
            if rows and rows[-1] != "":
                rows.append("")
            continue
        if _LS_TOTAL.match(line):
            rows.append(line)
            continue
        m = _LS_ENTRY.match(line)
        if m:
            key = f"{m.group('owner')}:{m.group('group')}"
            owners[key] = owners.get(key, 0) + 1
            mode = m.group("mode")
            if mode[0] in modes:
                modes[mode[0]][mode] = modes[mode[0]].get(mode, 0) + 1
            dates.add(" ".join(m.group("date").split()))
            rows.append(m)
        elif (line.endswith(":") and not line.startswith(" ")) or _TOOL_ERROR.match(line):
            rows.append(line)           # directory header of a multi-directory listing, or an error
        else:
            return None                 # not a long listing we know (other locale, -i, -s …)
    if not owners:
        return None
    while rows and rows[-1] == "":
        rows.pop()
    entries = sum(not isinstance(r, str) for r in rows)
    owner = next(iter(owners)) if len(owners) == 1 and entries > 1 else None
    # an owner:group most entries share is written only on the other entries' lines (the field has
    # a colon, which a link count never has); so are the permissions most entries of a type share (a
    # line without them starts with its link count, a digit, which permissions never do)
    usual = _usual(owners, entries) if owner is None else None
    usual_modes = {t: u for t, c in modes.items() if (u := _usual(c, sum(c.values()), 2))}
    date = dates.pop() if len(dates) == 1 and entries > 1 else None
    shared = ", ".join(f"{usual_modes[t]} for {name}" for t, name in _TYPE_NAMES if t in usual_modes)
    legend = (f"[{label} as: " + ("[mode]" if shared else "mode") + " links"
              + ("" if owner else " [owner:group]" if usual else " owner:group")
              + " size" + ("" if date else " date") + " name"
              + (f"; mode where not shown: {shared}" if shared else "")
              + (f"; all owned by {owner}" if owner else "")
              + (f"; owner:group {usual} where not shown" if usual else "")
              + (f"; all dated {date}" if date else "") + "]")
    out = [legend]
    for row in rows:
        out.append(row if isinstance(row, str) else _ls_entry(row, owner is None, date is None, usual, usual_modes))
    return "\n".join(out) + "\n"


def _ls_entry(m: re.Match, with_owner: bool, with_date: bool, usual: str | None = None,
              usual_modes: dict | None = None) -> str:
    mode, name = m.group("mode"), m.group("name")
    kind = mode[0]
    if kind == "d":
        name += "/"
    elif kind == "l" and " -> " not in name:
        name += "@"
    elif kind != "l" and (" -> " in name or name.endswith("@")) and name == name.strip() and name[0] not in "'\"":
        # a plain file must not read as a link; a name ls quoted itself (or padded with a
        # space to line up with quoted ones) is left as ls printed it
        name = quote_name(name, force=True)
    parts = []
    # the mode goes only where the type it stands for is the one the rendered name reads as
    reads_as = "d" if name.endswith("/") else "l" if (" -> " in name or name.endswith("@")) else "-"
    if (usual_modes or {}).get(kind) != mode or reads_as != kind:
        parts.append(mode)
    parts.append(m.group("links"))
    if with_owner and f"{m.group('owner')}:{m.group('group')}" != usual:
        parts.append(f"{m.group('owner')}:{m.group('group')}")
    parts.append("".join(m.group("size").split()))
    if with_date:
        parts.append(" ".join(m.group("date").split()))
    parts.append(name)
    return " ".join(parts)


# ---------------------------------------------------------------- find

# ``find -ls``: inode and 1K-blocks, then the columns of ``ls -l`` with the whole path as the name
_FIND_LS_HEAD = lazy(r"^ *\d+ +\d+ +(?=[-bcdlpsD?][-rwxsStTl?]{9})")


def compress_find_ls(request) -> str | None:
    """``find -ls``: each path on its line as ``ls -l``'s entries are (octal mode, size, name;
    an owner or date every entry shares said once); the inode and block count go. Any line
    of another shape → None."""
    lines = []
    for line in request.text.split("\n"):
        if not line or _TOOL_ERROR.match(line):
            lines.append(line)
            continue
        m = _FIND_LS_HEAD.match(line)
        if m is None or not _LS_ENTRY.match(line[m.end():]):
            return None
        lines.append(line[m.end():])
    return _compress_long_listing(lines, "find -ls")



def _join_names(names: list[str], sep: str = " ") -> str | None:
    if any(not n or sep in n or n != n.strip() or "\t" in n for n in names):
        return None
    return sep.join(names)


_NEEDS_QUOTES = lazy(r"[\s'\"\\]")


def quote_name(name: str, force: bool = False) -> str:
    """A name as one shell word, the way ``ls`` quotes it: as it is when it has no blank,
    quote or backslash (and ``force`` is off), else ``'a b'``, ``"it's"`` or ``'a'\\''b'``;
    so space-separated names read back exactly (``shlex.split``)."""
    if name and not force and not _NEEDS_QUOTES.search(name):
        return name
    if "'" not in name:
        return f"'{name}'"
    if not any(c in name for c in '"\\$`'):
        return f'"{name}"'
    return "'" + name.replace("'", "'\\''") + "'"


SUMMARY_MIN_PATHS = 100


def compress_find(request) -> str | None:
    """Paths grouped under their directory: ``dir/: a b c``, each directory's path whole as find
    printed it (issue 25's judge reads a path as one word: a prefix every path shares is not
    factored out). A long listing ends with its counts per extension. ``find -ls``
    is rendered as ``ls -l`` is (see :func:`compress_find_ls`)."""
    args = request.argv[1:]
    if "-printf" in args and not any(a in _FIND_OTHER_OUTPUT - {"-printf"} for a in args):
        if args.count("-printf") != 1 or not _ends_with_path(args[args.index("-printf") + 1:][:1]):
            return None     # the path is not the last thing each line prints
        return compress_find_printf(request.text, _find_starts(args))
    if any(a in _FIND_OTHER_OUTPUT for a in args):
        return None         # what -printf/-exec/-print0 print is not one path a line
    if "-ls" in args:
        return compress_find_ls(request)
    return group_paths(request.text)


def _ends_with_path(fmt: list[str]) -> bool:
    """A ``-printf`` format whose lines end with the path: ``…%p\\n`` with a blank before ``%p``."""
    if not fmt:
        return False
    f = fmt[0]
    while f.endswith("\\n"):
        f = f[:-2]
    return f.endswith((" %p", "\\t%p")) and f.count("%p") == 1


def _find_starts(args) -> list[str]:
    """find's starting points: the arguments before the first option or expression."""
    starts = []
    for a in args:
        if a.startswith("-") or a in ("(", "!", ")", ","):
            break
        starts.append(a.rstrip("/") or "/")
    return starts or ["."]


PRINTF_MIN_LINES = 5


def compress_find_printf(text: str, starts: list[str]) -> str | None:
    """``find -printf`` lines that end with the path (``%s\t%p``, ``%TY-%Tm-%Td %TH:%TM %8s %p``):
    fields shared by every line said once; the others grouped under their directory as ``du``'s
    are, ``dir/: 5779 sync.py 12353 evaluator.py`` (several fields: one ``f1 f2 name`` a line
    under ``dir/:``). A line whose path does not start at one of find's starting points after a
    blank, or lines with different field counts → None (the format is the user's own)."""
    rows: list[tuple[list[str], str]] = []
    for line in text.split("\n"):
        if not line:
            continue
        if _TOOL_ERROR.match(line):
            return None
        cut = _path_start(line, starts)
        if cut is None:
            return None
        fields = line[:cut].split()
        if rows and len(fields) != len(rows[0][0]):
            return None
        rows.append((fields, line[cut:]))
    if len(rows) < PRINTF_MIN_LINES or not rows[0][0]:
        return None
    width = len(rows[0][0])
    shared = [k for k in range(width) if all(r[0][k] == rows[0][0][k] for r in rows)]
    varied = [k for k in range(width) if k not in shared]
    groups: dict[str, list[str]] = {}
    for fields, path in rows:
        parent, _, name = path.rpartition("/")
        if not name:
            return None
        shown = " ".join(fields[k] for k in varied)
        groups.setdefault(parent, []).append(f"{shown} {quote_name(name)}" if shown else quote_name(name))
    legend = "[find -printf, grouped by directory" + (
        f"; every line had: {' '.join(rows[0][0][k] for k in shared)}" if shared else "") + "]"
    out = [legend]
    for parent, entries in groups.items():
        head = quote_name(parent) + "/" if parent else "./"
        if len(varied) <= 1:
            out.append(f"{head}: {' '.join(entries)}")
        else:
            out.append(head + ":")
            out.extend("  " + e for e in entries)
    result = "\n".join(out) + "\n"
    return result if len(result) < len(text) else None


def _path_start(line: str, starts: list[str]) -> int | None:
    """Where the path begins: the first of find's starting points that follows a blank (or
    opens the line) and is followed by ``/`` or the line's end."""
    best = None
    for start in starts:
        k = line.find(start if start != "/" else "/")
        while k != -1:
            end = k + len(start)
            if (k == 0 or line[k - 1] in " \t") and (end == len(line) or line[end] == "/" or start == "/"):
                break
            k = line.find(start, k + 1)
        if k != -1 and (best is None or k < best):
            best = k
    return best


_FIND_OTHER_OUTPUT = frozenset({"-printf", "-fprintf", "-print0", "-fprint0", "-exec", "-execdir", "-ok", "-okdir"})


def group_paths(text: str) -> str | None:
    """One path a line (``find``'s, ``grep -l``'s) grouped by directory; None for fewer than 3."""
    groups: dict[str, list[str]] = {}
    order: list[object] = []         # group keys and verbatim lines, in first-seen order
    paths = 0
    for line in text.split("\n"):
        if not line:
            continue
        if _TOOL_ERROR.match(line):
            order.append((line,))
            continue
        paths += 1
        parent, _, name = line.rpartition("/")
        if not name:                 # "dir/" or "/"
            order.append((line,))
            continue
        if not parent and line.startswith("/"):
            parent = "/"             # "/bin": under the root, not a top-level relative name
        if parent not in groups:
            groups[parent] = []
            order.append(parent)
        groups[parent].append(name)
    if paths < 3:
        return None
    dirs = set(groups)
    out: list[str] = []
    files: list[str] = []
    for item in order:
        if isinstance(item, tuple):
            out.append(item[0])
            continue
        names = []
        for n in groups[item]:
            if (f"{item.rstrip('/')}/{n}" if item else n) in dirs:
                names.append(n + "/")
            else:
                names.append(n)
                files.append(n)
        if item == "":
            out.extend(names)
            continue
        joined = _join_names(names)
        head = item.rstrip("/") + "/"
        if joined is None:
            out.append(head + ":")
            out.extend("  " + n for n in names)
        else:
            out.append(f"{head}: {joined}")
    if paths >= SUMMARY_MIN_PATHS:
        listed = set(text.split("\n"))
        out.append(_extension_counts(paths, sum(1 for d in dirs if d in listed), files))
    return "\n".join(out) + "\n"


def _extension_counts(paths: int, dirs: int, files: list[str]) -> str:
    counts: dict[str, int] = {}
    for name in files:
        dot = name.rfind(".")
        ext = name[dot:] if dot > 0 else "(none)"
        counts[ext] = counts.get(ext, 0) + 1
    top = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
    shown = ", ".join(f"{ext} {n}" for ext, n in top[:8])
    rest = sum(n for _, n in top[8:])
    return (f"[{paths} paths: {len(files)} files ({shown}{f', other {rest}' if rest else ''}), "
            f"{dirs} directories with entries; counted by extension]")


# ---------------------------------------------------------------- tree


def compress_tree(request) -> str | None:
    """The tree with two-space indentation, the plain files of a directory on one line
    before its subdirectories."""
    roots: list[list] = []           # node = [name, children]
    stack: list[list] = []
    tail: list[str] = []
    nodes = 0
    for line in request.text.split("\n"):
        if not line.strip():
            continue
        m = _TREE_PREFIX.match(line)
        if m:
            if not stack:
                return None
            depth = len(m.group(1)) // 4 + 1
            if depth > len(stack):
                return None
            node = [m.group(3), []]
            del stack[depth:]
            stack[-1][1].append(node)
            stack.append(node)
            nodes += 1
        elif _TREE_SUMMARY.match(line) or _TOOL_ERROR.match(line):
            tail.append(line)
        elif line.startswith((" ", "\xa0", "│", "|")):
            return None
        else:
            node = [line, []]
            roots.append(node)
            stack = [node]
    if nodes < 3:
        return None
    shown = _tree_metadata(roots)
    out = _render_tree(roots, shown)
    out.extend(tail)
    if nodes >= SUMMARY_MIN_PATHS:
        leaves: list[str] = []
        dirs = 0
        todo = list(roots)
        while todo:
            node = todo.pop()
            if node[1]:
                dirs += 1
                todo.extend(node[1])
            else:
                leaves.append(node[0])
        out.append(_extension_counts(nodes + len(roots), dirs, leaves))
    return "\n".join(out) + "\n"


_TREE_META = lazy(r"^\[([^\]\n]*)\] +(\S.*)$")


def _tree_metadata(roots: list) -> dict[int, str] | None:
    """``tree -h/-s/-p/-u/-D`` write ``[meta]  name``: when every entry below the roots does,
    each is shown as ``meta name`` (the fields of meta joined by commas: ``drwxr-xr-x,root,4.0K``),
    the name quoted as ``ls`` quotes it and without ``-F``'s ``/`` on a directory (the layout adds
    it). ``{id(node): shown}``, or None when any entry has no such prefix."""
    shown: dict[int, str] = {}
    todo = [child for root in roots for child in root[1]]
    while todo:
        node = todo.pop()
        m = _TREE_META.match(node[0])
        if m is None or "," in m.group(1) or not m.group(1).strip():
            return None
        name = m.group(2)
        if node[1] and name.endswith("/") and len(name) > 1:
            name = name[:-1]
        quoted = quote_name(name, force=not node[1] and name.endswith("/"))
        shown[id(node)] = ",".join(m.group(1).split()) + " " + quoted
        todo.extend(node[1])
    return shown


def _render_tree(roots: list, shown_as: dict[int, str] | None = None) -> list[str]:
    """Each directory, then its plain files on one line, then its subdirectories (each line a
    token cheaper than tree's interleaved order, and every name still under its directory);
    a directory of plain files only is one line, ``name/: a b``. Names are quoted as ``ls``
    does where a blank or quote would make them read as several (``'a b.txt'``). An explicit
    stack: a tree thousands of levels deep renders like a shallow one."""
    out: list[str] = []
    todo = [(root, 0) for root in reversed(roots)]
    while todo:
        node, depth = todo.pop()
        name, children = node
        ind = "  " * depth
        shown = quote_name(name) if depth else name     # a root line is tree's argument as given
        if shown_as is not None and depth:
            shown = shown_as[id(node)]
        # (a file shown ending in "/", as ``tree -F`` draws an empty directory, quoted: not a directory line)
        if shown_as is not None:
            leaves = " ".join(shown_as[id(child)] for child in children if not child[1])
        else:
            leaves = " ".join(quote_name(child[0], child[0].endswith("/")) for child in children if not child[1])
        subdirs = [child for child in children if child[1]]
        if depth and leaves and not subdirs:
            out.append(f"{ind}{shown}/: {leaves}")      # a directory of plain files: one line, as find's
            continue
        out.append(ind + (shown + "/" if children and depth else shown))
        if leaves:
            out.append(ind + "  " + leaves)
        todo.extend((child, depth + 1) for child in reversed(subdirs))
    return out


# ---------------------------------------------------------------- du


def compress_du(request) -> str | None:
    """Sizes grouped by directory: ``SIZE dir/: SIZE a SIZE b``; a directory's own size heads its
    group; names with blanks or quotes quoted as ``ls`` does."""
    entries: list[tuple[str, str]] = []
    extra: list[str] = []
    for line in request.text.split("\n"):
        if not line:
            continue
        m = _DU_LINE.match(line)
        if m:
            entries.append((m.group(1), m.group(2)))
        elif _TOOL_ERROR.match(line):
            extra.append(line)
        else:
            return None
    if len(entries) < 3 or (_piped_to_sort(request) and _ranked(entries)):
        return None
    own = {path: size for size, path in entries}
    children: dict[str, list[tuple[str, str]]] = {}
    order: list[str] = []
    verbatim: list[str] = []         # "dir/" as given on the command line: du's own line
    for size, path in entries:
        if path == "total":
            continue
        cut = path.rfind("/")
        parent, name = (path[:cut], path[cut + 1:]) if cut > 0 else ("", path)   # "/usr": top level
        if not name:
            verbatim.append(f"{size}\t{path}")
            continue
        if parent not in children:
            children[parent] = []
            order.append(parent)
        children[parent].append((name, size))
    dirs = set(children)
    out: list[str] = []
    for parent in _du_order(order):
        files = [(n, s) for n, s in children[parent] if (f"{parent}/{n}" if parent else n) not in dirs]
        if parent == "":
            out.extend(f"{s}\t{n}" for n, s in files)   # top-level entries stay du's own lines
            continue
        head = f"{own[parent]} {quote_name(parent)}/" if parent in own else f"{quote_name(parent)}/"
        out.append(f"{head}: {_du_join(files)}" if files else head)
    out.extend(verbatim)
    if "total" in own:
        out.append(f"{own['total']}\ttotal")
    out.extend(extra)
    return "\n".join(out) + "\n"


_UNITS = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40, "P": 1 << 50, "E": 1 << 60}
RANKED_MIN = 5


def _piped_to_sort(request) -> bool:
    """The command sends du's output through ``sort`` (``du -ah | sort -h | tail``)."""
    command = getattr(request, "command", None) or ""
    return any(part.split()[:1] == ["sort"] for part in command.split("|")[1:])


def _ranked(entries: list[tuple[str, str]]) -> bool:
    """Sizes in order, smallest or largest first, after a ``sort``: the order is what was asked
    for, and grouping by directory would lose it, so such a listing is left as it is (du's own
    order, children before their directory, may grow too: that one is grouped)."""
    if len(entries) < RANKED_MIN:
        return False
    sizes = []
    for size, _ in entries:
        unit = size[-1] if size[-1] in "KMGTPE" else ""
        sizes.append(float(size[:len(size) - len(unit)].replace(",", ".")) * _UNITS[unit])
    up = all(a <= b for a, b in zip(sizes, sizes[1:]))
    down = all(a >= b for a, b in zip(sizes, sizes[1:]))
    return up or down


def _du_join(files: list[tuple[str, str]]) -> str:
    """``SIZE name SIZE name`` in du's own order (no commas: each costs a token); a name with a
    blank or quote is quoted as ``ls`` does, so every pair reads back (``shlex.split``)."""
    return " ".join(f"{s} {quote_name(n)}" for n, s in files)


def _du_order(order: list[str]) -> list[str]:
    """Parents before their subdirectories (du prints them last), else in first-seen order."""
    return sorted(order, key=lambda p: p.split("/") if p else [])
