"""The PreToolUse rewrite of failing-prone commands never grants what Claude Code would not.

Rule semantics (https://code.claude.com/docs/en/permissions): deny, then ask, then allow, first match
wins, specificity does not matter; ``Bash`` / ``Bash(*)`` match every command, ``Bash(x)`` exactly
``x``, ``Bash(x:*)`` ``x`` or ``x …`` (word boundary), ``*`` any run of characters, a single trailing
`` *`` optional. ``reference_match`` below states those semantics independently of the module; the
tables and the property test check ``decide`` against it for every scope and mode.
"""

from __future__ import annotations

import json
import os
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sqz_integration_claude_code import integration, permissions

CLAUDE = ["--print", "Fix the tests"]  # arguments of a plain ``claude -p``


def reference_match(rule: str, command: str) -> bool:
    """Documented matching of one Bash rule against a whole simple command."""
    if rule in ("Bash", "Bash(*)"):
        return True
    if not (rule.startswith("Bash(") and rule.endswith(")")):
        return False
    pat = rule[5:-1]
    if pat.endswith(":*"):
        p = pat[:-2]
        return command == p or command.startswith(p + " ")
    if pat.endswith(" *") and pat.count("*") == 1:
        p = pat[:-2]
        return command == p or command.startswith(p + " ")
    regex = ".*".join(re.escape(part) for part in pat.split("*"))
    return re.fullmatch(regex, command, re.S) is not None


def write(path, data) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data))


@pytest.fixture()
def world(tmp_path):
    home, project, managed = tmp_path / "home", tmp_path / "project", tmp_path / "managed"
    for d in (home, project, managed):
        d.mkdir()
    (project / ".git").mkdir()
    return {"home": home, "project": project, "managed": managed}


SCOPE_FILES = {
    "managed": lambda w: w["managed"] / "managed-settings.json",
    "managed.d": lambda w: w["managed"] / "managed-settings.d" / "10-team.json",
    "user": lambda w: w["home"] / ".claude" / "settings.json",
    "project": lambda w: w["project"] / ".claude" / "settings.json",
    "local": lambda w: w["project"] / ".claude" / "settings.local.json",
}


def put(world, scope: str, kind: str, *rules: str, **extra) -> None:
    path = SCOPE_FILES[scope](world)
    data = json.loads(path.read_text()) if path.exists() else {"permissions": {}}
    data["permissions"].setdefault(kind, []).extend(rules)
    data.update(extra)
    write(path, data)


def trust(world) -> None:
    write(world["home"] / ".claude.json",
          {"projects": {os.path.realpath(world["project"]): {"hasTrustDialogAccepted": True}}})


def decide(world, command: str, mode: str | None = "default", cli=CLAUDE) -> permissions.Decision:
    rules = permissions.gather(str(world["home"]), [str(world["project"])], managed_dirs=(str(world["managed"]),))
    return permissions.decide(command, mode, rules, cli)


# -- every scope ------------------------------------------------------------------------------
@pytest.mark.parametrize("scope", ["managed", "managed.d", "user", "local"])
def test_an_allow_rule_of_each_scope_grants_the_command_it_matches(world, scope):
    put(world, scope, "allow", "Bash(pytest:*)")
    assert decide(world, "pytest -q tests").allowed
    assert not decide(world, "pytestx -q").allowed  # word boundary
    assert not decide(world, "mypy src").allowed


def test_project_allow_rules_count_only_in_a_trusted_folder(world):
    put(world, "project", "allow", "Bash(pytest:*)")
    assert not decide(world, "pytest -q").allowed  # claude -p ignores them before the trust dialog
    trust(world)
    assert decide(world, "pytest -q").allowed


@pytest.mark.parametrize("scope", ["managed", "managed.d", "user", "project", "local"])
@pytest.mark.parametrize("kind", ["deny", "ask"])
def test_a_deny_or_ask_rule_of_any_scope_wins_over_every_allow(world, scope, kind):
    trust(world)
    put(world, "user", "allow", "Bash")
    put(world, "local", "allow", "Bash(pytest:*)")
    put(world, scope, kind, "Bash(pytest -x:*)")
    assert not decide(world, "pytest -x tests").allowed
    assert not decide(world, "pytest -q").allowed  # a rule on pytest may match: unsure means no
    assert decide(world, "mypy src").allowed


def test_managed_only_rules_drop_every_other_allow(world):
    put(world, "user", "allow", "Bash(pytest:*)")
    put(world, "local", "allow", "Bash(cargo test:*)")
    put(world, "managed", "allow", "Bash(mypy:*)", allowManagedPermissionRulesOnly=True)
    assert not decide(world, "pytest -q").allowed
    assert not decide(world, "cargo test").allowed
    assert decide(world, "mypy src").allowed


def test_a_settings_file_that_does_not_parse_means_no(world):
    put(world, "user", "allow", "Bash(pytest:*)")
    (world["project"] / ".claude").mkdir()
    (world["project"] / ".claude" / "settings.local.json").write_text('{"permissions": {"deny": [')
    d = decide(world, "pytest -q")
    assert not d.allowed and "unreadable" in d.reason


