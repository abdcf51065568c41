"""Ref listings: ``git branch`` (``-a``, ``-r``, ``-v``, ``-vv``), ``git tag`` (``-n``), ``git remote -v``.

Plain branch and tag lists become one counted line; ``tag -n`` lines sharing a message share
one line (``v0.1.0, v0.1.4: Document usage``); verbose branch lines lose their
alignment padding only; remote lines with the same fetch and push URL merge into one; ``git remote show`` groups its
remote branches by state (:func:`format_remote_show`).
``git stash list`` and ``git reflog`` are already one line per entry with nothing to drop:
they are recognised and left to the generic stages (None). Any unexpected line → None.
"""

from __future__ import annotations

import re

from ._common import args_after

_BRANCH = re.compile(r"^([* +]) (\S.*)$")
_BRANCH_V = re.compile(r"^([* +]) (\(.+?\)|\S+) +([0-9a-f]{7,64}) (.*)$")
_REMOTE = re.compile(r"^(\S+)\t(\S+) \((fetch|push)\)$")
_TAG_N = re.compile(r"^(\S+) +(.*)$")
_BRANCH_OPTS_OK = frozenset({"-a", "--all", "-r", "--remotes", "-v", "-vv", "--verbose", "--list", "-l",
                             "--no-color", "--color", "--merged", "--no-merged", "--contains", "--no-contains",
                             "--sort", "--points-at", "-i", "--ignore-case", "--no-column", "--abbrev", "--no-abbrev"})
_TAG_OPTS_OK = frozenset({"-l", "--list", "--sort", "--merged", "--no-merged", "--contains", "--no-contains",
                          "--points-at", "-i", "--ignore-case", "--no-column", "--color"})


def _options(args: list[str]) -> list[str] | None:
    out = []
    for a in args:
        if a == "--":
            break
        if a.startswith("-"):
            out.append(a.split("=", 1)[0])
    return out


def format_branch(request) -> str | None:
    args = args_after(request, "branch")
    opts = _options(args)
    if any(o not in _BRANCH_OPTS_OK for o in opts):
        return None
    if any(not a.startswith("-") for a in args) and not ({"--list", "-l", "--contains", "--merged", "--no-merged",
                                                         "--points-at", "--no-contains", "--sort"} & set(opts)):
        return None  # `git branch NAME` creates a branch: not a listing
    lines = request.text.splitlines()
    if not lines:
        return None
    if any(o in ("-v", "-vv", "--verbose") for o in opts):
        out = []
        for line in lines:
            m = _BRANCH_V.match(line)
            if m:
                out.append(f"{m.group(1)} {m.group(2)} {m.group(3)} {m.group(4)}".lstrip())
                continue
            m = _BRANCH.match(line)
            if m and " -> " in m.group(2):  # remotes/origin/HEAD -> origin/main
                out.append(re.sub(r"\s+", " ", m.group(2)))
                continue
            return None
        return "\n".join(out) + "\n"
    current, local, remote = [], [], []
    for line in lines:
        m = _BRANCH.match(line)
        if not m:
            return None
        mark, name = m.groups()
        if mark == "*":
            current.append(f"* {name}")
        elif name.startswith("remotes/") or "-r" in opts or "--remotes" in opts:
            remote.append(name if mark == " " else f"{mark}{name}")
        else:
            local.append(name if mark == " " else f"{mark}{name}")
    out = list(current)
    if local:
        out.append(f"other branches ({len(local)}): " + ", ".join(local))
    if remote:
        out.append(f"remote branches ({len(remote)}): " + ", ".join(remote))
    return "\n".join(out) + "\n"


