"""Aligned tables: padding collapses, every cell comes back byte for byte."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from sqz_core import FormatRequest
from sqz_core.kinds.aligned_table import compact_table_text, compress_table, parse_table, render_table, split_rendered
from sqz_core.testing import load_fixture
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
