"""gcc/g++/clang diagnostics formatter on real captured compiler runs."""

from __future__ import annotations

from fmt_test_suite import FormatterSuite, raw_text
from sqz_formatters_test import c_diagnostics as formatter

# refused: captured on purpose to be refused (another locale)
suite = FormatterSuite(formatter, "cc", refused={"gcc_de_locale"})
run, fixture, ask = suite.run, suite.fixture, suite.ask
globals().update(suite.standard_tests(at_least=3))


def test_snippets_dropped_diagnostics_grouped_by_file():
    out = run(fixture("gcc_errors"))
    assert "total = words + p.z;" not in out                  # error snippet: the location says where
    assert "   16 |     printf(" not in out                    # warning snippet
    assert "[-Wformat=]" in out
    assert out.count("src/main.c") == 1 and out.count("src/util.c") == 1
    assert "\n  10:5: error: ‘total’ undeclared (first use in this function)\n" in out
    assert "\n  In function ‘report’:\n" in out


def test_make_keeps_error_snippets():
    """The shared compressor keeps error snippets by default (make/cmake build logs)."""
    lines = fixture("gcc_errors").request().text.splitlines()
    out, stats = formatter.compress_compiler_output(lines)
    assert "   10 |     total = words + p.z;" in out and stats["errors"] == 3


def test_repeated_candidate_notes_are_counted():
    out = run(fixture("gxx_template_error"))
    assert "repeated note lines dropped]" in out
    assert out.count("note: candidate: ‘template<class _IteratorL,") == 1


def test_preprocess_only_is_not_ours():
    text = fixture("gcc_errors").request().text
    assert ask(text, "gcc -E src/main.c", 1) is None


def test_make_echo_lines_are_not_diagnostics():
    text = raw_text("make", "build_green")
    assert ask(text, "gcc -O2 -c x.c", 0) is None


def test_failure_without_error_line_is_refused():
    text = fixture("gcc_errors").request().text
    warnings_only = "\n".join(l for l in text.splitlines() if "error" not in l) + "\n"
    assert ask(warnings_only, "gcc -c x.c", 1) is None
