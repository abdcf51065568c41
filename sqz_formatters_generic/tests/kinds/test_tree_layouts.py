"""du, tree, dependency trees and grep -n: the compact layouts keep every entry readable back.

Each layout is checked on its real fixture (what survives, what goes) and by a property test
that renders generated output and reads every entry back from the rendering.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from sqz_core import FormatRequest
from sqz_formatters_generic.kinds.dep_tree import compress_deptree
from sqz_formatters_generic.kinds.grep_matches import compress_grep
from sqz_formatters_generic.kinds.listings import compress_du, compress_tree
from sqz_testing import fact_kept, load_fixture
from sqz_testing import nested_repeats, regex_patterns

FIX = Path(__file__).parent.parent / "fixtures" / "kinds"


def _fixture(path):
    fx = load_fixture(FIX / path)
    return fx, fx.request()


# ---------------------------------------------------------------- du


def test_du_writes_size_name_pairs_without_commas_under_each_directory():
    fx, req = _fixture("du/du_ah_requests.txt")
    out = compress_du(req)
    lines = out.rstrip("\n").split("\n")
    assert lines[0].startswith("500K requests/: 32K sessions.py 12K auth.py 8.0K __init__.py 28K adapters.py")
    assert lines[1].startswith("268K requests/__pycache__/: 32K adapters.cpython-311.pyc 12K exceptions")
    assert len(lines) == 2 and ", " not in out and "\t" not in out
    # every size with its path comes back from the rendering
    assert _read_du(out) == _du_pairs(req.text)


def test_du_names_with_spaces_or_quotes_are_quoted_as_ls_quotes_them():
    text = "4.0K\td/a b.txt\n8.0K\td/c.txt\n1K\td/it's\n12K\td\n"
    out = compress_du(FormatRequest(text, "du -ah d"))
    assert out == "12K d/: 4.0K 'a b.txt' 8.0K c.txt 1K \"it's\"\n"
    assert _read_du(out) == _du_pairs(text)


def test_du_keeps_a_trailing_slash_and_an_absolute_top_level_path():
    text = "4.0K\td/a\n4.0K\td/b\n8.0K\td/s/c\n12K\td/s\n20K\td/\n"
    out = compress_du(FormatRequest(text, "du -ah d/"))
    assert "20K\td/" in out.split("\n")          # du's own line for the argument as typed
    assert _read_du(out) == _du_pairs(text)
    text = "4.0K\t/x/a\n4.0K\t/x/b\n12K\t/x\n20K\t/y\n"
    out = compress_du(FormatRequest(text, "du -ah /x /y"))
    assert out == "20K\t/y\n12K /x/: 4.0K a 4.0K b\n"
    assert _read_du(out) == _du_pairs(text)


def _du_pairs(text):
    return sorted(tuple(line.split("\t", 1)) for line in text.split("\n") if line)


_DU_OWN_LINE = re.compile(r"^\d[\d.,]*[KMGTPE]?\t")


def _read_du(out):
    """(size, path) of every entry in ``compress_du``'s rendering: du's own ``SIZE<tab>path``
    lines, ``[SIZE] dir/: SIZE name …`` groups and ``SIZE dir/`` heads, names as shell words."""
    pairs = []
    for line in out.rstrip("\n").split("\n"):
        if _DU_OWN_LINE.match(line):
            pairs.append(tuple(line.split("\t", 1)))
            continue
        words = shlex.split(line)
        head = next((i for i, w in enumerate(words) if w.endswith("/:")), None)
        if head is None:                          # "SIZE dir/": a directory of directories
            assert len(words) in (1, 2) and words[-1].endswith("/"), line
            if len(words) == 2:
                pairs.append((words[0], words[1][:-1]))
            continue
        assert head in (0, 1), line
        folder = words[head][:-2]
        if head:
            pairs.append((words[0], folder))
        rest = words[head + 1:]
        assert len(rest) % 2 == 0, line
        pairs.extend((size, f"{folder}/{name}") for size, name in zip(rest[::2], rest[1::2]))
    return sorted(pairs)


# names a shell or a reader could split or misread: blanks, quotes, backslashes, colons,
# digits (a name that looks like a size), leading dashes, tabs, non-ASCII
_ODD = "ab1-. '\"\\:\t$é中\xa0"
_NAME = st.text(alphabet=_ODD, min_size=1, max_size=8).filter(lambda n: n not in (".", "..", "total"))
_SIZES = st.sampled_from(["0", "4.0K", "12K", "1.5M", "8.0K", "100K", "2G"])


@st.composite
def _du_tree(draw, depth=0):
    """(name, size, children or None for a file)."""
    files = draw(st.lists(st.tuples(_NAME, _SIZES), max_size=5, unique_by=lambda t: t[0]))
    subdirs = [] if depth >= 2 else draw(st.lists(_du_tree(depth=depth + 1), max_size=2))
    names = {f[0] for f in files}
    subdirs = [d for d in subdirs if d[0] not in names and not names.add(d[0])]
    return (draw(_NAME), draw(_SIZES), [(n, s, None) for n, s in files] + subdirs)


def _du_lines(node, prefix, out):
    name, size, children = node
    path = f"{prefix}/{name}" if prefix else name
    for child in children or []:
        _du_lines(child, path, out) if child[2] is not None else out.append(f"{child[1]}\t{path}/{child[0]}")
    out.append(f"{size}\t{path}")


@settings(max_examples=300, deadline=None)
@given(_du_tree())
def test_du_rendering_reads_back_every_size_and_path(tree):
    lines: list[str] = []
    _du_lines(tree, "", lines)
    text = "\n".join(lines) + "\n"
    out = compress_du(FormatRequest(text, "du -ah"))
    if len(lines) < 3:
        assert out is None
    else:
        assert _read_du(out) == _du_pairs(text)


# ---------------------------------------------------------------- tree


def test_tree_writes_a_directorys_files_on_one_line_before_its_subdirectories():
    fx, req = _fixture("tree/tree_packages.txt")
    out = compress_tree(req)
    lines = out.split("\n")
    i = lines.index("pipdeptree")
    assert lines[i + 1] == ("  __init__.py __main__.py _cli.py _detect_env.py _discovery.py _freeze.py"
                            " _validate.py _warning.py py.typed version.py")
    assert lines[i + 2].startswith("  __pycache__/: __init__.cpython-311.pyc __main__.cpython-311.pyc")
    assert "│" not in out and "├" not in out and "└" not in out
    assert "8 directories, 73 files" in lines


def _draw(root, branch, last, down, more):
    """A tree drawn as ``tree``/``npm ls`` draw ``(name, children)`` nodes (iteratively: the deep tests)."""
    out = [root[0]]
    todo = [(kid, "", i == len(root[1]) - 1) for i, kid in reversed(list(enumerate(root[1])))]
    while todo:
        (name, kids), prefix, is_last = todo.pop()
        out.append(prefix + (last if is_last else branch)(kids) + name)
        inner = prefix + (down if is_last else more)
        todo.extend((kid, inner, i == len(kids) - 1) for i, kid in reversed(list(enumerate(kids))))
    return "\n".join(out) + "\n"


def _tree_text(root):
    """``tree``'s drawing of ``(name, children)`` nodes."""
    return _draw(root, lambda kids: "├── ", lambda kids: "└── ", "    ", "│   ")


