"""Real tool outputs for the proxy's tests, produced by running the real programs in a temporary folder."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

FAILING_TESTS = '''import pytest


def add(a, b):
    return a + b


@pytest.mark.parametrize("a,b,want", [(i, i, 2 * i + (1 if i % 7 == 3 else 0)) for i in range(40)])
def test_add(a, b, want):
    assert add(a, b) == want


def test_ok():
    assert add(1, 2) == 3
'''


@pytest.fixture(autouse=True)
def _no_time_budgets(monkeypatch):
    """A loaded machine must not change what a test sees: no per-request or per-call deadline
    (``test_rewrite.py`` checks the per-request one on its own)."""
    monkeypatch.setenv("SQZ_PROXY_BUDGET_MS", "0")
    monkeypatch.setenv("SQZ_TIME_BUDGET_MS", "0")


@pytest.fixture(scope="session")
def real(tmp_path_factory) -> dict:
    """``pytest`` failing (exit 1) and passing, ``git log --stat``, ``git status`` and a source file's lines."""
    root = tmp_path_factory.mktemp("real")
    (root / "test_calc.py").write_text(FAILING_TESTS)
    run = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "test_calc.py"], cwd=root,
                         capture_output=True, text=True)
    assert run.returncode == 1, run.stdout
    passing = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "test_calc.py", "-k",
                              "test_ok or test_add and 0-0"], cwd=root, capture_output=True, text=True)
    assert passing.returncode == 0, passing.stdout
    repo = make_repo(root)
    log = subprocess.run(["git", "log", "--stat", "-n", "5"], cwd=repo, capture_output=True, text=True,
                         check=True).stdout
    (repo / "pkg0" / "mod0.py").write_text("changed\n")
    (repo / "new.txt").write_text("new\n")
    status = subprocess.run(["git", "status"], cwd=repo, capture_output=True, text=True, check=True).stdout
    source = (Path(__file__).resolve().parents[1] / "src" / "sqz_proxy" / "rewrite.py").read_text()
    return {"pytest_fail": run.stdout, "pytest_pass": passing.stdout, "git_log": log, "git_status": status,
            "source": source, "repo": repo}


def make_repo(root: Path) -> Path:
    """A git repository with eight real commits over three folders."""
    repo = root / "repo"
    repo.mkdir()
    env = {"GIT_AUTHOR_NAME": "Ada", "GIT_AUTHOR_EMAIL": "ada@example.org", "GIT_COMMITTER_NAME": "Ada",
           "GIT_COMMITTER_EMAIL": "ada@example.org", "GIT_CONFIG_NOSYSTEM": "1", "HOME": str(root),
           "PATH": "/usr/bin:/bin"}

    def git(*a):
        subprocess.run(["git", "-c", "init.defaultBranch=main", *a], cwd=repo, env=env, check=True,
                       capture_output=True)

    git("init", "-q")
    for i in range(7):
        d = repo / f"pkg{i % 3}"
        d.mkdir(exist_ok=True)
        (d / f"mod{i}.py").write_text("".join(f"def f{i}_{j}():\n    return {j}\n" for j in range(40 + i)))
        git("add", ".")
        git("commit", "-q", "-m", f"pkg{i % 3}: add mod{i} with {40 + i} functions")
    (repo / "notes.txt").write_text("".join(f"note {i}: the release checklist item number {i} is done\n"
                                            for i in range(120)))
    git("add", ".")
    git("commit", "-q", "-m", "notes: release checklist")
    return repo
