"""The held-out listing captures read back item by item, as the older fixtures do.

Their sidecar facts can only name a grouped item as parts (``["eslint/lib/rules/", "index.js:0"]``
also matches ``eslint/lib/rules/utils/unicode/: … index.js:0``), or as a header and a line that a
flush-left group (``path (N matches):`` over ``12: text``) cannot satisfy; these read every item
of the held-out captures back from the rendering with the readers of test_listing_attribution.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from test_listing_attribution import _ls_expected, _raw_ls, _raw_tree, _RAW_GREP, _read_du, _read_grep, _read_ls, _read_tree

from sqz_core import FormatRequest
from sqz_core.cleanup import clean_terminal
from sqz_formatters_generic.kinds.grep_matches import compress_grep
from sqz_formatters_generic.kinds.listings import compress_du, compress_ls, compress_tree
from sqz_testing import load_fixture

FIX = Path(__file__).parent.parent / "fixtures" / "kinds"


@pytest.mark.parametrize("name", ["grep_rn_require_eslint"])
def test_heldout_grep_matches_read_back_with_path_line_and_text(name):
    fx = load_fixture(FIX / "grep" / f"{name}.txt")
    request = fx.request()
    text = clean_terminal(request.text)
    raw = [m.groups() for m in map(_RAW_GREP.match, text.strip().split("\n"))]
    assert len(raw) > 100 and all(raw)
    back = _read_grep_braced(compress_grep(FormatRequest(text, request.command, exit_code=0)))
    assert sorted((p, n) for p, n, _ in back) == sorted((p, n) for p, n, _ in raw)
    said = {(p, n): s for p, n, s in back}
    for p, n, was in raw:
        if "[…" not in said[(p, n)]:
            assert said[(p, n)] == was.strip(), (p, n)


def _read_grep_braced(rendered: str) -> list[tuple[str, str, str]]:
    """As _read_grep, plus the shared-text line ``dir/{a.js:12 b.js:8}: text``."""
    plain, out = [], []
    for line in rendered.rstrip("\n").split("\n"):
        m = re.match(r"^([^\s{]*/)\{([^{}]*)\}: (.*)$", line)
        if m:
            for item in m.group(2).split(" "):
                name, _, number = item.rpartition(":")
                out.append((m.group(1) + name, number, m.group(3)))
            continue
        plain.append(line)
    return out + _read_grep("\n".join(plain))


@pytest.mark.parametrize("name", ["tree_L2_node_modules", "tree_d_dirs"])
def test_heldout_tree_entries_read_back_under_their_directory(name):
    fx = load_fixture(FIX / "tree" / f"{name}.txt")
    raw = _raw_tree(fx.request().text)
    assert len(raw) > 20
    assert _read_tree(compress_tree(fx.request())) == raw


@pytest.mark.parametrize("name", ["du_h_d2_node_modules", "du_sh_star"])
def test_heldout_du_sizes_read_back_with_their_path(name):
    fx = load_fixture(FIX / "du" / f"{name}.txt")
    lines = fx.text.strip().split("\n")
    raw = {path: size for size, path in (line.split("\t", 1) for line in lines if "\t" in line)}
    errors = [line for line in lines if "\t" not in line]       # du's own complaints, kept as printed
    assert len(raw) > 10
    out = compress_du(fx.request())
    assert all(e in out.split("\n") for e in errors)
    assert _read_du("\n".join(line for line in out.split("\n") if line not in errors)) == raw


@pytest.mark.parametrize("name", ["ls_laR_requests"])
def test_heldout_ls_entries_read_back_under_their_directory(name):
    """``ls -laR``: every entry with its mode, owner, size and date, under its own ``dir:`` header."""
    fx = load_fixture(FIX / "ls" / f"{name}.txt")
    raw = _raw_ls(fx.request().text)
    assert len(raw) > 20 and len({r[0] for r in raw}) == 2
    assert _read_ls(compress_ls(fx.request())) == [_ls_expected(r) for r in raw]


def _heading_items(text: str) -> list[tuple[str, str, str]]:
    """(path, line, text) from ``rg --heading`` (a path line over ``N:text`` lines) or ``path:N:text``."""
    out, path = [], None
    for line in text.split("\n"):
        if not line.strip():
            continue
        m = re.match(r"^(\d+):(.*)$", line)
        if m and path is not None:
            out.append((path, m.group(1), m.group(2)))
            continue
        m = _RAW_GREP.match(line)
        if m:
            out.append(m.groups())
            path = None
        else:
            path = line
    return out


def test_heldout_rg_heading_matches_read_back_under_their_file():
    """The same line number in two files (288 in color.py and console.py) stays with its own file."""
    fx = load_fixture(FIX / "grep" / "rg_heading_errors.txt")
    raw = _heading_items(fx.request().text)
    assert len(raw) > 25 and ("rich/color.py", "288", "class ColorParseError(Exception):") in raw
    assert sorted(_heading_items(compress_grep(fx.request()))) == sorted(raw)