_TREE_NAME = st.text(alphabet="abcdef._-", min_size=1, max_size=6)
_ODD_TREE_NAME = st.text(alphabet=_ODD, min_size=1, max_size=8).filter(lambda n: n not in (".", ".."))


@st.composite
def _name_tree(draw, depth=0, names=_TREE_NAME):
    kids = [] if depth >= 3 else draw(st.lists(_name_tree(depth=depth + 1, names=names), max_size=4,
                                               unique_by=lambda n: n[0]))
    return (draw(names if depth else _TREE_NAME), kids)


def _read_tree(out):
    """(parent path, name) of every entry in ``compress_tree``'s rendering: two spaces a
    level, ``dir/`` lines, ``dir/: a b`` lines, runs of files, names as shell words."""
    pairs, stack = [], []            # stack of (indent, path)
    lines = out.rstrip("\n").split("\n")
    for line in lines:
        indent = len(line) - len(line.lstrip(" "))
        body = line[indent:]
        while stack and stack[-1][0] >= indent:
            stack.pop()
        if not stack:
            stack.append((indent, body))   # a root: tree's argument as given
            continue
        parent = stack[-1][1]
        words = shlex.split(body)
        if words[0].endswith("/:"):      # a directory of plain files on one line
            folder = words[0][:-2]
            pairs.append((parent, folder))
            pairs.extend((f"{parent}/{folder}", n) for n in words[1:])
        elif len(words) == 1 and body.endswith("/"):
            pairs.append((parent, words[0][:-1]))
            stack.append((indent, f"{parent}/{words[0][:-1]}"))
        else:
            pairs.extend((parent, n) for n in words)
    return sorted(pairs)