def format_tag(request) -> str | None:
    args = args_after(request, "tag")
    opts = _options(args)
    annotated = False
    for o in opts:
        if o.startswith("-n") and (o == "-n" or o[2:].isdigit()):
            annotated = True
        elif o not in _TAG_OPTS_OK:
            return None
    if any(not a.startswith("-") for a in args) and "-l" not in opts and "--list" not in opts:
        return None  # `git tag NAME` creates a tag
    lines = request.text.splitlines()
    if not lines:
        return None
    if annotated:
        grouped = _tags_by_message(lines)
        if grouped is not None:
            return grouped
        out = []
        for line in lines:
            if out and (line.startswith("    ") or not line.strip()):
                # continuation of a multi-line annotation (its blank lines arrive without their indent)
                out.append("  " + line.strip() if line.strip() else "")
                continue
            m = _TAG_N.match(line)
            if not m:
                if re.fullmatch(r"\S+", line):
                    out.append(line)
                    continue
                return None
            out.append(f"{m.group(1)}: {m.group(2)}")
        return "\n".join(out) + "\n"
    if any(not re.fullmatch(r"\S+", x) for x in lines):
        return None
    return f"tags ({len(lines)}): " + ", ".join(lines) + "\n"


def _tags_by_message(lines: list[str]) -> str | None:
    """``git tag -n`` where several tags carry the same one-line message (tags on one commit, or
    lightweight tags showing its subject): ``v0.1.0, v0.1.4: Document usage``, one line per
    message in the order git first lists it, tags in git's order. None when no message repeats
    or any annotation has more than one line."""
    groups: dict[str, list[str]] = {}
    for line in lines:
        m = _TAG_N.match(line)
        if not m or line.startswith(" ") or not m.group(2):
            return None
        groups.setdefault(m.group(2), []).append(m.group(1))
    if len(groups) == len(lines):
        return None
    return "".join(f"{', '.join(tags)}: {message}\n" for message, tags in groups.items())


_SHOW_REMOTE = re.compile(r"^\* remote (\S+)$")
_SHOW_KEY = re.compile(r"^  (?:Fetch URL|Push  URL|HEAD branch): \S.*$")
_SHOW_SECTION = re.compile(r"^  (?:Remote branch(?:es)?|HEAD branch|Local branch(?:es)? configured for 'git pull'"
                           r"|Local refs? configured for 'git push')(?: \(.+\))?:$")
_SHOW_ENTRY = re.compile(r"^    (\S+)(?: +(\S.*))?$")
_SHOW_MORE = re.compile(r"^ +and with remote \S+$")


def format_remote_show(lines: list[str]) -> str | None:
    """``git remote show NAME``: every line as git printed it, but the ``Remote branches:`` entries
    grouped by their state (``    tracked: a b c``; a branch name holds neither a space nor a
    colon) and the alignment padding of the other entries (``main    merges with remote main``)
    cut to one space. Any other line → None."""
    out: list[str] = []
    section = None
    groups: dict[str, list[str]] = {}

    def flush() -> None:
        out.extend(f"    {state}: {' '.join(names)}" for state, names in groups.items())
        groups.clear()

    if not lines or not _SHOW_REMOTE.match(lines[0]):
        return None
    for line in lines:
        m = _SHOW_ENTRY.match(line)
        if m and section is not None:
            name, rest = m.groups()
            if section.startswith("  Remote branch") and rest:
                groups.setdefault(rest, []).append(name)
            else:
                out.append(f"    {name} {rest}" if rest else line)
            continue
        flush()
        if _SHOW_REMOTE.match(line) or _SHOW_KEY.match(line):
            section = None
        elif _SHOW_SECTION.match(line):
            section = line
        elif not (_SHOW_MORE.match(line) and section is not None):
            return None
        out.append(line)
    flush()
    return "\n".join(out) + "\n"


def format_remote(request) -> str | None:
    args = args_after(request, "remote")
    if args[:1] == ["show"] and not any(a.startswith("-") and a != "-n" for a in args[1:]):
        return format_remote_show(request.text.splitlines())
    if args not in (["-v"], ["--verbose"]):
        return None
    rows = []
    for line in request.text.splitlines():
        m = _REMOTE.match(line)
        if not m:
            return None
        rows.append(m.groups())
    out = []
    i = 0
    while i < len(rows):
        name, url, kind = rows[i]
        if kind == "fetch" and i + 1 < len(rows) and rows[i + 1] == (name, url, "push"):
            out.append(f"{name} {url} (fetch+push)")
            i += 2
            continue
        out.append(f"{name} {url} ({kind})")
        i += 1
    return "\n".join(out) + "\n" if out else None
