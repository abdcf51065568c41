"""Held-out pass #2 (``h2_*``) on make and cmake: ``make -k``, a missing header, a failing non-compiler
recipe, ``cmake --build --verbose`` and CMake's configure/generate errors.

- ``cmake --build --verbose``: the Makefile generator's own steps are counted like progress; the
  compiler's error and every make error line stay;
- ``make -k``: both failing objects and ``Target 'all' not remade`` stay;
- a test recipe's output (not a compiler's) stays whole.
"""

from __future__ import annotations

from fmt_test_suite import other
from sqz_core import FormatRequest
from sqz_testing import missing_facts

from sqz_formatters_test import c_cmake, c_make


def _run(module, family, name, command=None):
    fx = other(family, name)
    text = fx.request().text
    return fx, text, module.sqz_format(request=FormatRequest(text, command or fx.command,
                                                             exit_code=fx.meta.get("exit_code")))


def test_cmake_verbose_build_counts_the_generator_steps():
    fx, text, out = _run(c_cmake, "cmake", "h2_lua_build_verbose_error")
    assert missing_facts(out, fx.facts) == []
    assert "[dropped: generator command ×6, build progress ×27 lines]" in out
    assert "cmake_depends" not in out and "--check-build-system" not in out and "-f CMakeFiles/Makefile2" not in out
    assert "gmake[1]: *** [CMakeFiles/Makefile2:85: CMakeFiles/lua_static.dir/all] Error 2" in out
    assert len(out) < len(text) * 0.2


def test_cmake_generator_pattern_leaves_user_commands_alone():
    # a custom command's echo is not the generator's: it stays
    text = ("[ 50%] Generating version.h\ncd /w/build && /usr/bin/cmake -E copy v.h.in version.h\n"
            "/usr/bin/gmake -f Makefile.custom all\ngmake: *** [Makefile:101: all] Error 2\n")
    out = c_cmake.sqz_format(request=FormatRequest(text, "cmake --build build --verbose", exit_code=2))
    assert "cd /w/build && /usr/bin/cmake -E copy v.h.in version.h" in out
    assert "/usr/bin/gmake -f Makefile.custom all" in out
    assert "generator command" not in out


def test_configure_errors_keep_every_cmake_block():
    fx, text, out = _run(c_cmake, "cmake", "h2_lua_configure_errors")
    assert missing_facts(out, fx.facts) == []
    assert "-- Detecting C compiler ABI info" not in out


def test_make_keep_going_keeps_both_failures():
    fx, text, out = _run(c_make, "make", "h2_lua_keep_going_j2")
    assert missing_facts(out, fx.facts) == []
    lines = out.splitlines()
    # the recipe echoes: one template, every object and source listed
    assert lines[0].endswith(" -c -o * * [×34, per line:]") and len(lines[1].split("; ")) == 34
    assert not any(l.startswith("gcc ") for l in lines[2:])
    assert len(out) < len(text) * 0.12


def test_make_failing_test_recipe_stays_whole():
    fx, text, out = _run(c_make, "make", "h2_lua_check_recipe_fail")
    assert missing_facts(out, fx.facts) == []
    for line in ("strings.lua:127: in main chunk", "\t[C]: in function 'assert'"):
        assert line in out
