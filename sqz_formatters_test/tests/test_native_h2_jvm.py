"""Held-out pass #2 (``h2_*``) on Maven and Gradle: JUnit 5 through Surefire, a ``--fail-at-end``
reactor, Gradle ``--offline --continue`` with a failure in each of two projects.

- Surefire's JUnit Platform provider names a failing test by its method or display name alone
  (``lessThan{String, String}[7]``): its timing goes as for JUnit 4's ``name(Class)``; a grouped
  assertion's every failure stays;
- a reactor module's ``No sources to compile``/``No tests to run.`` (their module banner is gone) go;
- Gradle's numbered failure reports lose their numbers and rules, each ``What went wrong`` stays.
"""

from __future__ import annotations

from fmt_test_suite import other
from sqz_core import FormatRequest
from sqz_testing import missing_facts

from sqz_formatters_test import jvm_gradle, jvm_maven


def _run(module, family, name):
    fx = other(family, name)
    return fx, fx.request().text, module.sqz_format(request=fx.request())


def test_junit5_failures_lose_their_timing_and_keep_every_message():
    fx, text, out = _run(jvm_maven, "maven", "h2_junit5_nested_params_fail")
    assert missing_facts(out, fx.facts) == []
    lines = out.splitlines()
    for name in ("bumpMinorResetsPatch", "lessThan{String, String}[7]", "parsesPreRelease"):
        assert f"[ERROR] {name} <<< FAILURE!" in lines
    assert "Time elapsed" not in out
    # both failures of the grouped assertion
    assert "\torg.opentest4j.AssertionFailedError: pre-release identifiers ==> expected: <2> but was: <1>" in lines
    assert "\torg.opentest4j.AssertionFailedError: expected: <alpha> but was: <alpha.1>" in lines
    assert "Downloading from central" not in out


def test_junit5_quiet_run_is_handled_the_same():
    fx, text, out = _run(jvm_maven, "maven", "h2_junit5_quiet_fail")
    assert missing_facts(out, fx.facts) == []
    assert "[ERROR] lessThan{String, String}[7] <<< FAILURE!" in out.splitlines()


def test_a_timed_line_outside_a_failing_class_is_left_alone():
    # only inside Surefire's report of a failing class is a bare name a test's
    fx = other("maven", "h2_junit5_nested_params_fail")
    text = fx.request().text.replace("[ERROR] Tests run: 19, Failures: 3, Errors: 0, Skipped: 1, Time elapsed",
                                     "[INFO] Tests run: 19, Failures: 3, Errors: 0, Skipped: 1, Time elapsed", 1)
    out = jvm_maven.sqz_format(request=FormatRequest(text, fx.command, exit_code=1))
    assert "[ERROR] bumpMinorResetsPatch  Time elapsed: 0.339 s  <<< FAILURE!" in out


def test_reactor_fail_at_end_keeps_both_failed_modules():
    fx, text, out = _run(jvm_maven, "maven", "h2_reactor_fail_at_end")
    assert missing_facts(out, fx.facts) == []
    assert "No sources to compile" not in out and "No tests to run." not in out
    assert out.count("cannot find symbol") == 2           # javac's errors once, not twice


def test_gradle_continue_keeps_each_what_went_wrong_without_the_boxes():
    fx, text, out = _run(jvm_gradle, "gradle", "h2_offline_continue_two_projects")
    assert missing_facts(out, fx.facts) == []
    assert out.count("* What went wrong:") == 2
    assert "Task failed with an exception" not in out and "=" * 78 not in out and "\n-----------\n" not in out
    assert "FAILURE: Build completed with 2 failures." in out
    assert "6 failure-report rules" in out


def test_gradle_compile_error_and_test_failures_together():
    fx, text, out = _run(jvm_gradle, "gradle", "h2_offline_build_compile_and_test_fail")
    assert missing_facts(out, fx.facts) == []
    assert "Execution failed for task ':cli:compileJava'." in out and "Execution failed for task ':model:test'." in out
