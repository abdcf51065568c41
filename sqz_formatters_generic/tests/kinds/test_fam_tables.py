"""Issue 25 item 4's table families (fixtures fam_*, captured by scripts/capture_fam_tables.sh): psql cells
that go on over lines, small tables that need no recovery line."""

from __future__ import annotations

from pathlib import Path

from sqz_testing import load_fixture

FIX = Path(__file__).parent.parent / "fixtures" / "kinds"


def test_a_multi_line_psql_cell_stays_with_its_row():
    fx = load_fixture(FIX / "table" / "fam_psql_multiline_note.txt")
    from sqz_formatters_generic.kinds.aligned_table import compact_ruled_text

    out = compact_ruled_text(fx.text)
    assert "13 paid 95.55 call first\n  then ring twice\n18 shipped" in out
    assert out.count("then ring twice") == 3 and out.endswith("(7 rows)\n")


def _pipeline(fx, tmp_path):
    from sqz_core.pipeline import compress
    from sqz_core.store import Store

    store = Store.open(str(tmp_path / "db.sqlite"))
    return store, compress(fx.raw, command=fx.command, store=store, session="s1")


def test_a_small_psql_table_whose_every_word_stays_needs_no_recovery_line(tmp_path):
    # issue 25: collapsed padding keeps every cell and word, so a small table passes the gate without
    # the recovery line; the original is stored all the same
    fx = load_fixture(FIX / "table" / "fam_psql_dt_plus.txt")
    store, r = _pipeline(fx, tmp_path)
    out = r.output.decode()
    assert r.outcome == "compressed" and "expand" not in out
    assert out.replace("|", " ").split() == [w for w in fx.text.replace("|", " ").split() if set(w) - set("-+")]
    assert store.get_blob(r.digest) == fx.raw


def test_a_table_rendering_that_drops_a_word_still_ends_with_the_recovery_line(tmp_path):
    fx = load_fixture(FIX / "table" / "psql_describe_pg_class.txt")   # its empty columns said once: a note
    _, r = _pipeline(fx, tmp_path)
    out = r.output.decode()
    assert "[empty on every row: " in out and out.rstrip("\n").split("\n")[-1].startswith("[sqz expand ")
