"""Held-out listings and searches (fixtures captured outside the tuning set): what survives
each new reading (find -ls, relative find, grep -l/-c, context, rg --heading, lines shared by
many files) and that damaged input gives passthrough, never a wrong summary."""

from __future__ import annotations

import re
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from sqz_formatters_generic.kinds import compress_kind
from sqz_formatters_generic.kinds.grep_matches import compress_grep
from sqz_formatters_generic.kinds.listings import compress_find
from sqz_core.request import FormatRequest
from sqz_testing import load_fixture

FIX = Path(__file__).parent / "fixtures" / "kinds"


def _fx(kind: str, name: str):
    return load_fixture(FIX / kind / f"{name}.txt")


# ---------------------------------------------------------------- find -ls

_FIND_LS = re.compile(r"^ *(\d+) +(\d+) +(\S{10}) +\d+ +(\S+) +(\S+) +(\d+) +(\w{3} +\d+ +[\d:]+) (.+)$")


def test_find_ls_keeps_every_path_with_its_size_and_drops_inode_and_blocks():
    fx = _fx("find", "find_ls_requests")
    out = compress_find(fx.request())
    lines = out.rstrip("\n").split("\n")
    # issue 25: permissions and link count as printed; the pair most entries share is said once
    assert lines[0] == ("[find -ls as: [mode] links size name; mode where not shown: drwxr-xr-x for dir/, "
                        "-rw-r--r-- for files; all owned by root:root; all dated Dec 1 10:12]")
    rows = {}
    for line in lines[1:]:
        links, size, path = line.split(" ", 2)
        mode = "drwxr-xr-x" if path.endswith("/") else "-rw-r--r--"
        rows[path.rstrip("/")] = (mode, size)
    raw = [_FIND_LS.match(line).groups() for line in fx.text.strip().split("\n")]
    assert len(rows) == len(raw)
    for inode, blocks, mode, _, _, size, _, path in raw:
        assert rows[path][1] == size
        assert rows[path][0].split(" ")[0] == mode
        assert inode not in out
    assert any(x.endswith(" 4096 requests/__pycache__/") for x in lines)


def test_find_ls_of_another_shape_is_refused():
    fx = _fx("find", "find_ls_requests")
    text = fx.text.replace("  2369851     32 -rw-r--r--", "  2369851     32 -rw-r--r-", 1)   # a bad mode
    assert compress_find(FormatRequest(text, "find requests -ls")) is None
    # plain paths given to find -ls: not its output
    assert compress_find(FormatRequest("a/b\na/c\na/d\n", "find a -ls")) is None


def test_find_printing_something_else_than_paths_is_left_alone():
    sized = "".join(f"4096 ./d{i}/f.py\n" for i in range(5))
    assert compress_find(FormatRequest(sized, "find . -printf '%s %p\\n'")) is None
    assert compress_find(FormatRequest(sized, "find . -name '*.py' -exec wc -c {} +")) is None
    assert compress_find(FormatRequest("a/x\na/y\na/z\n", "find a -type f")) == "a/: x y z\n"


def test_relative_find_writes_every_path_whole():
    fx = _fx("find", "find_node_modules_js")
    out = compress_find(fx.request())
    assert not out.startswith("[paths under")
    back = set()
    lines = out.rstrip("\n").split("\n")
    assert lines[-1] == "[164 paths: 163 files (.js 163), 1 directories with entries; counted by extension]"
    for line in lines[:-1]:
        d, _, names = line.partition("/: ")
        back.update(f"{d}/{n.rstrip('/')}" for n in names.split(" "))
    assert back == set(fx.text.split())


# ---------------------------------------------------------------- grep -l / -c


def test_grep_l_is_grouped_by_directory_and_reads_back():
    fx = _fx("grep", "grep_l_deprecated")
    out = compress_grep(fx.request())
    assert out.count("\n") == 1 and out.startswith("eslint/lib/rules/: ")
    d, _, names = out.strip().partition("/: ")
    assert {f"{d}/{n}" for n in names.split(" ")} == set(fx.text.split())


def test_rg_files_is_a_path_list_too():
    paths = "".join(f"src/pkg/m{i}.py\n" for i in range(6)) + "src/top.py\n"
    out = compress_grep(FormatRequest(paths, "rg --files src"))
    assert out == "src/pkg/: m0.py m1.py m2.py m3.py m4.py m5.py\nsrc/: top.py\n"