def _tree_pairs(node):
    out, todo = [], [(node, node[0])]
    while todo:
        (name, kids), path = todo.pop()
        for kid in kids:
            out.append((path, kid[0]))
            todo.append((kid, f"{path}/{kid[0]}"))
    return sorted(out)


@settings(max_examples=300, deadline=None)
@given(_name_tree())
def test_tree_rendering_keeps_every_name_under_its_directory(root):
    out = compress_tree(FormatRequest(_tree_text(root), "tree"))
    if len(_tree_pairs(root)) < 3:
        assert out is None
    else:
        assert _read_tree(out) == _tree_pairs(root)


def test_tree_names_with_blanks_or_quotes_are_quoted_so_a_file_run_reads_one_way():
    # one file "a b" and two files "a", "b" rendered alike before; now each reads back exactly
    one = compress_tree(FormatRequest(_tree_text((".", [("d", [("a b", []), ("c", [("x", [])])])])), "tree"))
    two = compress_tree(FormatRequest(_tree_text((".", [("d", [("a", []), ("b", []), ("c", [("x", [])])])])),
                                      "tree"))
    assert one.split("\n")[2] == "    'a b'" and two.split("\n")[2] == "    a b"
    odd = compress_tree(FormatRequest(_tree_text((".", [("it's", []), ('say "hi"', []), ("-rf", [])])), "tree"))
    assert odd.split("\n")[1] == """  "it's" 'say "hi"' -rf"""


@settings(max_examples=300, deadline=None)
@given(_name_tree(names=_ODD_TREE_NAME))
def test_tree_names_with_blanks_quotes_dashes_and_unicode_read_back_exactly(root):
    out = compress_tree(FormatRequest(_tree_text(root), "tree"))
    if len(_tree_pairs(root)) < 3:
        assert out is None
    else:
        assert _read_tree(out) == _tree_pairs(root)


# ---------------------------------------------------------------- npm ls / cargo tree


def test_npm_leaves_share_a_line_without_commas_and_keep_deduped():
    fx, req = _fixture("deptree/npm_ls_all.txt")
    out = compress_deptree(req)
    assert ("      bytes@3.1.2 content-type@1.0.5 deduped debug@2.6.9 deduped depd@2.0.0 deduped destroy@1.2.0"
            in out)
    assert ", " not in out and "├" not in out and "─┬" not in out
    i = out.index("    body-parser@1.20.3\n")
    # the leaves first, then the dependencies with their own
    assert out[i:].split("\n")[2] == "      iconv-lite@0.4.24: safer-buffer@2.1.2"  # only leaves: one line


