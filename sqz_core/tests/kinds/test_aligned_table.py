"""Aligned tables: padding collapses, every cell comes back byte for byte."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from sqz_core import FormatRequest
from sqz_core.kinds.aligned_table import compress_table, parse_table, render_table, split_rendered
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
    assert split_rendered(out) == table


def test_real_tables_round_trip():
    for name in ("ps_aux", "df_h"):
        fx = load_fixture(FIX / f"{name}.txt")
        table = parse_table(fx.request().text)
        out = compress_table(fx.request())
        assert split_rendered(out) == table
        assert table[0][-1] in ("COMMAND", "Mounted on")


def test_ragged_rows_are_not_a_table():
    text = load_fixture(FIX / "df_h.txt").request().text.split("\n")
    text[2] = "  " + text[2]            # one row shifted out of its columns
    assert compress_table(FormatRequest("\n".join(text), "df -h")) is None
    lines = load_fixture(FIX / "df_h.txt").request().text.split("\n")
    lines[3] = lines[3].replace("   0%", " 0%   ")
    assert compress_table(FormatRequest("\n".join(lines), "df -h")) is None
