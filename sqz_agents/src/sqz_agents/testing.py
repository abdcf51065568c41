"""Test helpers for agent integrations (``sqz.integrations``): a throwaway HOME and the init/uninstall round trip.

For integration authors' tests only (standard library and pytest; never imported by sqz itself)::

    from sqz_agents.testing import home, round_trip  # noqa: F401  (``home`` is a fixture)
    from sqz_integration_acme import integration

    def test_round_trip(home):
        after = round_trip(integration, home, {".acme/config.json": '{"theme": "dark"}\\n'})
        assert_mcp_server_added(after, ".acme/config.json")

``round_trip`` checks what every integration owes its users: ``sqz init`` changes the
home, a second ``init`` changes nothing and says "already configured", and ``sqz
uninstall`` gives back every file byte for byte (files sqz created are removed).
"""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

SQZ = os.path.join(os.path.dirname(sys.executable), "sqz")  # the sqz of the running interpreter
SQZ_BIN = "/opt/sqz tools/sqz"  # what the ``home`` fixture makes ``sqz init`` write as the sqz command
SQZ_MCP_BIN = "/opt/sqz tools/sqz-mcp"  # ... and as the MCP server command


@pytest.fixture()
def home(tmp_path, monkeypatch):
    """An empty HOME (with a space and a non-ASCII letter) holding sqz's own data; fixed sqz paths."""
    h = tmp_path / "home dir ü"
    h.mkdir()
    monkeypatch.setenv("HOME", str(h))
    for var in ("SQZ_DB_PATH", "SQZ_CACHE_DIR", "XDG_DATA_HOME", "XDG_CACHE_HOME"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("SQZ_BIN", SQZ_BIN)
    monkeypatch.setenv("SQZ_MCP_BIN", SQZ_MCP_BIN)
    return h


def tree(root) -> dict[str, bytes]:
    """Every file below ``root`` (relative path -> bytes), leaving out sqz's own ``.local`` and ``.cache``."""
    out = {}
    for d, _, files in os.walk(root):
        if "/.local" in d or "/.cache" in d:
            continue
        for f in files:
            with open(os.path.join(d, f), "rb") as fh:
                out[os.path.relpath(os.path.join(d, f), root)] = fh.read()
    return out


def seed(home, files: dict[str, str]) -> None:
    """Write ``files`` (path relative to ``home`` -> text) as the user's existing configuration."""
    for rel, text in files.items():
        p = home / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)


def round_trip(integration, home, files: dict[str, str]) -> dict[str, bytes]:
    """Seed ``files``, then init (changes), init again (no change), uninstall (byte-exact restore).

    Returns the tree as the first ``init`` left it, for the agent-specific checks.
    """
    from sqz_agents import setup_cmds

    seed(home, files)
    before = tree(home)
    ctx = setup_cmds.make_ctx(home=str(home))
    ctx["force"] = True
    names = {integration.name: integration}
    assert setup_cmds.run_init(names, ctx, echo=lambda s: None) == 0
    after = tree(home)
    assert after != before, "init changed nothing"
    lines = []
    setup_cmds.run_init(names, ctx, echo=lines.append)
    assert tree(home) == after and lines == [f"{integration.name}: already configured"], lines
    assert setup_cmds.run_uninstall(names, ctx, echo=lambda s: None) == 0
    assert tree(home) == before, "uninstall did not give back the seeded files"
    return after


def assert_advisory_without_hook(integration) -> None:
    """An advisory integration has no ``hook``: sqz never rewrites that agent's commands."""
    assert integration.tier == "advisory" and not hasattr(integration, "hook")


def assert_mcp_server_added(after: dict[str, bytes], rel: str, container: str = "mcpServers") -> dict:
    """The JSON(C) file ``rel`` gained the ``sqz`` server next to the one seeded there; returns the parsed file."""
    from sqz_agents.configfiles import parse_jsonc, to_python

    value = to_python(parse_jsonc(after[rel].decode()))
    assert value[container]["sqz"]["command"] == SQZ_MCP_BIN and len(value[container]) == 2, value
    return value


