"""Fact audit of the held-out pass #2 (``h2_*``) native captures: what the audit found missing.

- ``cmake --build --verbose`` (Makefile generator): the compiler command of the compile that failed
  (its next line is a diagnostic about the file it compiles) stays verbatim, as ninja's ``FAILED:``
  command does; every other compiler echo is still counted.
"""

from __future__ import annotations

from fmt_test_suite import other
from sqz_core import FormatRequest
from sqz_testing import missing_facts

from sqz_formatters_test import c_cmake

_FAILED_CC = ("/usr/bin/cc -DLUA_USE_LINUX  -Wall -Wextra -MD -MT CMakeFiles/lua_static.dir/ltablib.c.o "
              "-MF CMakeFiles/lua_static.dir/ltablib.c.o.d -o CMakeFiles/lua_static.dir/ltablib.c.o "
              "-c /tmp/sqz-capture/h2-luacm-verbose/ltablib.c")


def _cmake(text, command="cmake --build build --verbose", exit_code=2):
    return c_cmake.sqz_format(request=FormatRequest(text, command, exit_code=exit_code))


def test_cmake_verbose_keeps_the_failed_compile_command():
    fx = other("cmake", "h2_lua_build_verbose_error")
    out = _cmake(fx.request().text, fx.command, fx.meta.get("exit_code"))
    assert missing_facts(out, fx.facts) == []
    lines = out.splitlines()
    assert _FAILED_CC in lines                                           # the failed compile, verbatim
    at = lines.index(_FAILED_CC)
    assert lines[at + 1].endswith("ltablib.c: In function ‘tremove’:")   # right above its diagnostics
    assert "cc ×26 command lines" in out                                 # the 26 compiles that worked: counted
    assert "lapi.c" not in out


def test_a_command_followed_by_another_files_diagnostic_is_not_kept():
    text = ("[ 50%] Building C object CMakeFiles/a.dir/a.c.o\n"
            "/usr/bin/cc -O2 -o CMakeFiles/a.dir/a.c.o -c /p/a.c\n"
            "[ 60%] Building C object CMakeFiles/a.dir/b.c.o\n"
            "/usr/bin/cc -O2 -o CMakeFiles/a.dir/b.c.o -c /p/b.c\n"
            "/p/a.h:3:1: error: unknown type name 'x'\n"
            "gmake[2]: *** [CMakeFiles/a.dir/build.make:76: CMakeFiles/a.dir/b.c.o] Error 1\n"
            "gmake: *** [Makefile:91: all] Error 2\n")
    out = _cmake(text)
    assert "/usr/bin/cc" not in out                                      # a.h is not the file b.c's command compiles
    assert "a.h:3:1: error: unknown type name 'x'" in out


def test_failed_compiles_indices():
    lines = ["FAILED: x.o", "cc -c /p/x.c", "/p/x.c:1:1: error: e", "cc -c /p/y.c", "/p/y.c: In function ‘f’:",
             "cc -c /p/z.c", "ok", "cc -c /p/w.c"]
    assert c_cmake.failed_compiles(lines) == frozenset({1, 3})
    assert c_cmake.failed_compiles([]) == frozenset()
    assert c_cmake.failed_compiles(["FAILED: last"]) == frozenset()


def test_cargo_verbose_error_keeps_each_macro_invocation_line():
    # the three E0308 errors share message and location (src/lib.rs:133:39); what tells them apart is the
    # macro invocation each comes from. rustc prints its line number on the source line and the label on
    # the next, so no fact can hold both in the raw capture: asserted here on the formatter's output.
    from sqz_formatters_test import rust_cargo

    fx = other("cargo", "h2_itoa_build_verbose_error")
    out = rust_cargo.sqz_format(request=FormatRequest(fx.request().text, fx.command, exit_code=fx.meta.get("exit_code")))
    assert missing_facts(out, fx.facts) == []
    for n in (204, 206, 215):                   # 197-204 is one multi-line invocation: rustc labels its last line
        assert f"{n}: - in this macro invocation" in out
    assert "impl_Integer!(I64_MAX_LEN => i64" not in out   # the invocation's source text goes (code frames dropped)
