"""``ps aux`` whose columns do not line up (issue 25: ``ps aux`` passed whole): a value wider than its
column shifts the rest of its row, and the table still reads back cell for cell."""

from __future__ import annotations

from pathlib import Path

from sqz_core import FormatRequest
from sqz_formatters_generic.kinds.aligned_table import compress_table, parse_table, split_rendered
from sqz_testing import load_fixture, missing_facts, missing_facts_by_words

FIX = Path(__file__).parent.parent / "fixtures" / "kinds" / "table"


def _raw_cells(text: str) -> list[list[str]]:
    lines = text.rstrip("\n").split("\n")
    n = len(lines[0].split())
    return [lines[0].split()] + [line.split(None, n - 1) for line in lines[1:]]


def test_ps_aux_with_a_shifted_row_keeps_every_cell_on_its_row():
    fx = load_fixture(FIX / "fam_ps_aux_wide_vsz.txt")
    raw = fx.request().text
    shifted = [x for x in raw.split("\n") if " 4210904 " in x or any(len(c) > 6 for c in x.split()[4:5])]
    assert shifted  # the capture has the row that does not line up
    out = compress_table(fx.request())
    assert out is not None and len(out) < len(raw)
    assert split_rendered(out, 11) == _raw_cells(raw)
    assert out.split("\n")[0] == "USER PID %CPU %MEM VSZ RSS TTY STAT START TIME COMMAND"
    assert missing_facts(out, fx.facts) == [] and missing_facts_by_words(out, fx.facts) == []
    assert "  " not in out.replace("while :; do sleep 1; done", "")  # only the padding went


def test_a_misaligned_table_without_a_command_column_is_not_split_by_blanks():
    text = ("NAME     SIZE\nalpha    12\nbeta-long-name-here 7\ngamma    3\n")
    assert parse_table(text) is None
    assert compress_table(FormatRequest(text, "ps aux")) is None


def test_a_misaligned_table_with_a_command_column_but_other_names_is_not_split_by_blanks():
    # not ps's columns: a cell may be blank (STATUS here), so splitting by blanks could shift cells
    text = ("NAME  STATUS  COMMAND\nweb   up      nginx -g daemon off\nworker-long-name  python run.py\n")
    assert parse_table(text) is None
    assert compress_table(FormatRequest(text, "docker ps")) is None
