"""gcc/g++/clang diagnostics formatter on real captured compiler runs."""

from __future__ import annotations

from sqz_core.api import FormatRequest

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


def test_shared_compressor_keeps_error_snippets_on_request():
    """``error_snippets=True`` (the default) keeps the snippet under an error, never under a warning."""
    lines = fixture("gcc_errors").request().text.splitlines()
    out, stats = formatter.compress_compiler_output(lines)
    assert "   10 |     total = words + p.z;" in out and stats["errors"] == 3
    assert "   16 |     printf(\"%s=%d\\n\", name, value);" not in out


def test_fixed_undeclared_identifier_note_dropped():
    out = run(fixture("gcc_errors"))
    assert "reported only once" not in out
    assert "  10:5: error: ‘total’ undeclared (first use in this function)" in out


def test_repeated_instantiation_chain_becomes_its_locations():
    out = run(fixture("gxx_template_error")).splitlines()
    # the first chain verbatim, every location of a repeated run named in order
    assert out.count("src/total.cpp:12:14:   required from here") == 1
    assert "[required from, as above: /usr/include/c++/12/bits/stl_algo.h:1849:25, 1940:31, 4820:18, " \
           "src/total.cpp:12:14]" in out
    assert "[required from, as above: /usr/include/c++/12/bits/stl_algo.h:4820:18, src/total.cpp:12:14]" in out
    assert sum(" required from ‘void std::__final_insertion_sort(" in x for x in out) == 1
    # a required-from line not shown before stays, even after a folded run elsewhere
    assert any(x.startswith("/usr/include/c++/12/bits/stl_algo.h:1817:36:   required from ‘void std::__insertion_sort(")
               for x in out)
    assert sum(x.endswith(": error: no match for ‘operator<’ (operand types are ‘Item’ and ‘Item’)") for x in out) == 3


def test_absolute_paths_stay_whole():
    lines = ["/home/u/proj/src/a.c: In function ‘f’:\n",
             "/home/u/proj/src/a.c:3:1: error: boom\n",
             "/home/u/proj/include/b.h:9:2: warning: hm [-Wx]\n",
             "/usr/include/stdio.h:10:1: note: declared here\n"]
    out = formatter.sqz_format(request=FormatRequest("".join(lines), "gcc -c /home/u/proj/src/a.c", exit_code=1))
    assert out is not None
    for path in ("/home/u/proj/src/a.c", "/home/u/proj/include/b.h", "/usr/include/stdio.h"):
        assert path in out.split() or any(w.startswith(path + ":") for w in out.split())
    assert "[paths relative to" not in out


def test_repeated_candidate_notes_are_counted():
    out = run(fixture("gxx_template_error"))
    assert "repeated note lines dropped]" in out
    assert out.count("note: candidate: ‘template<class _IteratorL,") == 1
    # a note repeating an earlier text at its own error's location counts as repeated; the first stays
    lines = out.splitlines()
    assert "/usr/include/c++/12/bits/predefined_ops.h:45:23: note:   ‘Item’ is not derived from " \
           "‘const __gnu_cxx::__normal_iterator<_IteratorL, _Container>’" in lines
    assert not any(x.startswith("/usr/include/c++/12/bits/predefined_ops.h:98:22: note:") for x in lines)
    i = lines.index("/usr/include/c++/12/bits/predefined_ops.h:98:22: error: no match for ‘operator<’ "
                    "(operand types are ‘Item’ and ‘Item’)")
    assert lines[i + 1] == "[6 repeated note lines dropped]"


def test_chain_line_with_the_bindings_of_the_line_above_says_so():
    lines = run(fixture("gxx_template_error")).splitlines()
    k = next(i for i, x in enumerate(lines) if x.startswith("/usr/include/c++/12/bits/stl_algo.h:1849:25:"))
    assert lines[k] == ("/usr/include/c++/12/bits/stl_algo.h:1849:25:   required from ‘void std::__final_insertion_sort("
                        "_RandomAccessIterator, _RandomAccessIterator, _Compare) [with the same as above]’")
    assert lines[k - 1].endswith("[with _RandomAccessIterator = __gnu_cxx::__normal_iterator<Item*, vector<Item> >; "
                                 "_Compare = __gnu_cxx::__ops::_Iter_less_iter]’")
    # different bindings stay written out
    assert any(x.startswith("/usr/include/c++/12/bits/stl_algo.h:1916:27:") and "_Size = long int" in x for x in lines)


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


def test_notes_in_a_header_stay_under_their_error():
    lines = run(fixture("gxx_multi_file")).splitlines()
    i = lines.index("  11:17: error: no matching function for call to ‘Account::deposit(int, const char [5], bool)’")
    assert lines[i + 1:i + 5] == [
        "   src/account.h:8:10: note: candidate: ‘void Account::deposit(long int)’",
        "   src/account.h:8:10: note:   candidate expects 1 argument, 3 provided",
        "   src/account.h:9:10: note: candidate: ‘void Account::deposit(long int, const std::string&)’",
        "   src/account.h:9:10: note:   candidate expects 2 arguments, 3 provided"]
    j = lines.index("  5:13: error: passing ‘const Account’ as ‘this’ argument discards qualifiers [-fpermissive]")
    assert lines[j + 1:j + 3] == ["   In file included from src/main.cpp:2:",
                                  "   src/account.h:12:10: note:   in call to ‘void Account::rename(const std::string&)’"]
    assert "src/account.h" not in lines                      # no group of its own: the notes explain main.cpp
    assert lines.count("src/main.cpp") == 1 and lines.count("src/account.cpp") == 1


def test_include_chain_leading_to_an_error_keeps_the_order():
    lines = ["In file included from src/main.c:1:",
             "src/util.h:3:5: error: unknown type name ‘sizet’",
             "src/main.c:5:3: error: x", "src/main.c:6:3: error: y"]
    assert formatter.group_compiler_output(lines) == lines


def test_repeated_note_count_stays_under_its_error_when_grouped():
    lines = ["src/a.cpp:3:5: error: no matching function for call to ‘f(int)’",
             "src/b.h:1:6: note: candidate: ‘void f()’",
             "src/a.cpp:9:5: error: no matching function for call to ‘f(long int)’",
             "[1 repeated note lines dropped]",
             "src/b.h:2:6: note: candidate: ‘void f(char*)’"]
    assert formatter.group_compiler_output(lines) == [
        "src/a.cpp",
        "  3:5: error: no matching function for call to ‘f(int)’",
        "   src/b.h:1:6: note: candidate: ‘void f()’",
        "  9:5: error: no matching function for call to ‘f(long int)’",
        "   [1 repeated note lines dropped]",
        "   src/b.h:2:6: note: candidate: ‘void f(char*)’"]


def test_windows_drive_paths_are_diagnostics_too():
    # MinGW names files with their drive: the real gcc capture with its paths put on one
    text = raw_text("cc", "gcc_errors").replace("src/", "C:\\proj\\src\\")
    out = ask(text, "gcc -Wall -Wextra -Isrc -c src/main.c src/util.c", 1)
    lines = out.splitlines()
    assert lines[0] == "C:\\proj\\src\\main.c"
    assert "  10:5: error: ‘total’ undeclared (first use in this function)" in lines
    assert "C:\\proj\\src\\util.c" in lines
    assert "  22:1: warning: control reaches end of non-void function [-Wreturn-type]" in lines
    assert "|" not in out  # snippets dropped, as for POSIX paths
