"""File listings: ``ls -l``, ``find``, ``tree``, ``du``.

``ls -l`` keeps names, sizes, the file type (``dir/``, ``link -> target``, ``exe*``) and drops
permission, owner and date columns unless the command asked for them (``-t`` keeps dates,
``-n`` keeps owners). ``find``, ``tree`` and ``du`` are regrouped by directory so each
directory path is written once; every path (and size) can still be read back.
"""

from __future__ import annotations

import re
from ..lazyre import lazy

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


def _flags(request) -> str:
    """Short option letters given on the command line (``-la -t`` → ``lat``)."""
    return "".join(a[1:] for a in request.argv[1:] if a.startswith("-") and not a.startswith("--"))


# ---------------------------------------------------------------- ls -l


def compress_ls(request) -> str | None:
    flags = _flags(request)
    long_opts = [a for a in request.argv[1:] if a.startswith("--")]
    keep_date = "t" in flags or any(o.startswith(("--full-time", "--time")) for o in long_opts)
    keep_owner = "n" in flags or "--numeric-uid-gid" in long_opts
    out: list[str] = []
    entries = 0
    for line in request.text.split("\n"):
        if not line.strip():
            if out and out[-1] != "":
                out.append("")
            continue
        if _LS_TOTAL.match(line):
            continue
        m = _LS_ENTRY.match(line)
        if m:
            entries += 1
            name, mode = m.group("name"), m.group("mode")
            if name in (".", ".."):
                continue
            out.append(_ls_entry(m, mode, name, keep_date, keep_owner))
        elif line.endswith(":") and not line.startswith(" "):
            out.append(line)            # directory header of a multi-directory listing
        elif _TOOL_ERROR.match(line):
            out.append(line)
        else:
            return None                 # not a long listing we know (other locale, -i, -s …)
    if not entries:
        return None
    while out and out[-1] == "":
        out.pop()
    return "\n".join(out) + "\n"


def _ls_entry(m: re.Match, mode: str, name: str, keep_date: bool, keep_owner: bool) -> str:
    kind = mode[0]
    if kind == "d":
        text = name + "/"
    elif kind == "l":
        text = name if " -> " in name else name + "@"
    elif kind == "-":
        text = name + ("*" if "x" in mode[1:10] else "") + " " + m.group("size")
    else:
        text = f"{name} ({kind} {m.group('size')})"
    if keep_owner:
        text += f" {m.group('owner')}:{m.group('group')}"
    if keep_date:
        text += " " + " ".join(m.group("date").split())
    return text


# ---------------------------------------------------------------- find


def _join_names(names: list[str], sep: str = " ") -> str | None:
    if any(not n or sep in n or n != n.strip() or "\t" in n for n in names):
        return None
    return sep.join(names)


def compress_find(request) -> str | None:
    """Paths grouped under their directory: ``dir/: a b c``."""
    groups: dict[str, list[str]] = {}
    order: list[object] = []         # group keys and verbatim lines, in first-seen order
    paths = 0
    for line in request.text.split("\n"):
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
        if parent not in groups:
            groups[parent] = []
            order.append(parent)
        groups[parent].append(name)
    if paths < 3:
        return None
    dirs = set(groups)
    out: list[str] = []
    for item in order:
        if isinstance(item, tuple):
            out.append(item[0])
            continue
        names = [n + "/" if (f"{item}/{n}" if item else n) in dirs else n for n in groups[item]]
        if item == "":
            out.extend(names)
            continue
        joined = _join_names(names)
        if joined is None:
            out.append(item + "/:")
            out.extend("  " + n for n in names)
        else:
            out.append(f"{item}/: {joined}")
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------- tree


def compress_tree(request) -> str | None:
    """The tree with two-space indentation and the plain files of a directory on one line."""
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
    out: list[str] = []
    for root in roots:
        _render_tree(root, 0, out)
    out.extend(tail)
    return "\n".join(out) + "\n"


def _render_tree(node: list, depth: int, out: list[str]) -> None:
    name, children = node
    ind = "  " * depth
    out.append(ind + (name + "/" if children and depth else name))
    leaves: list[str] = []

    def flush() -> None:
        if not leaves:
            return
        joined = _join_names(leaves)
        if joined is None:
            out.extend(ind + "  " + n for n in leaves)
        else:
            out.append(ind + "  " + joined)
        leaves.clear()

    for child in children:
        if child[1]:
            flush()
            _render_tree(child, depth + 1, out)
        else:
            leaves.append(child[0])
    flush()


# ---------------------------------------------------------------- du


def compress_du(request) -> str | None:
    """Sizes grouped by directory: ``SIZE dir/: a SIZE, b SIZE``; a directory's own size heads its group."""
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
    if len(entries) < 3:
        return None
    own = {path: size for size, path in entries}
    children: dict[str, list[tuple[str, str]]] = {}
    order: list[str] = []
    for size, path in entries:
        if path.endswith("/") or path == "total":
            continue
        parent = path.rpartition("/")[0] if "/" in path else ""
        if parent not in children:
            children[parent] = []
            order.append(parent)
        children[parent].append((path.rpartition("/")[2], size))
    dirs = set(children)
    out: list[str] = []
    done = set()
    for parent in _du_order(order):
        files = [(n, s) for n, s in children[parent] if (f"{parent}/{n}" if parent else n) not in dirs]
        head = f"{own[parent]} {parent}/" if parent in own else (f"{parent}/" if parent else ".")
        done.add(parent)
        joined = _join_names([f"{n} {s}" for n, s in files], ", ") if files else ""
        if parent == "" and not files:
            continue
        if joined is None:
            out.append(head + ":")
            out.extend(f"  {n} {s}" for n, s in files)
        elif parent == "":
            out.extend(f"{s}\t{n}" for n, s in files)
        else:
            out.append(f"{head}: {joined}" if joined else head)
    for size, path in entries:
        if path in dirs and path not in done:
            out.append(f"{size} {path}/")
    if "total" in own:
        out.append(f"{own['total']}\ttotal")
    out.extend(extra)
    return "\n".join(out) + "\n"


def _du_order(order: list[str]) -> list[str]:
    """Parents before their subdirectories (du prints them last), else in first-seen order."""
    return sorted(order, key=lambda p: p.split("/") if p else [])
