"""``git status`` in all its forms → branch line(s) plus one counted line per group.

Long format is matched line by line against git's own translations (``git_status_l10n``,
generated from git's catalogues) for English and the locales checked with real output;
any line that is not a known message, hint, section header or entry → None.
"""

from __future__ import annotations

import re

from ._common import args_after

# Options that do not change the shape of what we parse.
_OK_OPTIONS = frozenset({
    "-s", "--short", "-b", "--branch", "--porcelain", "--long", "-u", "--untracked-files", "--ignored",
    "--ignore-submodules", "--ahead-behind", "--no-ahead-behind", "--renames", "--no-renames",
    "--find-renames", "-sb", "-bs", "-uno", "-uall", "-unormal", "--no-column", "--no-show-stash",
})
_SHORT_LINE = re.compile(r"^([ MTADRCU?!])([ MTADRCU?!]) (.+)$")
_CONFLICT_XY = frozenset({"DD", "AU", "UD", "UA", "DU", "AA", "UU"})
_V2_ORDINARY = re.compile(r"^1 (\S\S) (\S{4}) \d{6} \d{6} \d{6} [0-9a-f]{40,64} [0-9a-f]{40,64} (.+)$")
_V2_RENAME = re.compile(r"^2 (\S\S) (\S{4}) \d{6} \d{6} \d{6} [0-9a-f]{40,64} [0-9a-f]{40,64} ([RC]\d{1,3}) ([^\t]+)\t(.+)$")
_V2_UNMERGED = re.compile(r"^u (\S\S) (\S{4}) \d{6} \d{6} \d{6} \d{6} [0-9a-f]{40,64} [0-9a-f]{40,64} [0-9a-f]{40,64} (.+)$")
_V2_HEADER = re.compile(r"^# (?:branch\.(?:oid|head|upstream|ab) |stash )\S.*$")
_HINT = re.compile(r"^  \(.+\)$")
_TODO = re.compile(r"^   \S+(?: .*)?$")

# msgid → short code used in the compact groups
_LABEL_CODES = {
    "new file:": "A", "modified:": "M", "deleted:": "D", "renamed:": "R", "copied:": "C", "typechange:": "T",
    "unknown:": "X", "unmerged:": "U", "both deleted:": "DD", "added by us:": "AU", "deleted by them:": "UD",
    "added by them:": "UA", "deleted by us:": "DU", "both added:": "AA", "both modified:": "UU",
}
_SECTION_GROUPS = {
    "Changes to be committed:": "staged", "Changes not staged for commit:": "modified",
    "Unmerged paths:": "conflicts", "Untracked files": "untracked", "Ignored files": "ignored",
}
_GROUP_ORDER = ("conflicts", "staged", "modified", "untracked", "ignored")
_CLEAN = "nothing to commit, working tree clean\n"
# footers that repeat what the groups already say
_REDUNDANT_FOOTERS = frozenset({
    "no changes added to commit (use \"git add\" and/or \"git commit -a\")\n", "no changes added to commit\n",
    "nothing added to commit but untracked files present (use \"git add\" to track)\n",
    "nothing added to commit but untracked files present\n",
})

_TABLES: dict = {}


def _template_regex(template: str, prefix: bool) -> str:
    """A printf template (``%s``, ``%d``, ``%2$d``, ``%<PRIuMAX>``, ``%%``) as an anchored regex."""
    out = []
    pos = 0
    for m in re.finditer(r"%(?:\d+\$)?(?:<PRI[a-zA-Z0-9]+>|\.\*s|\.\d+f|[sd]|%)", template):
        out.append(re.escape(template[pos:m.start()]))
        tok = m.group(0)
        if tok == "%%":
            out.append("%")
        elif tok.endswith("s"):
            out.append(".+?")
        elif tok.endswith("f"):
            out.append(r"[\d.,]+")
        else:
            out.append(r"\d+")
        pos = m.end()
    out.append(re.escape(template[pos:]))
    return "".join(out) + (".+" if prefix else "")


