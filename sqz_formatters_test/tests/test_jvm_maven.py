"""Maven formatter (compile, test, package, verify, -q, reactor, cold cache) on real captured runs."""

from __future__ import annotations

import pytest
from sqz_core import FormatRequest

from fmt_test_suite import FormatterSuite, fixtures_of
from sqz_formatters_test import jvm_maven as formatter

suite = FormatterSuite(formatter, "maven")
run, fixture, ask = suite.run, suite.fixture, suite.ask
globals().update(suite.standard_tests(at_least=7, big=0))


def test_every_error_line_with_a_location_is_kept():
    for fx in suite.all:
        out = run(fx)
        for line in fx.request().text.splitlines():
            if line.startswith("[ERROR]") and ".java:[" in line:
                assert line in out, (fx.name, line)


@pytest.mark.parametrize("name", ["test_fail", "test_fail_quiet", "reactor_fail"])
def test_failure_traces_kept_line_for_line(name):
    """Every failing test's header, exception line and frames survive together, in order; the
    build chatter Surefire prints above the first failure (no blank line between) goes."""
    fx = fixture(name)
    text, out = fx.request().text, run(fx)
    lines = text.splitlines()
    traces = 0
    for k, line in enumerate(lines):
        if line.startswith("\tat "):
            traces += 1
            assert "\n".join(lines[k - 1:k + 1]) in out  # the exception line and its frame
            assert lines[k - 2].split("  Time elapsed")[0] in out.splitlines()[out.splitlines().index(lines[k - 1]) - 1]
    assert traces == 5
    assert "[ERROR] wrongSum(demo.CalcTest) <<< FAILURE!" in out and "Time elapsed" not in out
    assert "Scanning for projects" not in out and "T E S T S" not in out
    assert "Compiling 2 source files" not in out


def test_green_run_is_terse():
    out = run(fixture("test_green"))
    assert "Tests run: 60, Failures: 0" not in out          # the passing class line
    assert "[WARNING] Tests run: 69, Failures: 0, Errors: 0, Skipped: 1" in out
    assert len(out.splitlines()) <= 8


def test_compiler_errors_are_not_repeated():
    out = run(fixture("compile_error"))
    assert out.count("Calc.java:[17,37] cannot find symbol") == 1
    assert out.count("symbol:   variable txt") == 1
    assert "4 repeated compiler messages" in out


def test_cold_cache_downloads_are_counted_not_listed():
    fx = fixture("package_cold_cache")
    out = run(fx)
    assert "pkgs.example.org" not in out and "Progress (" not in out
    n = sum(1 for l in fx.request().text.splitlines() if l.startswith(("Downloading from", "Downloaded from",
                                                                         "Progress (")))
    assert n > 300
    assert f"{n} download/progress lines" in out


def test_registry_paths_are_neutral_in_fixtures():
    from sqz_testing import registry_mentions

    for fx in suite.all:
        assert b"/usr/share/maven-repo" not in fx.raw
        assert registry_mentions(fx.text) == []


def test_reactor_summary_kept():
    out = run(fixture("reactor_fail"))
    for module, status in (("parent", "SUCCESS"), ("core", "FAILURE"), ("app", "SKIPPED")):
        assert any(l.startswith(f"[INFO] {module} ..") and status in l for l in out.splitlines())


# ---------------------------------------------------------------- near misses → None

def test_other_goals_are_not_ours():
    text = fixture("test_green").request().text
    for cmd in ("mvn dependency:tree", "mvn exec:java", "mvn -v", "mvn", "mvn test -X", "mvn help:effective-pom"):
        assert ask(text, cmd, 0) is None, cmd


def test_wrapper_and_options_are_understood():
    fx = fixture("test_fail")
    text = fx.request().text
    for cmd in ("./mvnw test", "mvn -B -pl core -Dtest=CalcTest test", "mvn -s settings.xml clean test"):
        assert ask(text, cmd, 1) == run(fx), cmd


def test_gradle_output_under_mvn_is_refused():
    gradle = fixtures_of("gradle")
    for fx in gradle:
        assert ask(fx.request().text, "mvn test", fx.meta["exit_code"]) is None, fx.name


def test_truncated_run_is_refused():
    text = fixture("test_fail").request().text
    head = text.split("[INFO] Results:")[0]
    assert "BUILD" not in head
    assert ask(head, "mvn test", None) is None


def test_debug_output_is_refused():
    text = fixture("test_green").request().text
    debug = text.replace("[INFO] Scanning for projects...", "[DEBUG] Reading global settings from x\n"
                         "[INFO] Scanning for projects...")
    assert ask(debug, "mvn test", 0) is None


def test_unexplained_failure_is_refused():
    text = fixture("test_green").request().text
    assert ask(text, "mvn test", 1) is None


def test_quiet_green_run_has_nothing_to_do():
    assert ask("", "mvn -q test", 0) is None
    assert ask("hello from a test\n", "mvn -q test", 0) is None


def test_file_content_is_never_summarised():
    text = fixture("test_fail").request().text
    req = FormatRequest(text, "cat build.log", tool="read_file")
    assert formatter.sqz_format(request=req) is None
