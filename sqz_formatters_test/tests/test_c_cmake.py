"""cmake configure and cmake --build formatter on real captured runs."""

from __future__ import annotations

from pathlib import Path

import pytest

from sqz_core import FormatRequest
from sqz_core.testing import assert_snapshot, iter_fixtures, missing_facts
from sqz_formatters_test import c_cmake as formatter

FIX = Path(__file__).parent / "fixtures" / "cmake"
ALL = iter_fixtures(FIX)
REFUSED: set = set()
GOOD = [f for f in ALL if f.name not in REFUSED]


def run(fx, **kw):
    return formatter.sqz_format(request=fx.request(**kw))


def fixture(name):
    return next(f for f in ALL if f.name == name)


def test_fixtures_present():
    assert len(GOOD) >= 4


@pytest.mark.parametrize("fx", GOOD, ids=[f.name for f in GOOD])
def test_facts_survive(fx):
    out = run(fx)
    assert out is not None, fx.name
    assert missing_facts(out, fx.facts) == []


@pytest.mark.parametrize("fx", GOOD, ids=[f.name for f in GOOD])
def test_dropped_lines_are_gone(fx):
    out = run(fx)
    assert [d for d in fx.dropped if d in out] == []


@pytest.mark.parametrize("fx", GOOD, ids=[f.name for f in GOOD])
def test_snapshot(fx):
    assert_snapshot(run(fx), FIX / f"{fx.name}.expected")


@pytest.mark.parametrize("fx", GOOD, ids=[f.name for f in GOOD])
def test_big_outputs_shrink(fx):
    text = fx.request().text
    out = run(fx)
    if len(text) > 1500:
        assert len(out) < len(text) * 0.9
    else:
        assert len(out) <= len(text) + 80   # never much longer: at most one counted line


@pytest.mark.parametrize("fx", GOOD, ids=[f.name for f in GOOD])
def test_deterministic(fx):
    assert run(fx) == run(fx)


def trace_paragraphs(text, marker):
    """Blank-line separated paragraphs of ``text`` that contain ``marker``."""
    return [p for p in text.split("\n\n") if marker in p]


def assert_whole(out, text, marker):
    paras = trace_paragraphs(text, marker)
    assert paras, marker
    for p in paras:
        lines = [l for l in p.strip("\n").split("\n") if l.strip()]
        block = "\n".join(lines)
        assert block in out, f"trace paragraph not kept whole:\n{block[:300]}"


def cut(text, fraction):
    lines = text.splitlines()
    return "\n".join(lines[: int(len(lines) * fraction)]) + "\n"


def test_ninja_failed_command_is_kept():
    out = run(fixture("build_error_ninja"))
    assert "FAILED: CMakeFiles/app.dir/src/main.c.o" in out
    assert "/usr/bin/cc  -I/tmp/sqz-capture/cmakeproj_ninja/src" in out
    assert "ninja: build stopped: subcommand failed." in out


def test_ctest_output_is_not_ours():
    text = (Path(__file__).parent / "fixtures" / "ctest" / "ctest_fail.txt").read_text()
    assert formatter.sqz_format(request=FormatRequest(text, "cmake --build build", exit_code=8)) is None


def test_other_modes_are_not_ours():
    text = fixture("configure").request().text
    for cmd in ("cmake --install build", "cmake -E echo hi", "cmake --version", "cmake -P script.cmake"):
        assert formatter.sqz_format(request=FormatRequest(text, cmd, exit_code=0)) is None


def test_failed_configure_probe_is_kept():
    text = "-- Looking for pthread.h\n-- Looking for pthread.h - not found\n-- Configuring done\n"
    # shape taken from the configure fixture's own probe lines; a failed probe must stay
    out = formatter.sqz_format(request=FormatRequest(text, "cmake -S . -B build", exit_code=0))
    assert "-- Looking for pthread.h - not found" in out