def run_sqz(home, *args: str) -> subprocess.CompletedProcess:
    """Run the ``sqz`` command with ``home`` as HOME, a minimal PATH and no SQZ_*/XDG_* settings."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SQZ_", "XDG_"))}
    env.update(HOME=str(home), PATH="/usr/bin:/bin")
    return subprocess.run([SQZ, *args], capture_output=True, text=True, env=env)


def real_git_log(repo) -> str:
    """Real ``git log --stat -n 5`` output of a six-commit repository made in ``repo`` (an empty folder):
    subjects ``Add module mod0`` … ``Add module mod5``, one 40-line file each."""
    env = {"GIT_AUTHOR_NAME": "Dev", "GIT_AUTHOR_EMAIL": "dev@example.org", "GIT_COMMITTER_NAME": "Dev",
           "GIT_COMMITTER_EMAIL": "dev@example.org", "GIT_CONFIG_NOSYSTEM": "1", "HOME": str(repo),
           "PATH": "/usr/bin:/bin"}
    subprocess.run(["git", "init", "-q"], cwd=repo, env=env, check=True)
    for i in range(6):
        (repo / f"mod{i}.py").write_text("".join(f"v{j} = {j}\n" for j in range(40)))
        subprocess.run(["git", "add", "."], cwd=repo, env=env, check=True)
        subprocess.run(["git", "commit", "-qm", f"Add module mod{i}"], cwd=repo, env=env, check=True)
    return subprocess.run(["git", "log", "--stat", "-n", "5"], cwd=repo, env=env, check=True, capture_output=True,
                          text=True).stdout

def make_repo(root: Path) -> Path:
    """A git repository with real commits for the agents' end-to-end tests: ``pkgN: add modI with K
    functions`` subjects over three folders, then a 120-line ``notes.txt``."""
    repo = root / "repo"
    repo.mkdir()
    env = dict(os.environ, GIT_AUTHOR_NAME="Ada", GIT_AUTHOR_EMAIL="ada@example.org",
               GIT_COMMITTER_NAME="Ada", GIT_COMMITTER_EMAIL="ada@example.org")

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


def sqz_shim(root: Path) -> Path:
    """An ``sqz`` program running this interpreter's ``sqz_core`` (this worktree's code) with the test's env."""
    shim = root / "bin" / "sqz"
    shim.parent.mkdir()
    pp = os.environ.get("PYTHONPATH", "")
    # SQZ_BIN: the commands sqz writes name this program (as an installed ``sqz`` script names itself)
    shim.write_text(f"#!/bin/sh\nSQZ_BIN={shlex.quote(str(shim))} PYTHONPATH={shlex.quote(pp)} "
                    f"exec {shlex.quote(sys.executable)} -m sqz_core \"$@\"\n")
    shim.chmod(0o755)
    return shim


def raw_git_log(repo: Path) -> str:
    """``git log --stat -n 5`` of ``repo`` as git prints it (what the agent's command printed)."""
    return subprocess.run(["git", "log", "--stat", "-n", "5"], cwd=repo, capture_output=True, text=True,
                          check=True).stdout


# statements in the raw ``git log --stat -n 5`` of ``make_repo`` (subjects and paths)
MAKE_REPO_FACTS = ["notes: release checklist", "pkg0: add mod6 with 46 functions", "pkg2: add mod5 with 45 functions",
                   "pkg1: add mod4 with 44 functions", "pkg0: add mod3 with 43 functions", "pkg0/mod6.py",
                   "pkg2/mod5.py", "notes.txt"]


def make_subject_repo(tmp: Path, env: dict, subjects: list[str]) -> str:
    """A git repository in ``tmp/repo`` with one commit per subject (``"…: add NAME …"``), each adding a
    40-function ``NAME.py`` (NAME: the subject's third word); ``env`` is the test's environment."""
    repo = tmp / "repo"
    repo.mkdir()
    genv = dict(env, GIT_AUTHOR_NAME="Dev", GIT_AUTHOR_EMAIL="dev@example.org", GIT_COMMITTER_NAME="Dev",
                GIT_COMMITTER_EMAIL="dev@example.org")

    def git(*args):
        subprocess.run(["git", *args], cwd=repo, env=genv, check=True, capture_output=True)

    git("init", "-q")
    for subject in subjects:
        name = subject.split()[2]
        (repo / f"{name}.py").write_text("".join(f"def {name}_rule_{j}(text):\n    return text.count({j!r})\n\n"
                                                 for j in range(40)))
        git("add", ".")
        git("commit", "-qm", subject)
    return str(repo)
