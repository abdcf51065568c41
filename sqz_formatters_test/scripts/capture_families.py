"""Re-capture the fixtures of issue 25's families and drops in this pack (tox, nox, go, cargo).

    python scripts/capture_families.py [tox nox go cargo]

Needs tox and nox on PATH (``pip install tox nox`` into a throw-away venv), go and cargo. Each
family writes a small project under /tmp/sqz-capture/, runs the real tool on it with stdout and
stderr merged, checks that every fact (written from the raw output, before any formatter ran)
is in the capture and saves ``tests/fixtures/<family>/fam_*.txt`` with its sidecar. Package
index URLs and paths are replaced by ``pkgs.example.org`` (``sqz_testing.redact_registries``).
"""

from __future__ import annotations

import subprocess
import sys

from _capture_common import WORK, run_families, run_merged, save_checked, tool_env, write_project
from sqz_testing import redact_registries

_CALC = '''def add(a, b):
    return a + b


def mean(xs):
    return sum(xs) / len(xs)


def slug(s):
    return s.strip().lower().replace(" ", "-")
'''
_GREEN = '''import pytest
from famcalc import add, mean, slug


@pytest.mark.parametrize("a,b", [(i, i * 2) for i in range(40)])
def test_add(a, b):
    assert add(a, b) == a + b


def test_mean():
    assert mean([1, 2, 3]) == 2


def test_slug():
    assert slug(" Hello World ") == "hello-world"
'''
_RED = '''from famcalc import mean, slug


def test_mean_empty():
    assert mean([]) == 0


def test_slug_unicode():
    assert slug("Crème Brûlée") == "creme-brulee"


def test_slug_ok():
    assert slug("a b") == "a-b"
'''
_TOX_INI = '''[tox]
envlist = green, red
skipsdist = true

[testenv]
deps = pytest
setenv = PYTHONPATH = {toxinidir}

[testenv:green]
commands = pytest tests/test_green.py

[testenv:red]
commands = pytest tests/test_red.py
'''
_NOXFILE = '''import nox


@nox.session(python=False)
def lint(session):
    session.run("python", "-m", "py_compile", "famcalc.py")


@nox.session
def green(session):
    session.install("pytest")
    session.run("pytest", "tests/test_green.py", env={"PYTHONPATH": "."})


@nox.session
def red(session):
    session.install("pytest")
    session.run("pytest", "tests/test_red.py", env={"PYTHONPATH": "."})
'''


def _version(cmd: list[str]) -> str:
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True).stdout.strip()


def _pyproject(name: str):
    return write_project(name, {"famcalc.py": _CALC, "tests/test_green.py": _GREEN, "tests/test_red.py": _RED,
                                "tox.ini": _TOX_INI, "noxfile.py": _NOXFILE})


def _redacted(raw: bytes) -> bytes:
    return redact_registries(raw.decode("utf-8", "surrogateescape")).encode("utf-8", "surrogateescape")


def tox() -> None:
    proj = _pyproject("fam_tox")
    raw, code = run_merged("tox -e green,red", proj, tool_env(passthrough=("PIP_INDEX_URL", "PIP_FIND_LINKS",
                                                                           "PIP_EXTRA_INDEX_URL")), 900)
    save_checked("tox", "fam_tox_green_red", _redacted(raw), code, command="tox -e green,red",
                 produced_by=f"tox {_version(['tox', '--version']).split()[0]}; {_version([sys.executable, '--version'])}",
                 expect_exit=1, facts=[
                     "green: install_deps> python -I -m pip install pytest",
                     "red: install_deps> python -I -m pip install pytest",
                     "green: commands[0]> pytest tests/test_green.py",
                     "red: commands[0]> pytest tests/test_red.py",
                     "collected 42 items",
                     "collected 3 items",
                     "42 passed in",
                     "2 failed, 1 passed in",
                     "FAILED tests/test_red.py::test_mean_empty - ZeroDivisionError: division by zero",
                     "E       ZeroDivisionError: division by zero",
                     "famcalc.py:6: ZeroDivisionError",
                     "tests/test_red.py:9: AssertionError",
                     "E       AssertionError: assert 'crème-brûlée' == 'creme-brulee'",
                     "  evaluation failed :(",
                     ["  red: FAIL code 1"],
                     ["  green: OK ("],
                 ], notes="a two-env tox run (one passing, one failing pytest session) on a throw-away project, "
                          "captured in /tmp/sqz-capture/fam_tox by scripts/capture_families.py; stdout+stderr merged; "
                          "package index paths, if any, replaced by pkgs.example.org")


