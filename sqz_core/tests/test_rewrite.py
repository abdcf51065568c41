"""sqz_core.rewrite: which commands are wrapped, and wrapped commands run for real under bash."""

import os
import shutil
import subprocess
import sys

import pytest

from sqz_core.rewrite import compress_invocation, judge, rewrite_command

SQZ = f"{sys.executable} -m sqz_core"
BASH = shutil.which("bash")


@pytest.fixture()
def sqz_env(tmp_path, monkeypatch):
    monkeypatch.setenv("SQZ_DB_PATH", str(tmp_path / "db" / "sqz.db"))
    monkeypatch.setenv("SQZ_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path


def run(cmd: str, cwd) -> subprocess.CompletedProcess:
    return subprocess.run([BASH, "-c", cmd], capture_output=True, text=True, cwd=cwd, timeout=60)


@pytest.mark.parametrize("command", [
    "git status", "pytest -q", "ls -la", "seq 1 100 | grep 7", "make 2>&1 | tail -5",
    "cat <<'EOF'\nit's a heredoc\nEOF", "for i in 1 2; do echo $i; done", "cd sub && pytest -q",
    "python3 -m pytest", "node script.js", "docker ps", "git commit -m 'x'", "echo hi # note",
    "npm test", "npm run build", "tail -n 20 log.txt", "git log --oneline",
])
def test_wrapped(command):
    assert judge(command).wrap, judge(command)


@pytest.mark.parametrize("command,why", [
    ("", "empty"), ("   ", "empty"), ("vim notes.txt", "interactive"), ("less log", "interactive"),
    ("python3", "REPL"), ("node", "REPL"), ("ssh host", "interactive"), ("tail -f app.log", "long-running"),
    ("npm run dev", "server"), ("npm start", "server"), ("yarn dev", "server"), ("watch -n1 ls", "interactive"),
    ("pytest --watch", "watch"), ("docker run -it ubuntu bash", "interactive"), ("kubectl logs -f pod", "follow"),
    ("git commit", "editor"), ("git rebase -i HEAD~3", "interactive"), ("git add -p", "interactive"),
    ("sleep 30 &", "backgrounds"), ("cd /tmp", "state"), ("export A=1", "state"), ("source .venv/bin/activate", "state"),
    ("echo 'unbalanced", "parse"), ("cat <<EOF\nno terminator", "heredoc"),
    ("pytest 2>&1 | sqz compress --cmd pytest", "already"), ("sqz run -- pytest", "already"),
    ("f() { echo hi; }", "function"), ("sudo apt-get update", "interactive"), ("uvicorn app:app", "long-running"),
])
def test_left_alone(command, why):
    v = judge(command)
    assert not v.wrap and why in v.reason, v


def test_invocation_quotes_command_and_session():
    inv = compress_invocation("grep -r 'it''s' .", "sess 'x'", sqz="/opt/my sqz/sqz")
    assert inv.startswith("SQZ_QUIET=1 /opt/my sqz/sqz compress --cmd ")
    assert "--session 'sess '\"'\"'x'\"'\"''" in inv


def test_leading_cd_stays_outside_the_subshell(tmp_path):
    new = rewrite_command("cd sub && pwd", session="s", sqz=SQZ)
    assert new.startswith("cd sub && { ( pwd\n)")


def test_real_commands_keep_output_and_status(sqz_env):
    work = sqz_env / "work dir é"
    work.mkdir()
    (work / "sub").mkdir()
    cases = {
        "ls /nonexistent-path": 2,
        "exit 7": None,  # left alone (exit is a shell built-in)
        "seq 1 50 | grep 5 | head -2": 0,
        "false || echo recovered": 0,
        "cat <<'EOF'\nit's here\nEOF": 0,
        "echo out; echo err >&2; ls /nope": 2,
        "cd sub && pwd": 0,
        "printf 'a\\nb\\n' > f.txt && cat f.txt": 0,
    }
    for command, status in cases.items():
        new = rewrite_command(command, session="t1", sqz=SQZ)
        if status is None:
            assert new is None, command
            continue
        got, want = run(new, work), run(command, work)
        assert got.returncode == want.returncode == status, (command, got)
        merged = want.stdout + want.stderr
        for line in merged.splitlines():
            assert line in got.stdout, (command, line, got.stdout)
        assert "__SQZ_EXIT__" not in got.stdout


def test_real_git_and_pytest_runs_are_compressed(sqz_env):
    repo = sqz_env / "repo"
    repo.mkdir()
    env = dict(os.environ, GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@e", GIT_COMMITTER_NAME="t",
               GIT_COMMITTER_EMAIL="t@e")
    subprocess.run(["git", "init", "-q"], cwd=repo, check=True, env=env)
    for i in range(60):
        (repo / f"test_{i:02d}.py").write_text(f"def test_{i}():\n    assert {i} != 13\n")
    subprocess.run(["git", "add", "-A"], cwd=repo, check=True, env=env)
    status = rewrite_command("git status", session="t2", sqz=SQZ)
    got = subprocess.run([BASH, "-c", status], capture_output=True, text=True, cwd=repo, env=env)
    want = subprocess.run(["git", "status"], capture_output=True, text=True, cwd=repo, env=env)
    assert got.returncode == 0 and len(got.stdout) < len(want.stdout)
    assert "test_00.py" in want.stdout
    tests = rewrite_command(f"{sys.executable} -m pytest -q -p no:cacheprovider", session="t2", sqz=SQZ)
    got = subprocess.run([BASH, "-c", tests], capture_output=True, text=True, cwd=repo, env=env)
    assert got.returncode == 1  # test_13 fails: the status survives the pipe
    assert "test_13" in got.stdout and "1 failed" in got.stdout