def test_cargo_tree_keeps_its_order_so_a_star_follows_what_it_points_back_to():
    fx, req = _fixture("deptree/cargo_tree.txt")
    out = compress_deptree(req).split("\n")
    assert out[2] == "  cli v0.1.0 (/tmp/sqz-capture/kinds/ws/cli)"
    assert out[6] == ("  core v0.1.0 (/tmp/sqz-capture/kinds/ws/core), "
                      "net v0.1.0 (/tmp/sqz-capture/kinds/ws/net) (*)")


_LABEL = st.tuples(st.text(alphabet="abcxyz-", min_size=1, max_size=6), st.integers(0, 20),
                   st.booleans()).map(lambda t: f"{t[0]}@1.{t[1]}.0" + (" deduped" if t[2] else ""))


@st.composite
def _dep_tree(draw, depth=0):
    kids = [] if depth >= 3 else draw(st.lists(_dep_tree(depth=depth + 1), max_size=4, unique_by=lambda n: n[0]))
    label = draw(_LABEL)
    return (label.removesuffix(" deduped") if kids else label, kids)


def _npm_text(root):
    return _draw(root, lambda kids: "├─┬ " if kids else "├── ", lambda kids: "└─┬ " if kids else "└── ",
                 "  ", "│ ")


def _read_deps(out):
    """(parent label, label) of every dependency in the rendering; ``deduped`` stays with its label."""
    pairs, stack = [], []
    for line in out.rstrip("\n").split("\n"):
        indent = len(line) - len(line.lstrip(" "))
        while stack and stack[-1][0] >= indent:
            stack.pop()
        body = line.strip().removesuffix(" (subtree above)")
        if not stack:
            stack.append((indent, body))
            continue
        head, sep, rest = body.partition(": ")
        if sep:  # a dependency with only leaves: "name@1: a@1 b@2"
            pairs.append((stack[-1][1], head))
            stack.append((indent, head))
            body = rest
            indent += 1
        words = body.split(" ")
        labels = []
        for w in words:
            if w == "deduped" and labels:
                labels[-1] += " deduped"
            else:
                labels.append(w)
        pairs.extend((stack[-1][1], label) for label in labels)
        if len(labels) == 1:
            stack.append((indent, labels[0]))
    return sorted(pairs)


def _dep_pairs(node):
    out, todo = [], [node]
    while todo:
        label, kids = todo.pop()
        out.extend((label, kid[0]) for kid in kids)
        todo.extend(kids)
    return sorted(out)


def _has_repeated_subtree(node, seen=None):
    seen = set() if seen is None else seen
    for child in node[1]:
        if child[1]:
            if child[0] in seen:
                return True
            seen.add(child[0])
            if _has_repeated_subtree(child, seen):
                return True
    return False


@settings(max_examples=300, deadline=None)
@given(_dep_tree())
def test_npm_rendering_keeps_every_dependency_under_its_parent(root):
    out = compress_deptree(FormatRequest(_npm_text(root), "npm ls --all"))
    if len(_dep_pairs(root)) < 2:
        assert out is None
    elif _has_repeated_subtree(root):
        assert out is not None  # a repeated subtree is written once more as its label only
    else:
        assert _read_deps(out) == _dep_pairs(root)


# ---------------------------------------------------------------- deep trees

DEEP = 5000   # levels: far past Python's recursion limit (1000)


def _spine(depth, label, leaf, after=False):
    """A chain ``depth`` levels deep, each level with a leaf (``leaf(i)``, None for none) before
    the next level (after it: the tools then draw a ``│`` for every level below)."""
    node = (label(depth), [])
    for i in range(depth - 1, -1, -1):
        extra = [(leaf(i), [])] if leaf(i) else []
        node = (label(i), [node] + extra if after else extra + [node])
    return node


