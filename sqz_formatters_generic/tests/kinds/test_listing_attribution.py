"""Every listed item keeps what the raw output said of it, read back from the rendering.

The sidecar facts are picked from the raw text, so they cannot follow a rendering that says a
shared value once (``ls``'s ``all owned by root:root``), puts a directory's entries on one line
(``du``'s ``SIZE dir/: SIZE a SIZE b``) or writes a path once over its matches (``grep``).
These tests parse each raw capture on their own, item by item, and read every item back from
the rendering the way a reader would: what the rendering says of an item must be what the
raw output said of it.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sqz_core import FormatRequest
from sqz_formatters_generic.kinds.dep_tree import compress_deptree
from sqz_formatters_generic.kinds.grep_matches import compress_grep
from sqz_formatters_generic.kinds.listings import compress_du, compress_ls, compress_tree
from sqz_testing import load_fixture

FIX = Path(__file__).parent.parent / "fixtures" / "kinds"

# ---------------------------------------------------------------- ls -l

_RAW_LS = re.compile(r"^(\S{10}\S?)\s+(\d+)\s+(\S+)\s+(\S+)\s+(\d+(?:,\s*\d+)?)\s+"
                     r"(\w{3}\s+\d+\s+(?:\d+:\d+|\d{4})) (.*)$")


def _raw_ls(text: str) -> list[tuple]:
    """(directory header, mode and link count, owner:group, size, date, name) per entry, as ls printed it."""
    out, header = [], ""
    for line in text.split("\n"):
        m = _RAW_LS.match(line)
        if m:
            mode, links, owner, group, size, date, name = m.groups()
            out.append((header, f"{mode} {links}", f"{owner}:{group}", "".join(size.split()), " ".join(date.split()), name))
        elif line.endswith(":"):
            header = line[:-1]
    return out


def _read_ls(rendered: str) -> list[tuple]:
    """The same tuples read back from the rendering and its legend."""
    lines = rendered.rstrip("\n").split("\n")
    legend = lines[0]
    assert legend.startswith("[ls -l as: ") and legend.endswith("]")
    shared = re.search(r"; mode where not shown: ([^;\]]+)", legend)
    usual_modes = {m[0]: m for m in re.findall(r"(\S{10}) for ", shared.group(1))} if shared else {}
    every_owner = re.search(r"; all owned by (\S+?)[;\]]", legend)
    usual = re.search(r"; owner:group (\S+) where not shown", legend)
    every_date = re.search(r"; all dated ([^;\]]+)", legend)
    out, header = [], ""
    for line in lines[1:]:
        if not line:
            continue
        if line.endswith(":") and " " not in line.rstrip(":").split("/")[-1]:
            header = line[:-1]
            continue
        if re.fullmatch(r"total \d+", line):
            continue
        words = line.split(" ")
        if re.fullmatch(r"[-bcdlpsD?][-rwxsStTl?]{9}[.+@]?", words[0]):
            mode = words.pop(0) + " " + words.pop(0)
        else:
            # no mode: the name's ending says the type, the legend that type's permissions
            kind = "d" if line.endswith("/") else "l" if (" -> " in line or line.endswith("@")) else "-"
            mode = usual_modes[kind] + " " + words.pop(0)
        if every_owner:
            owner = every_owner.group(1)
        elif ":" in words[0]:
            owner = words.pop(0)
        else:
            assert usual, line
            owner = usual.group(1)
        size = words.pop(0)
        if every_date:
            date = every_date.group(1)
        else:
            date, words = " ".join(words[:3]), words[3:]
        out.append((header, mode, owner, size, date, " ".join(words)))
    return out


def _ls_expected(raw):
    header, mode, owner, size, date, name = raw
    if mode[0] == "d":
        name += "/"
    elif mode[0] == "l" and " -> " not in name:
        name += "@"
    return (header, mode, owner, size, date, name)


@pytest.mark.parametrize("name", ["ls_la_mixed", "ls_la_color_rich", "ls_la_usr_lib_python"])
def test_every_ls_entry_reads_back_with_its_owner_mode_size_and_date(name):
    fx = load_fixture(FIX / "ls" / f"{name}.txt")
    raw = _raw_ls(fx.request().text)
    assert len(raw) > 5
    assert _read_ls(compress_ls(fx.request())) == [_ls_expected(r) for r in raw]


def test_ls_device_files_symlinks_and_odd_names_read_one_way():
    text = ("total 8\n"
            "crw-rw-rw- 1 root tty  5,   0 Dec  1 06:00 tty\n"
            "brw-rw---- 1 root disk 8,   1 Dec  1 06:00 sda1\n"
            "lrwxrwxrwx 1 root root      4 Dec  1 06:00 link -> dest\n"
            "-rw-r--r-- 1 root root      3 Dec  1 06:00 file -> not a link\n"
            "-rw-r--r-- 1 root root      3 Dec  1 06:00 mail@\n"
            "-rw-r--r-- 1 root root      3 Dec  1 06:00 two  spaces\n"
            "drwxr-xr-x 2 root root   4096 Dec  1 06:00 a dir\n")
    out = compress_ls(FormatRequest(text, "ls -l /dev/x"))
    lines = out.split("\n")
    # issue 25: the permissions as ls printed them (the files' shared one said once) and every link count
    assert "crw-rw-rw- 1 root:tty 5,0 tty" in lines and "brw-rw---- 1 root:disk 8,1 sda1" in lines
    assert "lrwxrwxrwx 1 4 link -> dest" in lines
    # a plain file whose name holds " -> " or ends in "@" must not read as a link
    assert "-rw-r--r-- 1 3 'file -> not a link'" in lines  # its " -> " keeps the mode: it must not read as a link
    assert "1 3 'mail@'" in lines
    assert "1 3 two  spaces" in lines or "1 3 'two  spaces'" in lines
    assert "drwxr-xr-x 2 4096 a dir/" in lines
    assert "total 8" in lines


def test_names_ls_quoted_itself_are_left_as_ls_printed_them():
    # ls -l --quoting-style=shell-escape: quoted names, the others padded with a space
    text = ("-rw-r--r-- 1 root root 0 Dec  1 06:42  mail@\n"
            "-rw-r--r-- 1 root root 0 Dec  1 06:42 'x -> y'\n"
            "lrwxrwxrwx 1 root root 11 Dec  1 06:42 'link to' -> 'two  spaces'\n"
            "-rw-r--r-- 1 root root 0 Dec  1 06:42 'new'$'\\n''line'\n")
    lines = compress_ls(FormatRequest(text, "ls -l --quoting-style=shell-escape")).split("\n")
    # "-rw-r--r--" is shared by the 3 files: said once in the legend; " mail@" (a file padded by ls)
    # and 'x -> y' would read as links without their mode, so they keep it
    assert "; mode where not shown: -rw-r--r-- for files;" in lines[0]
    assert lines[1:5] == ["-rw-r--r-- 1 0  mail@", "-rw-r--r-- 1 0 'x -> y'", "lrwxrwxrwx 1 11 'link to' -> 'two  spaces'",
                          "1 0 'new'$'\\n''line'"]


# ---------------------------------------------------------------- du


def _read_du(rendered: str) -> dict[str, str]:
    sizes: dict[str, str] = {}
    for line in rendered.rstrip("\n").split("\n"):
        if "\t" in line:                                   # du's own line, kept as it was
            size, path = line.split("\t", 1)
            sizes[path] = size
            continue
        head, sep, rest = line.partition("/: ")
        if not sep:
            head = line.rstrip("/")
        words = shlex.split(head)
        parent = words[-1]
        if len(words) == 2:
            sizes[parent] = words[0]
        pairs = shlex.split(rest)
        assert len(pairs) % 2 == 0, line
        for size, name in zip(pairs[::2], pairs[1::2]):
            sizes[f"{parent}/{name}"] = size
    return sizes


def test_every_du_size_reads_back_with_its_path():
    fx = load_fixture(FIX / "du" / "du_ah_requests.txt")
    raw = {path: size for size, path in (line.split("\t", 1) for line in fx.text.strip().split("\n"))}
    assert len(raw) == 38
    assert _read_du(compress_du(fx.request())) == raw


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["4.0K", "12K", "1.5M", "0"]),
                          st.text(alphabet="ab '\"\\-.:", min_size=1, max_size=6)),
                min_size=3, max_size=8, unique_by=lambda t: t[1]))
def test_du_pairs_read_back_whatever_the_names(entries):
    entries = [(s, n) for s, n in entries if n.strip() == n and n not in (".", "..")]
    text = "".join(f"{s}\td/{n}\n" for s, n in entries) + "9.0K\td\n"
    out = compress_du(FormatRequest(text, "du -ah d"))
    if out is None:
        return
    expected = {f"d/{n}": s for s, n in entries} | {"d": "9.0K"}
    assert _read_du(out) == expected


# ---------------------------------------------------------------- grep / rg

_RAW_GREP = re.compile(r"^(.+?):(\d+):(.*)$")


def _read_grep(rendered: str) -> list[tuple[str, str, str]]:
    out, path = [], None
    for line in rendered.rstrip("\n").split("\n"):
        if line.startswith("[") and line.endswith("]"):
            continue
        m = re.match(r"^(\d+(?: \d+)*): (.*)$", line)     # rows of one text: "231 240 247: text"
        if m and path is not None:
            out.extend((path, n, m.group(2)) for n in m.group(1).split(" "))
            continue
        head = re.match(r"^(.+) \(\d+ match(?:es)?\):$", line)
        if head:
            path = head.group(1)
            continue
        m = _RAW_GREP.match(line)
        assert m, line
        out.append((m.group(1), m.group(2), m.group(3).removeprefix(" ")))
        path = None
    return out


@pytest.mark.parametrize("name", ["grep_rn_raise", "rg_color", "grep_rn_longlines"])
def test_every_grep_match_reads_back_with_its_path_and_line(name):
    fx = load_fixture(FIX / "grep" / f"{name}.txt")
    from sqz_core.cleanup import clean_terminal
    request = fx.request()
    text = clean_terminal(request.text)
    raw = [m.groups() for m in map(_RAW_GREP.match, text.strip().split("\n"))]
    rendered = compress_grep(FormatRequest(text, request.command, exit_code=0))
    back = _read_grep(rendered)
    back.sort(key=lambda r: (r[0], int(r[1])))      # a file's rows of one text come together
    raw.sort(key=lambda r: (r[0], int(r[1])))
    assert [(p, n) for p, n, _ in back] == [(p, n) for p, n, _ in raw]
    for (_, _, said), (_, _, was) in zip(back, raw):
        if "[…" not in said:                 # a very long line is clipped around its hit
            assert said == was.strip()


# ---------------------------------------------------------------- tree and npm ls

_RAW_TREE = re.compile("^((?:[│ \xa0]{4})*)[├└]──[ \xa0](.*)$")


def _raw_tree(text: str) -> set[tuple[str, str]]:
    """(parent path, name) per entry."""
    out, stack = set(), []
    for line in text.split("\n"):
        m = _RAW_TREE.match(line)
        if m is None:
            if line.strip() and not re.match(r"^\d+ director", line):
                stack = [line]
            continue
        depth = len(m.group(1)) // 4 + 1
        del stack[depth:]
        out.add(("/".join(stack), m.group(2)))
        stack.append(m.group(2))
    return out


def _read_tree(rendered: str) -> set[tuple[str, str]]:
    out, stack = set(), []            # stack[i]: directory at indent 2*i
    for line in rendered.rstrip("\n").split("\n"):
        if re.match(r"^\d+ director|^\[", line):
            continue
        body = line.lstrip(" ")
        depth = (len(line) - len(body)) // 2
        del stack[depth:]
        if depth == 0:
            stack = [body]
            continue
        parent = "/".join(stack)
        head, sep, rest = body.partition("/: ")
        if sep:                                    # "dir/: a b": a directory of plain files
            (name,) = shlex.split(head)
            out.add((parent, name))
            out.update((f"{parent}/{name}", n) for n in shlex.split(rest))
        elif body.endswith("/") and len(shlex.split(body)) == 1:
            (name,) = shlex.split(body[:-1])
            out.add((parent, name))
            stack.append(name)
        else:                                      # the plain files of the directory above
            out.update((parent, n) for n in shlex.split(body))
    return out


@pytest.mark.parametrize("name", ["tree_packages", "tree_oauthlib"])
def test_every_tree_entry_reads_back_under_its_directory(name):
    fx = load_fixture(FIX / "tree" / f"{name}.txt")
    raw = _raw_tree(fx.request().text)
    assert len(raw) > 50
    assert _read_tree(compress_tree(fx.request())) == raw


_RAW_NPM = re.compile(r"^((?:[│ ] )*)[├└]─[─┬] (.*)$")


def test_every_npm_dependency_reads_back_under_its_parent():
    fx = load_fixture(FIX / "deptree" / "npm_ls_all.txt")
    lines = fx.text.strip().split("\n")
    raw, stack = set(), [lines[0].split(" ")[0]]
    for line in lines[1:]:
        m = _RAW_NPM.match(line)
        depth = len(m.group(1)) // 2 + 1
        del stack[depth:]
        raw.add((stack[-1], m.group(2)))
        stack.append(m.group(2).split(" ")[0])
    out = compress_deptree(fx.request())
    back, stack = set(), []
    for line in out.rstrip("\n").split("\n"):
        if line.startswith("["):
            continue
        body = line.lstrip(" ")
        depth = (len(line) - len(body)) // 2
        del stack[depth:]
        if depth == 0:
            stack = [body.split(" ")[0]]
            continue
        head, sep, rest = body.partition(": ")
        words = body.split(" ")
        if sep:                                   # "debug@2.6.9: ms@2.0.0": a parent with its leaves
            back.add((stack[-1], head))
            back.update((head, d) for d in _npm_items(rest))
        elif len(words) == 1:                     # a parent alone on its line, children below
            back.add((stack[-1], head))
            stack.append(head)
        else:                                     # the leaves of the parent above
            back.update((stack[-1], d) for d in _npm_items(body))
    assert back == raw


def _npm_items(text: str) -> list[str]:
    """``a@1 b@2 deduped c@3`` → ``["a@1", "b@2 deduped", "c@3"]``."""
    items: list[str] = []
    for word in text.split(" "):
        if word == "deduped":
            items[-1] += " deduped"
        else:
            items.append(word)
    return items


_TREE_NAME = st.text(alphabet="ab .'\"\\-:@", min_size=1, max_size=6).filter(
    lambda s: s.strip() == s and s not in (".", ".."))
_TREE = st.recursive(st.just(None), lambda kids: st.dictionaries(_TREE_NAME, kids, min_size=1, max_size=4),
                     max_leaves=12)


def _draw_tree(root: str, children: dict) -> str:
    """``tree``'s own drawing of ``children`` (None: a file) under ``root``."""
    lines = [root]

    def walk(node: dict, prefix: str) -> None:
        items = list(node.items())
        for i, (name, sub) in enumerate(items):
            last = i == len(items) - 1
            lines.append(f"{prefix}{'└── ' if last else '├── '}{name}")
            if isinstance(sub, dict):
                walk(sub, prefix + ("    " if last else "│   "))

    walk(children, "")
    return "\n".join(lines) + "\n\n1 directory, 1 file\n"


@settings(max_examples=150, deadline=None)
@given(st.dictionaries(_TREE_NAME, _TREE, min_size=3, max_size=6))
def test_every_tree_entry_reads_back_whatever_the_names(children):
    text = _draw_tree("top", children)
    out = compress_tree(FormatRequest(text, "tree top"))
    assert out is not None
    assert _read_tree(out) == _raw_tree(text)
