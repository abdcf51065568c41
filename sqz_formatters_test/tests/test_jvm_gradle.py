"""Gradle formatter (4.4.1: build, test, -q, rich console, full exception format) on real captured runs."""

from __future__ import annotations

from pathlib import Path

import pytest

from sqz_core import FormatRequest
from sqz_core.testing import assert_snapshot, iter_fixtures, missing_facts
from sqz_formatters_test import jvm_gradle as formatter

FIX = Path(__file__).parent / "fixtures" / "gradle"
ALL = iter_fixtures(FIX)


def run(fx, **kw):
    return formatter.sqz_format(request=fx.request(**kw))


def fixture(name):
    return next(f for f in ALL if f.name == name)


def fmt(text, cmd, exit_code=None):
    return formatter.sqz_format(request=FormatRequest(text, cmd, exit_code=exit_code))


def test_fixtures_present():
    assert len(ALL) >= 7


@pytest.mark.parametrize("fx", ALL, ids=[f.name for f in ALL])
def test_facts_survive(fx):
    out = run(fx)
    assert out is not None, fx.name
    assert missing_facts(out, fx.facts) == []


@pytest.mark.parametrize("fx", ALL, ids=[f.name for f in ALL])
def test_dropped_lines_are_gone(fx):
    out = run(fx)
    assert [d for d in fx.dropped if d in out] == []


@pytest.mark.parametrize("fx", ALL, ids=[f.name for f in ALL])
def test_snapshot(fx):
    assert_snapshot(run(fx), FIX / f"{fx.name}.expected")


@pytest.mark.parametrize("fx", ALL, ids=[f.name for f in ALL])
def test_output_shrinks(fx):
    text = fx.request().text
    assert len(run(fx)) < len(text) * 0.9


@pytest.mark.parametrize("fx", ALL, ids=[f.name for f in ALL])
def test_deterministic(fx):
    assert run(fx) == run(fx)


def test_full_exception_traces_kept_whole():
    fx = fixture("test_fail_full")
    text, out = fx.request().text, run(fx)
    paras = [p.strip("\n") for p in text.split("\n\n") if "        at " in p]
    assert len(paras) == 5
    for p in paras:
        assert p in out, p


def test_failed_tests_and_locations_kept():
    out = run(fixture("test_fail"))
    for name, where in (("CalcTest > wrongSum", "AssertionError at CalcTest.java:15"),
                        ("CalcTest > badPort", "NumberFormatException at CalcTest.java:17"),
                        ("TextTest > greetIsTrimmed", "ComparisonFailure at TextTest.java:12")):
        assert f"demo.{name} FAILED\n    java.lang.{where}" in out or f"demo.{name} FAILED\n    org.junit.{where}" in out


def test_green_build_is_terse():
    out = run(fixture("build_green"))
    assert out.splitlines()[0].startswith("BUILD SUCCESSFUL in ")
    assert len(out.splitlines()) <= 4
    assert ":compileJava" not in out


def test_compiler_errors_kept_with_snippets():
    fx = fixture("compile_error")
    out = run(fx)
    text = fx.request().text
    start = text.index("/tmp/sqz-capture/jvm-gradle-broken/src/main/java/demo/Calc.java:17: error:")
    block = text[start:text.index("2 errors")]
    assert block in out
    assert out.startswith("/tmp/sqz-capture/jvm-gradle-broken/src/main/java/demo/Calc.java:17: error:")


def test_rich_console_status_bar_dropped():
    fx = fixture("build_fail_rich")
    assert "EXECUTING" in fx.request().text
    out = run(fx)
    assert "EXECUTING" not in out and "> IDLE" not in out
    assert "> Task :test FAILED" in out


def test_jdk_warning_glued_to_task_is_split_and_dropped():
    fx = fixture("build_green")      # where the lines interleave differs from run to run
    assert ":testWARNING: A terminally deprecated method" in fx.request().text
    out = run(fx)
    assert "WARNING:" not in out and "4 JDK SecurityManager warning lines" in out


# ---------------------------------------------------------------- near misses → None

def test_other_tasks_are_not_ours():
    text = fixture("build_green").request().text
    for cmd in ("gradle dependencies", "gradle tasks", "gradle bootRun", "gradle --version", "gradle",
                "gradle test --info", "gradle build --dry-run", "gradle -d test"):
        assert fmt(text, cmd, 0) is None, cmd


def test_wrapper_subprojects_and_options_are_understood():
    fx = fixture("test_fail")
    text = fx.request().text
    for cmd in ("./gradlew test", "gradle :app:test --tests demo.CalcTest", "gradlew clean test -x javadoc",
                "gradle test --console plain"):
        assert fmt(text, cmd, 1) == run(fx), cmd


def test_maven_output_under_gradle_is_refused():
    for fx in iter_fixtures(Path(__file__).parent / "fixtures" / "maven"):
        assert fmt(fx.request().text, "gradle test", fx.meta["exit_code"]) is None, fx.name


def test_truncated_run_is_refused():
    text = fixture("test_fail").request().text
    head = text.split("FAILURE: Build failed")[0]
    assert fmt(head, "gradle test", None) is None


def test_unexplained_failure_is_refused():
    text = fixture("build_green").request().text
    assert fmt(text, "gradle build", 1) is None


def test_quiet_green_run_has_nothing_to_do():
    assert fmt("", "gradle -q build", 0) is None


def test_file_content_is_never_summarised():
    req = FormatRequest(fixture("test_fail").request().text, "cat log", tool="read_file")
    assert formatter.sqz_format(request=req) is None