def test_an_npm_tree_5000_levels_deep_renders_every_dependency_under_its_parent():
    root = _spine(DEEP, lambda i: f"p{i}@1.0.{i}",
                  lambda i: None if i % 7 else f"leaf{i}@2.0.0" + (" deduped" if i % 14 else ""))
    out = compress_deptree(FormatRequest(_npm_text(root), "npm ls --all"))
    assert _read_deps(out) == _dep_pairs(root)
    assert f"{'  ' * (DEEP - 1)}p{DEEP - 1}@1.0.{DEEP - 1}: p{DEEP}@1.0.{DEEP}" in out


def test_a_cargo_tree_5000_levels_deep_keeps_its_order_and_every_crate():
    root = _spine(DEEP, lambda i: f"c{i} v0.1.{i} (/src/c{i})", lambda i: None if i % 5 else f"l{i} v1.0.0")
    text = _draw(root, lambda kids: "├── ", lambda kids: "└── ", "    ", "│   ")
    out = compress_deptree(FormatRequest(text, "cargo tree"))
    lines = out.rstrip("\n").split("\n")
    assert len(lines) == DEEP + 1 + DEEP // 5   # one line per crate, the tool's order kept
    for i, line in enumerate(line for line in lines if " (/src/" in line):
        assert line == "  " * i + f"c{i} v0.1.{i} (/src/c{i})"
    assert lines[1] == "  l0 v1.0.0" and lines[2] == "  c1 v0.1.1 (/src/c1)"


def test_a_directory_tree_5000_levels_deep_reads_back_under_each_directory():
    root = _spine(DEEP, lambda i: "." if i == 0 else f"d{i}", lambda i: None if i % 500 else f"a b {i}.txt")
    out = compress_tree(FormatRequest(_tree_text(root), "tree"))
    assert _read_tree(out) == _tree_pairs(root)


def test_a_deep_npm_tree_is_compressed_through_the_pipeline(tmp_path, monkeypatch):
    """Past the recursion limit the pipeline used to catch a RecursionError and pass through."""
    from sqz_core.pipeline import compress
    from sqz_core.store import Store

    monkeypatch.setenv("SQZ_TIME_BUDGET_MS", "0")   # the input is megabytes; the budget is not under test
    root = _spine(1500, lambda i: f"p{i}@1.0.{i}", lambda i: f"leaf{i}@2.0.0", after=True)
    store = Store.open(str(tmp_path / "db.sqlite"))
    try:
        result = compress(_npm_text(root).encode(), command="npm ls --all", store=store, session="deep")
    finally:
        store.close()
    assert result.outcome == "compressed", (result.outcome, result.reason)
    out = result.output.decode()
    assert f"{'  ' * 1499}p1499@1.0.1499: p1500@1.0.1500 leaf1499@2.0.0\n" in out and "│" not in out


def test_a_line_of_tree_bars_that_is_no_tree_line_is_rejected_at_once():
    # the prefix was a nested repeat, ``(?:[│|][ \xa0]*|[ \xa0])*?``: such a line took seconds at 20
    # bars, years at 40. The guard is the patterns' shape (no repeat that can backtrack inside a
    # repeat), checked before the 40-bar line is run: a regression fails here instead of hanging.
    from sqz_formatters_generic.kinds import dep_tree, listings

    for module in (dep_tree, listings):
        for name, pattern in regex_patterns(module).items():
            assert nested_repeats(pattern) == [], (module.__name__, name, pattern)
    text = "root@1.0.0\n├── a@1.0.0\n├── b@1.0.0\n" + "│   " * 40 + "x\n"
    assert compress_deptree(FormatRequest(text, "npm ls")) is None


# ---------------------------------------------------------------- grep -n


def test_grep_rows_start_at_the_margin_under_their_path():
    fx, req = _fixture("grep/grep_rn_raise.txt")
    out = compress_grep(req).split("\n")
    i = out.index("requests/sessions.py (4 matches):")
    assert out[i + 1:i + 5] == ["191: raise TooManyRedirects(",
                                "249: # value ensures `rewindable` will be True, allowing us to raise an",
                                "689: raise ValueError(\"You can only send PreparedRequests.\")",
                                "792: raise InvalidSchema(f\"No connection adapters were found for {url!r}\")"]
    assert "requests/auth.py:73: raise NotImplementedError(\"Auth hooks must be callable.\")" in out
    assert not any(line.startswith(" ") for line in out)


