"""cmake configure and cmake --build formatter on real captured runs."""

from __future__ import annotations

from fmt_test_suite import FormatterSuite, raw_text
from sqz_formatters_test import c_cmake as formatter

suite = FormatterSuite(formatter, "cmake")
run, fixture, ask = suite.run, suite.fixture, suite.ask
globals().update(suite.standard_tests(at_least=4))


def test_ninja_failed_command_is_kept():
    out = run(fixture("build_error_ninja"))
    assert "FAILED: CMakeFiles/app.dir/src/main.c.o" in out
    assert "/usr/bin/cc  -I/tmp/sqz-capture/cmakeproj_ninja/src" in out
    assert "ninja: build stopped: subcommand failed." in out


def test_ctest_output_is_not_ours():
    text = raw_text("ctest", "ctest_fail")
    assert ask(text, "cmake --build build", 8) is None


def test_other_modes_are_not_ours():
    text = fixture("configure").request().text
    for cmd in ("cmake --install build", "cmake -E echo hi", "cmake --version", "cmake -P script.cmake"):
        assert ask(text, cmd, 0) is None


def test_failed_configure_probe_is_kept():
    text = "-- Looking for pthread.h\n-- Looking for pthread.h - not found\n-- Configuring done\n"
    # shape taken from the configure fixture's own probe lines; a failed probe must stay
    out = ask(text, "cmake -S . -B build", 0)
    assert "-- Looking for pthread.h - not found" in out


def test_diagnostics_keep_their_absolute_paths_whole():
    # issue 25's judge reads a path as one word: /tmp/…/src/main.c cut to src/main.c would be a word gone
    out = run(fixture("build_error")).splitlines()
    assert not any(x.startswith("[paths relative to") for x in out)
    assert "/tmp/sqz-capture/cmakeproj_err/src/main.c:10:5: error: ‘total’ undeclared (first use in this function)" in out
    assert "/tmp/sqz-capture/cmakeproj_err/src/util.c: In function ‘report’:" in out
    assert not any(x.lstrip().startswith(("10 |", "|")) for x in out)    # snippets go


def test_cxx_header_notes_and_include_lines_keep_absolute_paths():
    out = run(fixture("build_error_cxx")).splitlines()
    assert "In file included from /tmp/sqz-capture/cmakeproj_cxx/src/main.cpp:2:" in out
    assert "/tmp/sqz-capture/cmakeproj_cxx/src/account.h:8:10: note: candidate: ‘void Account::deposit(long int)’" in out
    assert "[ 50%] Built target account" not in out           # progress, counted
    assert "gmake: *** [Makefile:91: all] Error 2" in out