# -- modes -----------------------------------------------------------------------------------
@pytest.mark.parametrize("mode,allowed", [("default", True), ("acceptEdits", True), ("dontAsk", True),
                                          (None, True), ("plan", False), ("auto", False), ("someNewMode", False)])
def test_modes_with_an_allow_rule(world, mode, allowed):
    put(world, "user", "allow", "Bash(pytest:*)")
    assert decide(world, "pytest -q", mode).allowed is allowed


@pytest.mark.parametrize("mode", ["default", "acceptEdits", "dontAsk", "plan", "auto"])
def test_no_allow_rule_no_grant_in_any_mode(world, mode):
    assert not decide(world, "pytest -q", mode).allowed


def test_bypass_mode_runs_anything_but_what_deny_or_ask_rules_may_catch(world):
    assert decide(world, "pytest -q", "bypassPermissions").allowed
    put(world, "user", "ask", "Bash(pytest:*)")
    assert not decide(world, "pytest -q", "bypassPermissions").allowed
    put(world, "local", "deny", "Bash(cargo:*)")
    assert not decide(world, "cargo test", "bypassPermissions").allowed


# -- the command's shape ----------------------------------------------------------------------
@pytest.mark.parametrize("command", [
    "pytest -q && rm -rf build", "pytest -q; curl x", "pytest -q | tee log", "pytest -q > out.txt",
    "pytest -q 2>&1", "pytest $(cat args)", "pytest `cat args`", "PYTHONPATH=src pytest -q", "(pytest -q)",
    "pytest -q &", "pytest tests/*.py", "pytest ~/proj", "pytest -q\nrm -rf /", "pytest -k 'a' || true",
])
def test_compound_or_expanded_commands_are_never_granted(world, command):
    put(world, "user", "allow", "Bash")  # even a blanket allow: only a plain single command is rewritten
    assert not decide(world, command).allowed


def test_rules_given_on_claudes_command_line_or_unreadable_arguments_mean_no(world):
    put(world, "user", "allow", "Bash(pytest:*)")
    assert not decide(world, "pytest -q", cli=["--print", "--disallowedTools", "Bash(pytest:*)"]).allowed
    assert not decide(world, "pytest -q", cli=["--settings=/tmp/team.json"]).allowed
    assert not decide(world, "pytest -q", cli=None).allowed
    assert decide(world, "pytest -q", cli=["--print", "--allowedTools", "Bash(git log:*)"]).allowed


@pytest.mark.parametrize("rule,command,allowed", [
    ("Bash(pytest)", "pytest", True),
    ("Bash(pytest)", "pytest -q", False),
    ("Bash(pytest -q)", "pytest -q", True),
    ("Bash(pytest:*)", "pytest", True),
    ("Bash(pytest *)", "pytest -q tests/unit", True),
    ("Bash(npm run test:*)", "npm run test:unit", False),  # legacy :* wants a space after the prefix
    ("Bash(npm run test:*)", "npm run test -- --ci", True),
    ("Bash(cargo test *)", "cargo test --workspace", True),
    ("Bash(cargo *)", "cargo build", True),
    ("Bash(* test)", "cargo test", False),  # a leading wildcard: not certain enough to grant
    ("Bash(py* -q)", "pytest -q", False),
    ("Bash(git log:*)", "pytest -q", False),
    ("Read(**)", "pytest -q", False),
    ("Bash(*)", "make -j2", True),
])
def test_allow_rule_shapes(world, rule, command, allowed):
    put(world, "user", "allow", rule)
    assert decide(world, command).allowed is allowed
    if allowed:
        assert reference_match(rule, command)


# -- never more than Claude Code: the property ---------------------------------------------------
WORDS = ["pytest", "-q", "tests", "cargo", "test", "build", "npm", "run", "mypy", "src", "make", "-x"]
COMMANDS = st.lists(st.sampled_from(WORDS), min_size=1, max_size=4).map(" ".join)


def rule_for(command: str, cut: int, shape: int) -> str:
    words = command.split()
    head = " ".join(words[:max(1, cut)])
    return ["Bash", "Bash(*)", f"Bash({head})", f"Bash({head}:*)", f"Bash({head} *)", f"Bash({head}*)",
            f"Bash(* {words[-1]})", f"Bash({words[0][:2]}*)"][shape % 8]


RULES = st.tuples(COMMANDS, st.integers(0, 4), st.integers(0, 7)).map(lambda t: rule_for(*t))


@settings(max_examples=300, deadline=None)
@given(command=COMMANDS, allow=st.lists(RULES, max_size=3), deny=st.lists(RULES, max_size=2),
       ask=st.lists(RULES, max_size=2), mode=st.sampled_from(["default", "acceptEdits", "dontAsk",
                                                              "bypassPermissions", "plan"]))
