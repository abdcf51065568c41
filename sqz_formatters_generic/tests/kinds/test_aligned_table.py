"""Aligned tables: padding collapses, every cell comes back byte for byte."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from sqz_core import FormatRequest
from sqz_formatters_generic.kinds.aligned_table import compact_table_text, compress_table, parse_table, render_table, split_rendered
from sqz_testing import load_fixture
from pathlib import Path

FIX = Path(__file__).parent.parent / "fixtures" / "kinds" / "table"
WORD = st.text(st.characters(min_codepoint=33, max_codepoint=0x2FF, blacklist_categories=("Cs", "Cc", "Zs", "Zl", "Zp")),
               min_size=1, max_size=8)
HEADER = st.from_regex(r"[A-Z][A-Z%_]{1,7}", fullmatch=True)


@st.composite
def aligned(draw):
    ncols = draw(st.integers(2, 6))
    header = draw(st.lists(HEADER, min_size=ncols, max_size=ncols, unique=True))
    nrows = draw(st.integers(2, 8))
    right = draw(st.lists(st.booleans(), min_size=ncols, max_size=ncols))
    rows = []
    for _ in range(nrows):
        row = [draw(WORD) for _ in range(ncols - 1)]
        # the last column is free text with single spaces (a command line)
        row.append(" ".join(draw(st.lists(WORD, min_size=1, max_size=4))))
        rows.append(row)
    table = [header] + rows
    widths = [max(len(r[i]) for r in table) for i in range(ncols)]
    gap = draw(st.integers(1, 4))
    lines = []
    for r in table:
        cells = [(r[i].rjust(widths[i]) if right[i] and r is not header and i else r[i].ljust(widths[i]))
                 if i < ncols - 1 else r[i] for i in range(ncols)]
        if any(right[i] and i for i in range(ncols - 1)):
            cells = [(r[i].rjust(widths[i]) if right[i] and i else r[i].ljust(widths[i]))
                     if i < ncols - 1 else r[i] for i in range(ncols)]
        lines.append((" " * gap).join(cells).rstrip())
    return table, "\n".join(lines) + "\n"


@settings(max_examples=200, deadline=None)
@given(aligned())
def test_cells_round_trip(case):
    table, text = case
    parsed = parse_table(text)
    assert parsed is not None, text
    out = render_table(parsed)
    assert split_rendered(out, len(table[0])) == table


def test_real_tables_round_trip():
    for name in ("ps_aux", "df_h"):
        fx = load_fixture(FIX / f"{name}.txt")
        table = parse_table(fx.request().text)
        out = compress_table(fx.request())
        assert split_rendered(out, len(table[0])) == table
        assert table[0][-1] in ("COMMAND", "Mounted on")


def test_ragged_rows_are_not_a_table():
    text = load_fixture(FIX / "df_h.txt").request().text.split("\n")
    text[2] = "  " + text[2]            # one row shifted out of its columns
    assert compress_table(FormatRequest("\n".join(text), "df -h")) is None
    lines = load_fixture(FIX / "df_h.txt").request().text.split("\n")
    lines[3] = lines[3].replace("   0%", " 0%   ")
    assert compress_table(FormatRequest("\n".join(lines), "df -h")) is None


def test_header_name_with_a_space_over_an_empty_gutter_stays_one_column():
    text = ("Filesystem      Size  Mounted on\n"
            "/dev/vda        252G  /\n"
            "tmpfs            24G  /\n")
    assert parse_table(text) == [["Filesystem", "Size", "Mounted on"], ["/dev/vda", "252G", "/"], ["tmpfs", "24G", "/"]]
    # a single space between a right-aligned and a left-aligned header (ps's "RSS TTY") still splits
    ps = load_fixture(FIX / "ps_aux.txt").request().text
    assert parse_table(ps)[0][5:7] == ["RSS", "TTY"]


def test_rule_under_the_header_goes_and_identical_runs_fold():
    text = ("Package    Version\n"
            "---------- -------\n"
            "requests   2.32.3\n"
            "requests   2.32.3\n"
            "rich       13.9.4\n"
            "requests   2.32.3\n")
    table = parse_table(text)
    assert table[0] == ["Package", "Version"] and len(table) == 5
    out = render_table(table)
    assert out == "Package Version\nrequests 2.32.3 [×2]\nrich 13.9.4\nrequests 2.32.3\n"
    assert split_rendered(out, 2) == table


def test_columns_the_shortest_row_hides_are_refused():
    text = ("IMAGE ID       CREATED        SIZE\n"
            "746b819f315e   24 hours ago   213.4 MB\n"
            "746b819f315e   24\n")
    assert parse_table(text) is None
    assert parse_table(text.rsplit("\n", 2)[0] + "\n" + "746b819f315e   24 hours ago   1 MB\n") is not None


def test_separator_is_a_tab_only_when_a_space_would_be_ambiguous():
    assert render_table([["A", "B"], ["x", "y z"]]) == "A B\nx y z\n"
    assert render_table([["A", "B", "C"], ["x y", "1", "z"]]) == "A\tB\tC\nx y\t1\tz\n"
    assert render_table([["A", "B", "C"], ["x", "", "z"]]) == "A\tB\tC\nx\t\tz\n"
    assert render_table([["A", "B"], ["x", ""]]) is None


def test_right_aligned_first_column_starts_at_the_margin():
    table = parse_table(load_fixture(FIX / "ps_eo.txt").request().text)
    assert table[0] == ["PID", "PPID", "USER", "STAT", "RSS", "ELAPSED", "COMMAND"]
    assert table[1][:2] == ["1", "0"] and table[-1][0] == "7"
    out = render_table(table)
    assert out.startswith("PID PPID USER STAT RSS ELAPSED COMMAND\n1 0 root R 4436 00:00 ps -eo ")
    assert split_rendered(out, 7) == table


def test_later_blocks_are_compacted_when_tables_else_kept():
    ps = load_fixture(FIX / "ps_eo.txt").request().text
    df = load_fixture(FIX / "df_h.txt").request().text
    out = compress_table(FormatRequest(ps + "\n" + df + "\n[notice] something after\n", "ps -eo pid"))
    blocks = out.rstrip("\n").split("\n\n")
    assert blocks[0] == render_table(parse_table(ps)).rstrip("\n")
    assert blocks[1] == render_table(parse_table(df)).rstrip("\n")
    assert blocks[2] == "[notice] something after"


# ---------------------------------------------------------------- a long value on every row


def test_a_long_path_on_every_row_is_said_once_above_the_header():
    fx = load_fixture(FIX.parent / "deptree" / "pip_list_v.txt")
    text = fx.request().text
    out = compact_table_text(text)
    lines = out.split("\n")
    loc = "/root/.pyenv/versions/3.11.7/lib/python3.11/site-packages"
    assert lines[0] == f"[on every row, Location: {loc}]"
    assert lines[1] == "Package Version Location Installer"  # every column still named
    assert "requests 2.34.2 pip" in lines and "Flask 3.1.3 pip" in lines
    assert out.count(loc) == 1 and "----" not in out
    table = parse_table(text)
    assert split_rendered(out, 4) == table


def test_a_value_with_spaces_or_a_short_one_stays_on_every_row():
    state = [["ID", "STATUS", "NAME"]] + [[f"c{i}", "Exited (0) 2 weeks ago", f"n{i}"] for i in range(4)]
    assert render_table(state, hoist=True).split("\n")[1] == "c0\tExited (0) 2 weeks ago\tn0"
    short = [["USER", "PID", "CMD"]] + [["root", str(i), "sleep"] for i in range(4)]
    assert render_table(short, hoist=True) == render_table(short)
    few = [["A", "B"]] + [["x", "/a/long/path/that/repeats/here"]] * 2
    assert render_table(few, hoist=True) == render_table(few)  # two rows: nothing gained


LONG = st.text(alphabet="abc/._-", min_size=20, max_size=40)


@settings(max_examples=200, deadline=None)
@given(aligned(), LONG, st.data())
def test_a_column_shared_by_every_row_round_trips(case, value, data):
    table, _ = case
    col = data.draw(st.integers(1, len(table[0]) - 1))  # the free-text column stays last
    name = data.draw(HEADER.filter(lambda h: h not in table[0]))
    wide = [r[:col] + [name if r is table[0] else value] + r[col:] for r in table]
    text = _align(wide, data.draw(st.integers(1, 4)))
    parsed = parse_table(text)
    assert parsed is not None, text
    out = render_table(parsed, hoist=True)
    assert split_rendered(out, len(wide[0])) == wide
    if len(wide) - 1 >= 3:
        assert out.startswith(f"[on every row, {name}: {value}]\n")
        assert out.count(value) == 1
    else:
        assert not out.startswith("[")


def _align(table, gap):
    ncols = len(table[0])
    widths = [max(len(r[i]) for r in table) for i in range(ncols)]
    return "\n".join((" " * gap).join(r[i].ljust(widths[i]) if i < ncols - 1 else r[i] for i in range(ncols)).rstrip()
                     for r in table) + "\n"


# ---------------------------------------------------------------- adversarial cells

_HOISTED = "/usr/lib/python3/dist-packages"
# cells a reader could mistake: the shared value and its prefixes, empty cells, the hoist
# note's and the repeat marker's own text, separators inside cells, very wide cells
_ODD_CELL = st.one_of(
    st.sampled_from(["", " ", "\t", "a b", "a\tb", "[×2]", "x [×3]", "[on every row,", "LOC:", "LOC: x", "]",
                     _HOISTED, _HOISTED[:12], _HOISTED + "/x", "NAME", " lead", "trail ", "x" * 5000]),
    st.text(alphabet="ab :[]×\t-/", max_size=12))


@st.composite
def _odd_table(draw):
    ncols = draw(st.integers(1, 5))
    header = [draw(st.sampled_from(["NAME", "LOC", "LOC: x", "[on", "every", "row,", "A]", ""]) | _ODD_CELL)
              for _ in range(ncols)]
    rows = []
    shared = {i for i in range(1, ncols) if draw(st.booleans())}   # columns every row shares
    for _ in range(draw(st.integers(0, 6))):
        n = ncols if draw(st.integers(0, 9)) else draw(st.integers(0, ncols + 2))   # now and then ragged
        rows.append([_HOISTED if i in shared else draw(_ODD_CELL) for i in range(n)])
    if rows and draw(st.booleans()):
        rows.insert(draw(st.integers(0, len(rows))), list(rows[0]))   # a repeated row
    return [header] + rows


@settings(max_examples=500, deadline=None)
@given(_odd_table(), st.booleans())
def test_any_table_of_odd_cells_reads_back_or_is_refused(table, hoist):
    out = render_table(table, hoist=hoist)
    if out is not None:
        assert split_rendered(out, len(table[0])) == table, out


def test_cells_that_read_as_markers_or_other_columns_are_kept_apart():
    rows = [["n0", _HOISTED, "x [×2]"], ["n1", _HOISTED, "y"], ["n2", _HOISTED, "z"]]
    # a row ending like a repeat count carries its own count
    out = render_table([["NAME", "LOC", "NOTE"]] + rows, hoist=True)
    assert out == f"[on every row, LOC: {_HOISTED}]\nNAME LOC NOTE\nn0 x [×2] [×1]\nn1 y\nn2 z\n"
    assert split_rendered(out, 3) == [["NAME", "LOC", "NOTE"]] + rows
    # a note "LOC: …" could name the column "LOC: x" or another "LOC": the value stays
    for header in (["NAME", "LOC", "LOC: x"], ["NAME", "LOC", "LOC"]):
        assert render_table([header] + rows, hoist=True) == render_table([header] + rows)
    # the first column is never said once, so a note is not read as naming it
    out = render_table([["LOC", "LOC", "NOTE"]] + rows, hoist=True)
    assert out.startswith("[on every row, LOC: ") and split_rendered(out, 3) == [["LOC", "LOC", "NOTE"]] + rows
    # a header that reads as a note, a ragged table: refused
    assert render_table([["[on", "every", "row, x]"], ["a", "b", "c"]]) is None
    assert render_table([["A", "B"], ["a", "b"], ["a", "b", "c"]]) is None


# ---------------------------------------------------------------- df's wrapped rows

from sqz_formatters_generic.kinds.aligned_table import compress_table  # noqa: E402


def _df(rows: list[tuple[str, str, str, str]]) -> str:
    """df -h as df prints it: a filesystem name wider than its column alone on its line."""
    out = ["Filesystem      Size  Used Avail Use% Mounted on"]
    for fs, size, use, mount in rows:
        cells = f"{size:>5} {size:>5} {size:>5} {use:>4} {mount}"
        out.append(f"{fs}\n{' ' * 15}{cells}" if len(fs) > 14 else f"{fs:<15}{cells}")
    return "\n".join(out) + "\n"


def test_a_filesystem_name_wrapped_onto_its_own_line_joins_its_row():
    text = _df([("/dev/mapper/vg0-root-logical-volume", "252G", "24%", "/"),
                ("tmpfs", "12G", "0%", "/dev/shm"), ("tmpfs", "12G", "0%", "/run/my disk")])
    out = compress_table(FormatRequest(text, "df -h"))
    lines = out.rstrip("\n").split("\n")
    assert lines[1] == "/dev/mapper/vg0-root-logical-volume 252G 252G 252G 24% /"
    assert lines[3] == "tmpfs 12G 12G 12G 0% /run/my disk"
    # another command's table with a lone word is not df's: left to the aligned parser
    assert compress_table(FormatRequest(text, "cat df.txt")) is None


@settings(max_examples=120, deadline=None)
@given(st.lists(st.tuples(st.text(alphabet="abc/-_0", min_size=1, max_size=30).filter(lambda s: s[0] != "-"),
                          st.sampled_from(["0", "12G", "252G", "1.5T"]), st.sampled_from(["0%", "24%", "100%"]),
                          st.text(alphabet="/ab c", min_size=1, max_size=12).map(lambda s: "/" + s.strip())),
                min_size=2, max_size=6))
def test_every_df_row_reads_back_whole(rows):
    out = compress_table(FormatRequest(_df(rows), "df -h"))
    assert out is not None
    back = [line.split(" ", 5) for line in out.rstrip("\n").split("\n")[1:] if not line.startswith("[")]
    expanded = []
    for cells in back:
        m = re.match(r"^(.*) \[×(\d+)\]$", cells[5])
        n = int(m.group(2)) if m else 1
        expanded += [cells[:5] + [m.group(1) if m else cells[5]]] * n
    assert [(c[0], c[1], c[4], c[5]) for c in expanded] == rows


@settings(max_examples=120, deadline=None)
@given(st.lists(st.tuples(st.integers(1, 99999), st.sampled_from(["0.0", "13.7", "100"]),
                          st.text(alphabet="ab -=&'\"", min_size=1, max_size=40).map(lambda s: "x" + s.rstrip())),
                min_size=2, max_size=6, unique_by=lambda t: t[0]))
def test_a_ps_command_keeps_every_space(rows):
    """COMMAND is the last column: its runs of spaces reach the reader as ps printed them."""
    lines = ["USER         PID %CPU COMMAND"]
    lines += [f"root{pid:>12} {cpu:>4} {cmd}" for pid, cpu, cmd in rows]
    out = compress_table(FormatRequest("\n".join(lines) + "\n", "ps aux"))
    assert out is not None
    body = out.rstrip("\n").split("\n")[1:]
    assert [line.split(" ", 3) for line in body] == [["root", str(pid), cpu, cmd] for pid, cpu, cmd in rows]