def test_grep_c_keeps_every_count_with_its_file():
    fx = _fx("grep", "grep_c_rules")
    out = compress_grep(fx.request())
    back = {}
    for line in out.rstrip("\n").split("\n"):
        d, _, items = line.partition("/: ")
        for item in items.split(" "):
            name, _, count = item.rpartition(":")
            back[f"{d}/{name}"] = count
    raw = dict(line.rsplit(":", 1) for line in fx.text.strip().split("\n"))
    assert back == raw
    assert "index.js:0" in out            # a zero count is a fact too


def test_grep_c_of_another_shape_is_left_alone():
    counts = "".join(f"src/m{i}.py:{i}\n" for i in range(8))
    assert compress_grep(FormatRequest(counts, "grep -c x src/*.py")) is not None
    assert compress_grep(FormatRequest("3\n5\n8\n1\n9\n0\n", "grep -c x a b c d e f")) is None   # -h: no paths
    assert compress_grep(FormatRequest(counts.replace("m3.py", "m 3.py"), "grep -c x src")) is None
    assert compress_grep(FormatRequest(counts.replace("m3.py:3", "m3.py:x"), "grep -c x src")) is None
    assert compress_grep(FormatRequest(counts, "grep -co x src")) is None    # -o: another layout


# ---------------------------------------------------------------- context and --heading

_ROW = re.compile(r"^(\d+)([:-]) ?(.*)$")


def _read_blocks(out: str) -> list[tuple[str, str, str, str]]:
    """(path, line, kind, text) of every row of a context rendering."""
    rows, path = [], None
    for line in out.rstrip("\n").split("\n"):
        m = re.match(r"^(.+) \(\d+ match(?:es)?\):$", line)
        if m:
            path = m.group(1)
        elif line != "--":
            r = _ROW.match(line)
            rows.append((path, r.group(1), r.group(2), r.group(3)))
    return rows


def _raw_context(text: str) -> list[tuple[str, str, str, str]]:
    out = []
    for line in text.strip().split("\n"):
        if line == "--":
            continue
        m = re.match(r"^(requests/\w+\.py)([:-])(\d+)\2(.*)$", line)
        out.append((m.group(1), m.group(3), m.group(2), m.group(4).strip()))
    return out


def test_context_lines_keep_their_file_number_and_kind():
    for name in ("rg_C2_raise", "grep_C2_send"):
        fx = _fx("grep", name)
        out = compress_grep(fx.request())
        assert sorted(_read_blocks(out)) == sorted(_raw_context(fx.text))


def test_context_with_a_gap_in_numbers_or_a_cut_line_is_refused():
    fx = _fx("grep", "grep_C2_send")
    text = fx.text.replace("requests/sessions.py-672-", "requests/sessions.py-682-", 1)
    assert compress_grep(FormatRequest(text, fx.command)) is None
    cut = fx.text[: fx.text.index("requests/adapters.py-145-") + len("requests/adapt")]
    out = compress_grep(FormatRequest(cut + "\n", fx.command))
    assert out is None


def test_heading_rows_keep_their_file_and_number():
    fx = _fx("grep", "rg_heading_errors")
    out = compress_grep(fx.request())
    assert "\n\n" not in out
    assert "rich/color.py:288:class ColorParseError(Exception):" in out
    assert "rich/errors.py\n1:class ConsoleError(Exception):\n5:class StyleError(Exception):" in out
    # a row without a number
    assert compress_grep(FormatRequest("a.py\nfoo\n\nb.py\n1:x\n", "rg --heading -n x")) is None


def test_files_matching_the_same_line_are_one_block_and_every_one_reads_back():
    fx = _fx("grep", "grep_rn_require_eslint")
    out = compress_grep(fx.request())
    raw = {(p, n) for p, n, t in (line.split(":", 2) for line in fx.text.strip().split("\n"))
           if t == 'const astUtils = require("./utils/ast-utils");'}
    block = [line for line in out.split("\n") if line.endswith('}: const astUtils = require("./utils/ast-utils");')]
    assert len(block) == 1
    d, _, rest = block[0].partition("/{")
    names = rest.split("}: ")[0].split(" ")
    back = {(f"{d}/{item.rsplit(':', 1)[0]}", item.rsplit(":", 1)[1]) for item in names}
    # files with one match share the block; files with several keep their own lines
    single = {p for p, _ in raw if fx.text.count(p + ":") == 1}
    assert back == {(p, n) for p, n in raw if p in single}
    assert len(back) >= 100
    assert 'eslint/lib/rules/max-params.js (2 matches):\n12: const astUtils = require("./utils/ast-utils");' in out


