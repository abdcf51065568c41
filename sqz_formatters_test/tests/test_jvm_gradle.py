"""Gradle formatter (4.4.1: build, test, -q, rich console, full exception format) on real captured runs."""

from __future__ import annotations

from sqz_core import FormatRequest

from fmt_test_suite import FormatterSuite, fixtures_of
from sqz_formatters_test import jvm_gradle as formatter

suite = FormatterSuite(formatter, "gradle")
run, fixture, ask = suite.run, suite.fixture, suite.ask
globals().update(suite.standard_tests(at_least=7, big=0))


def test_full_exception_traces_keep_the_programs_frames_and_count_junit_jdk_ones():
    """Each failing test's header, exception and every frame of the program stay together, in order;
    a run of JUnit/JDK frames is one counted line; the JDK's SecurityManager warning printed inside
    a trace's paragraph goes."""
    fx = fixture("test_fail_full")
    text, out = fx.request().text, run(fx)
    traces = []
    for p in text.split("\n\n"):
        lines = [x for x in p.split("\n") if x.strip()]
        if any(x.startswith("        at ") for x in lines):
            block, run_ = [], 0
            for x in lines:
                if " FAILED" not in x and not x.startswith("    "):
                    continue
                if x.startswith("        at ") and not x.startswith("        at demo."):
                    run_ += 1
                    continue
                if run_:
                    block.append(f"        [{run_} JUnit/JDK frame{'s' if run_ > 1 else ''}]")
                    run_ = 0
                block.append(x)
            traces.append("\n".join(block))
    assert len(traces) == 5
    for t in traces:
        assert t in out, t
    assert "setSecurityManager" not in out
    assert "at org.junit.Assert.fail(Assert.java:89)" in text and "org.junit.Assert" not in out
    assert "        at demo.Calc.parsePort(Calc.java:15)\n        at demo.CalcTest.badPort(CalcTest.java:17)" in out


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
    assert "EXECUTING" in fx.text  # the raw capture redraws a status bar with cursor moves
    assert "EXECUTING" not in fx.request().text  # the core replays them to the final screen
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
        assert ask(text, cmd, 0) is None, cmd


def test_wrapper_subprojects_and_options_are_understood():
    fx = fixture("test_fail")
    text = fx.request().text
    for cmd in ("./gradlew test", "gradle :app:test --tests demo.CalcTest", "gradlew clean test -x javadoc",
                "gradle test --console plain"):
        assert ask(text, cmd, 1) == run(fx), cmd


def test_maven_output_under_gradle_is_refused():
    for fx in fixtures_of("maven"):
        assert ask(fx.request().text, "gradle test", fx.meta["exit_code"]) is None, fx.name


def test_truncated_run_is_refused():
    text = fixture("test_fail").request().text
    head = text.split("FAILURE: Build failed")[0]
    assert ask(head, "gradle test", None) is None


def test_unexplained_failure_is_refused():
    text = fixture("build_green").request().text
    assert ask(text, "gradle build", 1) is None


def test_quiet_green_run_has_nothing_to_do():
    assert ask("", "gradle -q build", 0) is None


def test_file_content_is_never_summarised():
    req = FormatRequest(fixture("test_fail").request().text, "cat log", tool="read_file")
    assert formatter.sqz_format(request=req) is None


def test_framework_frames_are_recognised_with_module_prefixes_and_program_frames_are_not():
    frame = formatter._FRAMEWORK_FRAME
    for line in ("        at org.junit.Assert.fail(Assert.java:89)",
                 "        at java.base/java.lang.Integer.parseInt(Integer.java:668)",
                 "        at app//org.junit.jupiter.api.AssertionUtils.fail(AssertionUtils.java:55)",
                 "        at java.base@17.0.1/jdk.internal.reflect.NativeMethodAccessorImpl.invoke0(Native Method)"):
        assert frame.match(line), line
    for line in ("        at demo.CalcTest.wrongSum(CalcTest.java:15)",
                 "        at app//demo.CalcTest.wrongSum(CalcTest.java:15)",
                 "        at javafx.app.Main.run(Main.java:3)"):
        assert not frame.match(line), line