def nox() -> None:
    proj = _pyproject("fam_nox")
    raw, code = run_merged("nox", proj, tool_env(passthrough=("PIP_INDEX_URL", "PIP_FIND_LINKS",
                                                              "PIP_EXTRA_INDEX_URL")), 900)
    save_checked("tox", "fam_nox_three_sessions", _redacted(raw), code, command="nox",
                 produced_by=f"nox {_version(['nox', '--version'])}; {_version([sys.executable, '--version'])}",
                 expect_exit=1, facts=[
                     "nox > Running session lint",
                     "nox > python -m py_compile famcalc.py",
                     "nox > pytest tests/test_green.py",
                     "nox > pytest tests/test_red.py",
                     "collected 42 items",
                     "collected 3 items",
                     "FAILED tests/test_red.py::test_mean_empty - ZeroDivisionError: division by zero",
                     "famcalc.py:6: ZeroDivisionError",
                     "tests/test_red.py:9: AssertionError",
                     "nox > Command pytest tests/test_red.py failed with exit code 1",
                     "nox > Session red failed.",
                     ["nox > * lint: success"],
                     ["nox > * green: success"],
                     ["nox > * red: failed"],
                 ], notes="nox with three sessions (python=False lint, a passing and a failing pytest session) on a "
                          "throw-away project, captured in /tmp/sqz-capture/fam_nox by scripts/capture_families.py; "
                          "stdout+stderr merged")


_GO_CALC = '''package famgo

import "strings"

func Add(a, b int) int { return a + b }

func Slug(s string) string { return strings.ReplaceAll(strings.ToLower(strings.TrimSpace(s)), " ", "-") }
'''
_GO_TEST = '''package famgo

import (
	"testing"
	"time"
)

func TestAdd(t *testing.T) {
	for i := 0; i < 5; i++ {
		if Add(i, i) != 2*i {
			t.Fatalf("Add(%d, %d) wrong", i, i)
		}
	}
}

func TestSlugEmpty(t *testing.T) {
	t.Run("blank", func(t *testing.T) {
		time.Sleep(30 * time.Millisecond)
		if Slug("   ") != "" {
			t.Error("blank not empty")
		}
	})
	t.Run("tab", func(t *testing.T) {
		if got := Slug("\\t"); got != "-" {
			t.Errorf("Slug(tab) = %q, want %q", got, "-")
		}
	})
}
'''


def go() -> None:
    proj = write_project("fam_go", {"go.mod": "module example.org/famgo\n\ngo 1.19\n", "calc.go": _GO_CALC,
                                    "calc_test.go": _GO_TEST})
    env = tool_env(passthrough=("GOPATH", "GOCACHE", "GOROOT"), GOFLAGS="-count=1")
    raw, code = run_merged("go test -v ./...", proj, env, 300)
    # a parent test that took longer than its failing subtest: its own line says so
    save_checked("go", "fam_v_parent_slower", raw, code, command="go test -v ./...",
                 produced_by=_version(["go", "version"]), expect_exit=1, facts=[
                     ["--- FAIL: TestSlugEmpty (0.03s)"],
                     ["--- FAIL: TestSlugEmpty/tab (0.00s)"],
                     "calc_test.go:25: Slug(tab) = \"\", want \"-\"",
                     ["FAIL\texample.org/famgo\t"],
                 ], notes="a parent test whose passing subtest sleeps 30 ms, so its duration differs from its "
                          "failing subtest's; captured in /tmp/sqz-capture/fam_go by scripts/capture_families.py")


_RS = '''pub fn add(a: u64, b: u64) -> u64 {
    a + b
}

pub fn ratio(a: u64, b: u64) -> u64 {
    a / b
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adds() {
        assert_eq!(add(2, 2), 4);
    }

    #[test]
    fn adds_wrong() {
        assert_eq!(add(2, 2), 5, "two and two");
    }

    #[test]
    fn divides_by_zero() {
        assert_eq!(ratio(1, 0), 0);
    }
}
'''


def cargo() -> None:
    proj = write_project("fam_cargo", {"Cargo.toml": '[package]\nname = "fam_cargo"\nversion = "0.1.0"\n'
                                                     'edition = "2021"\n\n[dependencies]\n', "src/lib.rs": _RS})
    env = tool_env(passthrough=("CARGO_HOME", "RUSTUP_HOME"), RUST_BACKTRACE="0", CARGO_TERM_COLOR="never")
    run_merged("cargo build --tests --offline", proj, env, 600)   # compile first, so the capture has no timing of it
    raw, code = run_merged("cargo test --offline", proj, env, 600)
    save_checked("cargo", "fam_test_panic_thread_ids", raw, code, command="cargo test",
                 produced_by=_version(["cargo", "--version"]) + "; " + _version(["rustc", "--version"]),
                 expect_exit=101, facts=[
                     ["thread 'tests::divides_by_zero' (", ") panicked at src/lib.rs:6:5:"],
                     ["thread 'tests::adds_wrong' (", ") panicked at src/lib.rs:20:9:"],
                     "attempt to divide by zero",
                     "assertion `left == right` failed: two and two",
                     "  left: 4",
                     " right: 5",
                     "test result: FAILED. 1 passed; 2 failed; 0 ignored; 0 measured; 0 filtered out;",
                 ], notes="rust 1.95's panic line names the thread's OS id: `thread 'x' (7795) panicked at`; "
                          "captured in /tmp/sqz-capture/fam_cargo by scripts/capture_families.py")


if __name__ == "__main__":
    raise SystemExit(run_families({"tox": tox, "nox": nox, "go": go, "cargo": cargo}, sys.argv[1:]))
