"""sqz_agents.rewrite: which commands are wrapped, and wrapped commands run for real under bash."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from sqz_agents.rewrite import compress_invocation, judge, rewrite_command
from sqz_testing import grows_linearly, nested_repeats, regex_patterns, work_done

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


# -- issue 14: sqz's own verbs are never wrapped (a wrapped ``sqz expand`` came back as the same ref) --
@pytest.mark.parametrize("command", [
    "sqz expand 3f2a9c41d0e7", "sqz expand §3f2a9c41d0e7", "/usr/local/bin/sqz expand 3f2a9c41d0e7",
    "'/opt/my tools/sqz' expand 3f2a9c41d0e7", "python -m sqz_core expand 3f2a9c41d0e7",
    "/home/me/.venv/bin/python3 -m sqz_core expand 3f2a9c41d0e7", "python3.11 -msqz_core recall 'db error'",
    "cd sub && sqz expand 3f2a9c41d0e7", "cd 'a b' && cd c && python -m sqz_core expand 3f2a9c41d0e7",
    "SQZ_SESSION=s1 sqz expand 3f2a9c41d0e7", "env SQZ_SESSION=s1 sqz expand 3f2a9c41d0e7",
    "sqz expand 3f2a9c41d0e7 | head -50", "sqz stats", "sqz recall timeout", "sqz doctor", "sqz gain",
    f"{SQZ} expand 3f2a9c41d0e7",
])
def test_sqz_verbs_are_never_wrapped(command):
    v = judge(command)
    assert not v.wrap and "sqz" in v.reason, v
    assert rewrite_command(command, session="s", sqz=SQZ) is None


@pytest.mark.parametrize("command", ["grep -rn sqz src/", "cat sqz.toml", "ls ~/.cache/sqz", "pip show sqz-core"])
def test_commands_that_merely_mention_sqz_are_wrapped(command):
    assert judge(command).wrap, judge(command)


def _hook(command: str, monkeypatch, capfdbinary) -> tuple[bytes, int]:
    """Run ``sqz hook claude-code`` in-process on a PreToolUse payload; (stdout bytes, lines of Python run)."""
    import io
    import json

    from sqz_core.hot import cmd_hook

    data = json.loads((Path(__file__).parents[2] / "sqz_integrations" / "claude_code" / "tests" / "payloads"
                       / "pretooluse_bash.json").read_text())
    data["tool_input"]["command"] = command
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(json.dumps(data).encode())))
    status, lines = work_done(cmd_hook, ["claude-code"])
    assert status == 0
    return capfdbinary.readouterr().out, lines


def test_hook_leaves_sqz_expand_unchanged(sqz_env, monkeypatch, capfdbinary):
    monkeypatch.setenv("SQZ_BIN", SQZ)
    out, _ = _hook(f"{SQZ} expand 3f2a9c41d0e7", monkeypatch, capfdbinary)
    assert out == b""
    # a bare `sqz expand` (the short hint, issue 25.5) is resolved to this sqz, word for word, never wrapped
    out, _ = _hook("cd sub && sqz expand 3f2a9c41d0e7", monkeypatch, capfdbinary)
    import json
    answer = json.loads(out)["hookSpecificOutput"]
    from sqz_core.api import sqz_executable

    assert answer["updatedInput"]["command"] == f"cd sub && {sqz_executable()} expand 3f2a9c41d0e7"
    assert b"compress --cmd" not in out
    out, _ = _hook("git status", monkeypatch, capfdbinary)  # the same path does rewrite other commands
    assert b"updatedInput" in out and b"compress --cmd" in out


# -- issue 14: long-running / interactive commands are left alone, from real commands ------------
LONG_RUNNING = [
    "python manage.py runserver", "python3 manage.py runserver 0.0.0.0:8000", "./manage.py runserver",
    "uv run python manage.py runserver", "python manage.py shell", "python -m http.server",
    "python3 -m http.server 8000 --bind 127.0.0.1", "flask run", "flask --app hello run --debug",
    "uvicorn main:app --reload", "gunicorn app:app -w 4", "npm start", "npm run dev", "yarn dev", "pnpm dev",
    "pnpm run dev", "yarn start", "npx vite", "vite", "vite --port 5173", "npx vite --host", "next dev",
    "npx next dev", "docker compose up", "docker compose -f compose.yml up --build", "docker-compose up",
    "docker run -it ubuntu bash", "docker run -i alpine sh", "docker logs -f web", "kubectl logs -f deploy/api",
    "kubectl port-forward svc/api 8080:80", "ping example.org", "ping -4 127.0.0.1", "tail -f app.log",
    "tail -F /var/log/syslog", "watch -n 2 kubectl get pods", "ptw", "ptw -- -q", "pytest-watch",
    "jest --watch", "npx jest --watchAll", "vitest", "npx vitest", "vitest --coverage", "cargo watch -x test",
    "crontab -e", "gh auth login", "gh auth login --web", "ssh build-host", "ssh -t host htop", "top", "htop",
    "vim notes.txt", "nano README.md", "emacs -nw x", "less server.log", "more server.log",
    "(python -m http.server &)", "(make build &)", "npm run dev &", "sleep 5 & wait", "make & echo started",
]


@pytest.mark.parametrize("command", LONG_RUNNING)
def test_long_running_left_alone(command):
    v = judge(command)
    assert not v.wrap, v
    assert rewrite_command(command, session="s", sqz=SQZ) is None


@pytest.mark.parametrize("command", [
    "vite build", "npx vite build --mode production", "docker compose up -d", "docker compose up --detach api",
    "docker-compose up -d", "ping -c 3 example.org", "ping -c3 127.0.0.1", "vitest run", "npx vitest run --reporter=dot",
    "vitest --run", "npm run build", "yarn build", "pnpm run lint", "python manage.py test", "python manage.py migrate",
    "python -m pytest -q", "python -m pip list", "crontab -l", "gh pr list", "tail -n 50 app.log", "docker logs web",
    "kubectl logs deploy/api --tail=100", "docker compose ps", "cargo test", "npx tsc --noEmit",
    "echo a && echo b", "ls >&2", "make 2>&1 | tail", "ls &> out.txt", "pytest |& tail -3",
])
def test_near_misses_are_wrapped(command):
    assert judge(command).wrap, judge(command)


# -- issue 14: quoting that fooled the parser -------------------------------------------------
@pytest.mark.parametrize("command", [
    'echo "a <<EOF b"', "echo 'x <<EOF'", 'grep -n "<<EOF" scripts/*.sh', 'echo "<<A" && cat <<B\nbody\nB',
    "echo \\<<EOF", "echo 'a & b'", 'echo "x &"', "echo a\\&b", "cat <<- EOF\n\tbody\n\tEOF",
    "cat <<A <<B\na\nA\nb\nB", "cat <<<'here <<EOF'", "echo x >| out.txt", "ls # don't",
])
def test_quoted_heredoc_and_ampersand_do_not_fool_the_parser(command):
    assert judge(command).wrap, judge(command)


def test_newline_separates_commands():
    assert not judge("echo start\nvim notes.txt").wrap
    assert not judge("ls\n(sleep 9 &)").wrap
    assert not judge("cat <<EOF\nvim is only text here\nEOF\nvim notes.txt").wrap
    assert judge("cat <<EOF\nvim is only text here\nEOF\nls").wrap


def test_quoted_heredoc_runs_under_bash(sqz_env):
    for command in ['echo "a <<EOF b"', 'printf "%s\\n" "<<X" && cat <<\'B\'\nbody & more\nB']:
        new = rewrite_command(command, session="q", sqz=SQZ)
        assert new is not None, command
        got, want = run(new, sqz_env), run(command, sqz_env)
        assert got.returncode == want.returncode == 0
        for line in want.stdout.splitlines():
            assert line in got.stdout, (command, line, got.stdout)


# -- issue 15: a 1 MB one-word command took 16 s in the hook (shlex) ----------------------------
def test_megabyte_command_through_the_hook_is_fast_and_unchanged(sqz_env, monkeypatch, capfdbinary):
    """Lines of Python run, not seconds: a 1 MB command costs the hook at most about 4x a 256 KB one."""
    monkeypatch.setenv("SQZ_BIN", SQZ)
    for prefix in ("", "echo "):
        _hook(prefix + "a" * 10, monkeypatch, capfdbinary)  # warm: first imports are not the command's work
        out_small, n_small = _hook(prefix + "a" * (1 << 18), monkeypatch, capfdbinary)
        out, n_large = _hook(prefix + "a" * (1 << 20), monkeypatch, capfdbinary)
        assert out_small == out == b"" and grows_linearly(n_small, n_large, 4), (prefix, n_small, n_large)


def test_long_commands_under_the_limit_are_still_judged_linearly():
    from sqz_agents.rewrite import MAX_COMMAND

    def both(command):
        return judge(command).wrap, judge(command + "y" * 20).wrap

    small, large = "echo " + "x" * (MAX_COMMAND // 4 - 10), "echo " + "x" * (MAX_COMMAND - 10)
    both(small)  # warm
    (wraps_small, n_small), (wraps, n_large) = work_done(both, small), work_done(both, large)
    assert wraps_small == (True, True) and wraps == (True, False)  # one over the limit is left alone
    assert grows_linearly(n_small, n_large, 4), (n_small, n_large)


def test_the_rewrite_patterns_cannot_backtrack():
    from sqz_agents import rewrite

    for name, pattern in regex_patterns(rewrite).items():
        assert nested_repeats(pattern) == [], (name, pattern)