def _width(text: str) -> int:
    """Terminal columns of ``text`` (wide East Asian characters count two), as git measures labels."""
    import unicodedata

    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def _table(locale: str) -> dict:
    """Compiled matchers for one locale: messages by role, section headers, entry labels."""
    if locale in _TABLES:
        return _TABLES[locale]
    from .git_status_l10n import MESSAGES, ROLES

    english = MESSAGES["en"]
    own = MESSAGES[locale]
    lines: list = []       # (regex, role, msgid)
    sections: list = []    # (header text, group)
    labels: list = []      # (label text, code)
    short: dict = {}       # footer regex -> the footer without its "(use -u …)" hint
    untracked_hint = own.get(" (use -u option to show untracked files)", english[" (use -u option to show untracked files)"])
    for msgid, role in ROLES.items():
        forms = own.get(msgid) or english[msgid]  # git prints the English text when a message is untranslated
        for form in forms:
            if role == "section":
                text = form if form.endswith(":") else form + ":"
                sections.append((text, _SECTION_GROUPS[msgid]))
            elif role == "label":
                labels.append((form, _LABEL_CODES[msgid]))
            elif msgid == "Untracked files not listed%s":
                for tail in (untracked_hint[0], ""):
                    rx = re.compile("^" + re.escape(form.replace("%s", tail)) + "$")
                    lines.append((rx, "footer", msgid))
                    short[rx] = form.replace("%s", "")
            elif msgid == " (use -u option to show untracked files)":
                continue
            else:
                prefix = msgid.endswith(" ") and "%" not in msgid
                for piece in form.rstrip("\n").split("\n"):
                    if piece.strip():
                        lines.append((re.compile("^" + _template_regex(piece.strip() if not prefix else piece, prefix) + "$"),
                                      role, msgid))
    labels.sort(key=lambda x: -len(x[0]))
    # git pads every label to one column: the widest label of its kind (change / unmerged) plus one
    # (wt-status.c, label_width); knowing it, a name that starts with a space keeps that space
    widths = {n: max((_width(label) for label, code in labels if len(code) == n), default=0) + 1 for n in (1, 2)}
    table = {"lines": lines, "sections": dict(sections), "labels": labels, "short": short, "widths": widths}
    _TABLES[locale] = table
    return table


def _parse_long(lines: list[str], locale: str) -> tuple[list[str], dict, dict, bool] | None:
    """Kept message lines, groups of ``(label, path)`` entries (the label as git printed it, ``modified:``),
    each group's section header as printed and whether the tree is clean; None if any line is unknown."""
    table = _table(locale)
    kept: list[str] = []
    groups: dict = {}
    headers: dict = {}
    section = None
    clean = False
    in_todo = False
    for line in lines:
        if not line.strip():
            section = None
            in_todo = False
            continue
        if line.startswith("\t"):
            if section is None:
                return None
            body = line[1:]
            if section in ("untracked", "ignored"):
                groups.setdefault(section, []).append(("", _quoted(body)))
                continue
            for label, code in table["labels"]:
                if body.startswith(label):
                    rest = body[len(label):]
                    pad = table["widths"][len(code)] - _width(label)
                    # the name starts at git's label column; spaces beyond it are part of the name
                    path = rest[pad:] if pad > 0 and rest[:pad] == " " * pad and rest[pad:] else rest.lstrip()
                    if not path:
                        return None
                    path = _quoted_rename(path) if code in ("R", "C") else _quoted(path)
                    groups.setdefault(section, []).append((label, path))
                    break
            else:
                return None
            continue
        if _HINT.match(line):
            continue
        if line in table["sections"]:
            section = table["sections"][line]
            headers.setdefault(section, line)
            continue
        if in_todo and _TODO.match(line):
            kept.append(line)
            continue
        for rx, role, msgid in table["lines"]:
            if rx.match(line):
                if msgid == _CLEAN:
                    clean = line  # git's own words, in its locale
                elif msgid not in _REDUNDANT_FOOTERS:
                    kept.append(table["short"].get(rx, line))
                in_todo = msgid.startswith(("Last command done", "Next command to do"))
                break
        else:
            return None
    if not kept and not groups and not clean:
        return None
    return kept, groups, headers, clean


def _quoted(path: str) -> str:
    """``path`` as one blank-free item of a line (``_common.quote_item``)."""
    from ._common import quote_item

    return quote_item(path)


def _quoted_rename(body: str) -> str:
    """``old -> new`` with each side quoted if needed (an ambiguous arrow stays as git wrote it)."""
    sides = body.split(" -> ")
    return " -> ".join(_quoted(x) for x in sides) if len(sides) == 2 else body


# a group's entry count is printed from this many entries on (fewer are counted at a glance)
COUNT_FROM = 4


def _titled(header: str, n: int) -> str:
    """A group's header with its entry count from ``COUNT_FROM`` entries on: ``staged (30):``,
    ``Changes to be committed (30):`` (git's own header, the count before its colon)."""
    m = re.match(r"^(.*?)(\s*:)?$", header)
    return m.group(1) + (f" ({n})" if n >= COUNT_FROM else "") + (m.group(2) or ":")