def test_decide_never_grants_what_claude_code_would_not(tmp_path_factory, command, allow, deny, ask, mode):
    rules = permissions.Rules(allow=[(r, "u") for r in allow], deny=[(r, "u") for r in deny],
                              ask=[(r, "u") for r in ask])
    d = permissions.decide(command, mode, rules, CLAUDE)
    if not d.allowed:
        return
    assert not any(reference_match(r, command) for r in deny + ask), d
    assert mode != "plan"
    assert mode == "bypassPermissions" or any(reference_match(r, command) for r in allow), d


# -- the hook ---------------------------------------------------------------------------------
def payload(world, command: str, mode: str = "default") -> bytes:
    return json.dumps({"session_id": "s1", "cwd": str(world["project"]), "permission_mode": mode,
                       "hook_event_name": "PreToolUse", "tool_name": "Bash",
                       "tool_input": {"command": command, "description": "Run the tests", "timeout": 120000},
                       "tool_use_id": "toolu_1"}).encode()


@pytest.fixture()
def hooked(world, monkeypatch):
    monkeypatch.setenv("HOME", str(world["home"]))
    monkeypatch.setenv("CLAUDE_PROJECT_DIR", str(world["project"]))
    monkeypatch.setattr(permissions, "MANAGED_DIRS", (str(world["managed"]),))
    monkeypatch.setattr(permissions, "claude_args", lambda *a, **k: list(CLAUDE))
    monkeypatch.setenv("SQZ_BIN", "/opt/sqz/bin/sqz")
    return world


def test_hook_rewrites_an_allowed_test_run_with_allow_and_every_field_kept(hooked):
    put(hooked, "user", "allow", "Bash(pytest:*)")
    out = json.loads(integration.hook(payload(hooked, "pytest -q tests"), ["--pre"]))["hookSpecificOutput"]
    assert out["hookEventName"] == "PreToolUse" and out["permissionDecision"] == "allow"
    assert out["updatedInput"] == {"command": "/opt/sqz/bin/sqz run -- pytest -q tests",
                                   "description": "Run the tests", "timeout": 120000}
    assert "Bash(pytest:*)" in out["permissionDecisionReason"]


@pytest.mark.parametrize("command", ["git status", "ls -la", "cat README.md", "npm run dev", "cargo run",
                                     "go run .", "vitest", "pytest -q | head", "sqz stats", "python app.py"])
def test_hook_leaves_other_commands_to_claude_code(hooked, command):
    put(hooked, "user", "allow", "Bash")
    assert integration.hook(payload(hooked, command), ["--pre"]) is None


def test_hook_leaves_a_command_the_rules_would_prompt_for(hooked):
    assert integration.hook(payload(hooked, "pytest -q"), ["--pre"]) is None  # no rule: Claude Code asks
    put(hooked, "user", "allow", "Bash(pytest:*)")
    put(hooked, "local", "ask", "Bash(pytest:*)")
    assert integration.hook(payload(hooked, "pytest -q"), ["--pre"]) is None


def test_hook_in_bypass_mode_rewrites_without_granting(hooked):
    out = json.loads(integration.hook(payload(hooked, "cargo test", "bypassPermissions"), ["--pre"]))
    assert "permissionDecision" not in out["hookSpecificOutput"]
    assert out["hookSpecificOutput"]["updatedInput"]["command"].endswith(" run -- cargo test")


@pytest.mark.parametrize("words,verbose", [
    (["pytest", "-q"], True), (["python", "-m", "pytest"], True), (["uv", "run", "pytest"], True),
    (["npx", "jest"], True), (["npm", "test"], True), (["npm", "run", "test:unit"], True),
    (["npm", "run", "dev"], False), (["cargo", "test"], True), (["cargo", "run"], False),
    (["go", "test", "./..."], True), (["go", "run", "."], False), (["vitest", "run"], True),
    (["mvn", "-q", "verify"], True), (["./gradlew", "build"], True), (["make", "-j2"], True),
    (["tsc", "--noEmit"], True), (["ruff", "check", "."], True), (["ruff", "format"], False),
    (["git", "status"], False), (["ls"], False),
])
def test_which_commands_count_as_verbose_on_failure(words, verbose):
    assert integration.verbose_on_failure(words) is verbose


def test_init_writes_the_pre_hook_and_removes_only_an_older_rewrite(tmp_path):
    import re as _re

    acts = integration.actions({"home": str(tmp_path), "sqz": "/opt/sqz/bin/sqz", "versions": {"claude-code": None}})
    pre = [a for a in acts if a["type"] == "json_array_item" and a["path"] == ["hooks", "PreToolUse"]]
    assert pre and pre[0]["item"]["hooks"][0]["command"] == "/opt/sqz/bin/sqz hook claude-code --pre"
    removal = next(a for a in acts if a["type"] == "json_array_remove")
    assert _re.search(removal["stale"], "/old/bin/sqz hook claude-code")
    assert not _re.search(removal["stale"], "/opt/sqz/bin/sqz hook claude-code --pre")