def test_grep_without_line_numbers_keeps_its_rows_indented():
    p = "src/package/module_a.py"
    text = f"{p}:x = 1\n{p}:y = 2\n{p}:z = 3\n"
    assert compress_grep(FormatRequest(text, "grep -r = .")) == f"{p} (3 matches):\n  x = 1\n  y = 2\n  z = 3\n"


_GREP_TEXT = st.text(alphabet="abc xyz():=1", min_size=1, max_size=30).filter(lambda t: t.strip() == t)
_GREP_PATHS = ["src/package/module_a.py", "src/package/module b.py", "lib/vendor/index_x.js"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(_GREP_PATHS),
                          st.lists(st.tuples(st.integers(1, 999), _GREP_TEXT), min_size=3, max_size=8)),
                min_size=1, max_size=4))
def test_grep_rendering_reads_back_every_match(files):
    # grep -r prints a file's matches together; a path may come back later (another -e pass)
    matches = [(p, n, t) for p, rows in files for n, t in rows]
    text = "".join(f"{p}:{n}:{t}\n" for p, n, t in matches)
    out = compress_grep(FormatRequest(text, "grep -rn x ."))
    got, path = [], None
    for line in out.rstrip("\n").split("\n"):
        if line.startswith("["):
            assert re.fullmatch(r"\[\d+ matching lines in \d+ files\]", line)
            continue
        if not re.match(r"\d+(?: \d+)*: ", line):
            path = re.fullmatch(r"(.+) \(\d+ matches\):", line).group(1)
            continue
        ns, _, t = line.partition(": ")               # rows of one text: "231 240 247: text"
        got.extend((path, int(n), t) for n in ns.split(" "))
    order = list(dict.fromkeys(p for p, _, _ in matches))
    assert list(dict.fromkeys(p for p, _, _ in got)) == order     # files in grep's order
    assert sorted(got) == sorted(matches)                          # every match, rows of one text together
    assert not any(line.startswith(" ") for line in out.split("\n"))


_QUOTED = re.compile(r"""^('(?:[^']|'\\'')*'|"[^"]*")(.*)$""")
_HEADING = re.compile(r"^(.*) \((\d+) match(?:es)?\):$")


def _read_grep(out):
    """(path, line, text) of every match in ``compress_grep``'s numbered rendering: rows
    ``N: text`` under a ``path (N matches):`` heading, single matches as ``path:N: text``,
    a path quoted (shell word) where it starts like a row or with a blank or quote."""
    got, path = [], None
    lines = out.rstrip("\n").split("\n")
    if re.fullmatch(r"\[\d+ matching lines in \d+ files\]", lines[-1]):
        lines.pop()
    for line in lines:
        row = re.match(r"^(\d+(?: \d+)*): (.*)$", line)     # rows of one text: "231 240 247: text"
        if row:
            got.extend((path, int(n), row.group(2)) for n in row.group(1).split(" "))
            continue
        quoted = _QUOTED.match(line)
        if quoted:
            name, rest = shlex.split(quoted.group(1))[0], quoted.group(2)
        else:
            single = re.match(r"^(.*?):(\d+): ", line)
            name, rest = (single.group(1), line[single.end(1):]) if single else _HEADING.match(line).group(1, 0)
            rest = rest if single else ""
        if rest.startswith(":"):          # a file with one match: path:N: text
            n, _, text = rest[1:].partition(": ")
            got.append((name, int(n), text))
        else:
            assert rest == "" or _HEADING.fullmatch("x" + rest), line
            path = name
    return got