def test_shared_line_needs_three_files_and_plain_names():
    two = "a/x.py:1:import os\nb/y.py:2:import os\nc/z.py:3:import sys\n"
    assert "{" not in (compress_grep(FormatRequest(two, "grep -rn import .")) or two)
    three = "a/x.py:1:import os\na/y.py:2:import os\na/w z.py:4:import os\na/v.py:7:import os\n"
    out = compress_grep(FormatRequest(three, "grep -rn import ."))
    assert "a/{x.py:1 y.py:2 v.py:7}: import os" in out
    assert "a/w z.py:4: import os" in out          # a name with a blank keeps its own line


# ---------------------------------------------------------------- damage: passthrough or a faithful reading

_DAMAGE = st.tuples(st.integers(0, 10**6), st.sampled_from(["cut", "drop", "garble"]), st.text(max_size=12))


def _damaged(text: str, where: int, how: str, junk: str) -> str:
    lines = text.split("\n")
    i = where % len(lines)
    if how == "cut":
        return text[: where % max(1, len(text))]
    if how == "drop":
        return "\n".join(lines[:i] + lines[i + 1:])
    return "\n".join(lines[:i] + [lines[i][: len(lines[i]) // 2] + junk] + lines[i + 1:])


@settings(max_examples=150, deadline=None)
@given(_DAMAGE, st.sampled_from([("find", "find_ls_requests"), ("grep", "rg_C2_raise"), ("grep", "grep_c_rules"),
                                 ("grep", "rg_heading_errors"), ("grep", "grep_l_deprecated")]))
def test_damaged_input_gives_passthrough_or_only_what_it_says(damage, which):
    fx = _fx(*which)
    text = _damaged(fx.text, *damage)
    req = FormatRequest(text, fx.command)
    out = compress_kind(which[0], req)
    if out is None:
        return
    assert isinstance(out, str)
    # every word the rendering shows comes from the damaged input (or is ours: counts, legends)
    words = set(re.findall(r"[\w.\-]+\.(?:py|js)", out))
    assert words <= set(re.findall(r"[\w.\-]+\.(?:py|js)", text))


# ---------------------------------------------------------------- tree -h / -p / -u (bracketed metadata)


def test_tree_metadata_goes_before_each_name_as_du_writes_sizes():
    fx = _fx("tree", "tree_aFh_requests")
    out = compress_kind("tree", fx.request())
    lines = out.rstrip("\n").split("\n")
    assert lines[0] == "[4.0K]  requests/"                   # the root as tree printed it
    assert lines[1].startswith("  5.0K __init__.py 435 __version__.py 1.5K _internal_utils.py ")
    assert lines[2].startswith("  4.0K __pycache__/: 6.2K __init__.cpython-311.pyc 573 __version__.cpython-311.pyc ")
    assert "'" not in out and "//" not in out and "[ " not in out
    pairs = " ".join(lines[1:3]).replace("4.0K __pycache__/:", "").split()
    raw = re.findall(r"\[ *([^\]]+?)\]  (\S+)", fx.text)[1:]
    assert sorted(zip(pairs[::2], pairs[1::2])) == sorted((size, name.rstrip("/")) for size, name in raw
                                                          if name != "__pycache__/")


def test_tree_metadata_on_only_some_entries_is_left_to_the_plain_layout():
    text = "top\n├── [ 12]  a.txt\n├── [ 30]  b.txt\n└── c.txt\n"
    out = compress_kind("tree", FormatRequest(text, "tree -s top"))
    assert out == "top\n  '[ 12]  a.txt' '[ 30]  b.txt' c.txt\n"
    fields = ("top\n├── [-rw-r--r-- root     4.0K]  a.txt\n├── [drwxr-xr-x root     4.0K]  d\n"
              "│   └── [-rw-r--r-- root      12]  e\n└── [-rw-r--r-- root      30]  b.txt\n")
    out = compress_kind("tree", FormatRequest(fields, "tree -pus top"))
    assert out == ("top\n  -rw-r--r--,root,4.0K a.txt -rw-r--r--,root,30 b.txt\n"
                   "  drwxr-xr-x,root,4.0K d/: -rw-r--r--,root,12 e\n")
