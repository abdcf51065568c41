"""Property tests: the pack's tables (through the core's one table parser) lose no cell."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st
from sqz_formatters_generic.api import compact_tables, parse_lines, render_table, split_rendered
from sqz_testing import iter_fixtures

FIXTURES = Path(__file__).parent / "fixtures"

_word = st.text(alphabet=st.characters(min_codepoint=33, max_codepoint=0x2FF, blacklist_categories=("Cc", "Zs"),
                                       blacklist_characters="\t|;="),
                min_size=1, max_size=12)
_cell = st.lists(_word, min_size=1, max_size=3).map(" ".join)  # single spaces inside a cell, as docker prints
_header_word = st.text(alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZ", min_size=1, max_size=8)


@st.composite
def tables(draw):
    ncols = draw(st.integers(2, 6))
    header = draw(st.lists(_header_word, min_size=ncols, max_size=ncols, unique=True))
    nrows = draw(st.integers(1, 8))
    rows = []
    for _ in range(nrows):
        row = [draw(_cell)]
        for _ in range(ncols - 2):
            row.append(draw(st.one_of(st.just(""), _cell)))
        row.append(draw(_cell))
        rows.append(row)
    return header, rows


def tabwriter(header, rows, pad=3):
    """Align like Go's tabwriter with padding ``pad`` (docker and kubectl use 3)."""
    widths = [max(len(r[i]) for r in [header] + rows) + pad for i in range(len(header))]
    return ["".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in [header] + rows]


@settings(max_examples=300, deadline=None)
@given(tables(), st.integers(2, 6))
def test_aligned_table_reads_back_to_the_same_cells(table, pad):
    header, rows = table
    lines = tabwriter(header, rows, pad)
    parsed = parse_lines(lines, min_rows=1)
    assert parsed == [header] + rows
    out = compact_tables("\n".join(lines) + "\n")
    assert split_rendered(out, len(header)) == [header] + rows
    notes = sum(1 for line in out.split("\n") if line.startswith("[") and line.endswith("]"))
    assert len(out.split("\n")) <= len(lines) + 1 + notes  # one line per distinct row (and a note a said column)


@settings(max_examples=200, deadline=None)
@given(tables())
def test_tabbed_table_reads_back(table):
    header, rows = table
    lines = [l.rstrip() for l in ("\t".join(c.ljust(8) for c in r) for r in [header] + rows)]
    assert parse_lines(lines, min_rows=1, tabbed=True) == [header] + rows
    out = compact_tables("\n".join(lines) + "\n", tabbed=True)
    assert split_rendered(out, len(header)) == [header] + rows


def test_every_fixture_table_round_trips():
    seen = 0
    for tool in ("docker", "kubectl", "helm"):
        for fx in iter_fixtures(FIXTURES / tool):
            lines = fx.request().text.rstrip("\n").split("\n")
            table = parse_lines(lines, min_rows=1, tabbed="\t" in lines[0])
            if table is None:
                continue
            out = render_table(table)
            assert split_rendered(out, len(table[0])) == table, fx.name
            seen += 1
    assert seen >= 6
