"""rustc run directly: facts survive, echoed source is dropped, other modes give None, snapshots hold."""

from __future__ import annotations

from fmt_test_suite import FormatterSuite, text_of

from sqz_formatters_test import rust_rustc as formatter

suite = FormatterSuite(formatter, "rustc")
run, fixture, ask = suite.run, suite.fixture, suite.ask
globals().update(suite.standard_tests(complete={"multi_file"}, ratios={"multi_file": 0.72}))


def test_labels_notes_and_closing_lines_kept():
    out = run(fixture("multi_file"))
    assert "  2: ^ expected `Vec<u64>`, found `Vec<i64>`" in out
    assert "  = note: expected struct `Vec<u64>`" in out
    assert "error: aborting due to 6 previous errors; 2 warnings emitted" in out
    assert "For more information about an error, try `rustc --explain E0277`." in out


def test_other_modes_and_tools_give_none():
    text = text_of("rustc", "multi_file")
    assert ask(text, "rustc --error-format=json src/main.rs", 1) is None
    assert ask(text, "rustc --explain E0308", 0) is None
    assert ask(text_of("cc", "gcc_errors"), "rustc src/main.rs", 1) is None
    assert ask("error: couldn't read `nope.rs`: No such file or directory (os error 2)\n", "rustc nope.rs", 1) is None
