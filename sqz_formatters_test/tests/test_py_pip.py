"""pip / uv pip: facts survive, noise is dropped, near misses give None, snapshots hold."""

from __future__ import annotations

from fmt_test_suite import FormatterSuite, other, text_of
from sqz_formatters_test import py_pip as formatter

# refused: uv project commands (uv add/remove) are not handled here yet; uv_add_conflict has nothing to drop either
suite = FormatterSuite(formatter, "pip", refused={"uv_add", "uv_remove", "uv_add_conflict"})
run, ask = suite.run, suite.ask
globals().update(suite.standard_tests(
    complete={'download', 'install_already', 'install_fresh', 'install_no_version', 'uv_install', 'uv_install_error'},
    ratios={'install_fresh': 0.14, 'install_already': 0.28, 'download': 0.34, 'uv_install': 0.7,
            'install_requirements': 0.08, 'install_requirements_again': 0.2}))


def test_near_miss_other_subcommands():
    text = text_of("pip", "install_fresh")
    assert ask(text, "pip list") is None
    assert ask(text, "pip show requests") is None
    assert ask(text_of("pip", "uv_install"), "uv sync") is None
    assert ask(text_of("pip", "uv_install"), "uv add requests") is None


def test_near_miss_not_pip_output():
    assert ask(text_of("npm", "install_deprecated"), "pip install requests") is None
    assert ask(text_of("pip", "install_fresh"), "uv pip install requests") is None


def test_direct_requirement_keeps_its_version():
    out = run(other("pip", "install_already"))
    assert "Requirement already satisfied: requests in ./venv/lib/python3.11/site-packages (2.34.2)" in out
    assert "4 dependencies already satisfied" in out


def test_build_backend_box_keeps_the_error_drops_progress_and_commands():
    out = run(other("pip", "install_build_error"))
    lines = out.splitlines()
    i = lines.index("  ╰─> [14 lines of output]")
    assert lines[i + 3:i + 7] == [
        "      fastcalc.c:2:10: fatal error: missing_header.h: No such file or directory",
        "      compilation terminated.",
        "      error: command '/usr/bin/gcc' failed with exit code 1",
        "      [end of output]"]
    assert "running build_ext" not in out and "gcc -Wsign-compare" not in out
    assert '#include "missing_header.h"' not in out                 # the snippet: the location says it
    assert "likely not a problem with pip" not in out and "Running setup.py clean" not in out
    assert "ERROR: Failed building wheel for fastcalc" in out
    assert "9 lines of build progress and compiler commands dropped" in out


def test_box_without_its_end_is_kept():
    text = ("Processing ./x\n  error: subprocess-exited-with-error\n  ╰─> [3 lines of output]\n"
            "      running build\n      gcc -c x.c\nERROR: Failed building wheel for x\n")
    out = formatter.compact_pip(text.splitlines())
    assert out[2:4] == ["      running build", "      gcc -c x.c"]