def _render(head: list[str], groups: dict, clean: str | bool, headers: dict | None = None) -> str:
    """Head lines, then each group under its header (git's own in the long format), its entries one
    (label or code, directory) a line with every path whole (``_common.group_paths``)."""
    from ._common import group_paths

    out = list(head)
    for name in _GROUP_ORDER:
        items = groups.get(name)
        if not items:
            continue
        out.append(_titled(headers.get(name, name) if headers else name, len(items)))
        out.extend(group_paths(items))
    if clean:
        out.append(clean)
    elif not groups:
        out.append("clean")
    return "\n".join(out) + "\n"


def format_long(text: str) -> str | None:
    """The long (default) format in English or a covered locale: git's section headers and entry
    labels stay in its words, said once for the entries they cover."""
    from .git_status_l10n import MESSAGES

    lines = text.splitlines()
    for locale in MESSAGES:
        parsed = _parse_long(lines, locale)
        if parsed is not None:
            kept, groups, headers, clean = parsed
            return _render(kept, groups, clean, headers)
    return None


def format_short(text: str) -> str | None:
    """``-s``, ``-sb`` and ``--porcelain`` (v1): ``XY path`` lines, optional ``## branch`` header."""
    head: list[str] = []
    groups: dict = {}
    for i, line in enumerate(text.splitlines()):
        if not line:
            return None
        if line.startswith("## ") and i == 0:
            head.append(line)
            continue
        m = _SHORT_LINE.match(line)
        if not m:
            return None
        x, y, path = m.groups()
        _add_xy(groups, x, y, _quoted_rename(path) if "R" in x + y or "C" in x + y else _quoted(path))
    if not head and not groups:
        return None
    return _render(head, groups, False)


def _add_xy(groups: dict, x: str, y: str, path: str) -> None:
    """File one ``XY path`` entry into conflicts / staged / modified / untracked / ignored."""
    x = " " if x == "." else x
    y = " " if y == "." else y
    if x + y == "??":
        groups.setdefault("untracked", []).append(("", path))
    elif x + y == "!!":
        groups.setdefault("ignored", []).append(("", path))
    elif x + y in _CONFLICT_XY:
        groups.setdefault("conflicts", []).append((f"{x}{y}", path))
    else:
        if x != " ":
            groups.setdefault("staged", []).append((x, path))
        if y != " ":
            groups.setdefault("modified", []).append((y, path))


def format_porcelain_v2(text: str) -> str | None:
    """``--porcelain=v2``: keep ``# branch.*`` headers, drop modes and object names of entries."""
    head: list[str] = []
    groups: dict = {}
    for line in text.splitlines():
        if line.startswith("# "):
            if not _V2_HEADER.match(line):
                return None
            head.append(line)
            continue
        m = _V2_ORDINARY.match(line)
        if m:
            xy, sub, path = m.groups()
            _add_xy(groups, xy[0], xy[1], _quoted(path) + ("" if sub == "N..." else f" [submodule {sub}]"))
            continue
        m = _V2_RENAME.match(line)
        if m:
            xy, sub, score, path, orig = m.groups()
            _add_xy(groups, xy[0], xy[1], f"{_quoted(orig)} -> {_quoted(path)}" + ("" if sub == "N..." else f" [submodule {sub}]"))
            continue
        m = _V2_UNMERGED.match(line)
        if m:
            xy, sub, path = m.groups()
            groups.setdefault("conflicts", []).append((xy, _quoted(path)))
            continue
        if line.startswith(("? ", "! ")) and len(line) > 2:
            groups.setdefault("untracked" if line[0] == "?" else "ignored", []).append(("", _quoted(line[2:])))
            continue
        return None
    if not head and not groups:
        return None
    return _render(head, groups, False)


def format_status(request) -> str | None:
    """Dispatch on the status form the options ask for; unknown options → None."""
    args = args_after(request, "status")
    form = "long"
    for a in args:
        if a == "--":
            break
        if not a.startswith("-"):
            continue
        name = a.split("=", 1)[0]
        if name.startswith("-u") and not name.startswith("--"):
            continue
        if name not in _OK_OPTIONS:
            return None
        if a in ("--porcelain=v2", "--porcelain=2"):
            form = "v2"
        elif name == "--porcelain" or (name in ("-s", "--short", "-sb", "-bs") and form != "v2"):
            form = "short" if form != "v2" else form
        elif name == "--long":
            form = "long"
    text = request.text
    if form == "v2":
        return format_porcelain_v2(text)
    if form == "short":
        return format_short(text)
    return format_long(text)