def test_grep_quotes_a_path_that_would_read_as_a_row():
    rows = [(n, f"hit number {n}") for n in range(1, 9)]
    text = ("".join(f"12: meeting notes.txt:{n}:{t}\n" for n, t in rows) + "'draft'.md:4:hit\n"
            + "".join(f"docs/plain.md:{n}:{t}\n" for n, t in rows))
    out = compress_grep(FormatRequest(text, "grep -rn hit ."))
    lines = out.split("\n")
    assert lines[:2] == ["'12: meeting notes.txt' (8 matches):", "1: hit number 1"]
    assert lines[9:11] == ["\"'draft'.md\":4: hit", "docs/plain.md (8 matches):"]
    assert _read_grep(out) == ([("12: meeting notes.txt", n, t) for n, t in rows] + [("'draft'.md", 4, "hit")]
                               + [("docs/plain.md", n, t) for n, t in rows])


def test_grep_quotes_a_path_that_would_read_as_rows_of_one_text():
    # found by the property below: a path starting "11111111 1: " read as the rows "11111111 1: …"
    files = [("11111111 1: ", [(1, "1")] * 10), ("111111111111", [(1, "1")] * 10)]
    raw = [f"{p}:{n}:{t}" for p, rows in files for n, t in rows]
    out = compress_grep(FormatRequest("\n".join(raw) + "\n", "grep -rn x ."))
    assert out.split("\n")[0] == "'11111111 1: ' (10 matches):"
    assert sorted(_read_grep(out)) == sorted((p, n, t) for p, rows in files for n, t in rows)


# paths with colons, digits, dashes, blanks, quotes and non-ASCII (not ":N:" or a trailing
# ":N": grep's own "path:N:text" then reads another way, the same for any reader)
_GREP_ODD_PATH = st.text(alphabet="ab1:-/ '\"é.", min_size=12, max_size=20).filter(
    lambda p: not re.search(r":\d+(?::|$)", p) and not p.lower().startswith(("binary file", "grep: ")))
_GREP_ODD_TEXT = st.text(alphabet="ab1:- '\"é", min_size=1, max_size=12).filter(lambda t: t.strip() == t)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(_GREP_ODD_PATH, st.lists(st.tuples(st.integers(1, 999), _GREP_ODD_TEXT),
                                                   min_size=10, max_size=12)),
                min_size=2, max_size=3, unique_by=lambda f: f[0]))
def test_grep_odd_paths_read_back_as_the_lines_grep_printed(files):
    raw = [f"{p}:{n}:{t}" for p, rows in files for n, t in rows]
    out = compress_grep(FormatRequest("\n".join(raw) + "\n", "grep -rn x ."))
    assert out is not None   # 10+ matches a file under a 12+ character path: grouping is shorter
    # every match back under its path, but for its text's indentation (dropped by design)
    assert sorted(_read_grep(out)) == sorted((p, n, t.strip()) for p, rows in files for n, t in rows)
    assert not any(line.startswith(" ") for line in out.split("\n"))




def test_an_npm_status_label_stands_alone_not_joined_to_the_names_after_it():
    # npm ls --all (npm 11.19.1, sqz_formatters_test/tests/fixtures/npm/h2_npm_ls_all): an unmet optional
    # peer among leaf siblings; joined with ", " the status would read as the next package's too
    raw = (Path(__file__).parents[3] / "sqz_formatters_test/tests/fixtures/npm/h2_npm_ls_all.txt").read_text()
    sibling = "@types/html-minifier-terser@6.1.0"
    assert "UNMET OPTIONAL DEPENDENCY @rspack/core@0.x || 1.x || 2.x" in raw and sibling in raw
    out = compress_deptree(FormatRequest(raw, "npm ls --all"))
    unmet = [line for line in out.splitlines() if "UNMET" in line]
    assert [line.strip() for line in unmet] == ["UNMET OPTIONAL DEPENDENCY @rspack/core@0.x || 1.x || 2.x"]
    assert any(sibling in line for line in out.splitlines())
