"""Issue 14: what ``sqz init`` writes, by scope.

* project files (``--project``, committed and shared) never hold this machine's sqz path: they
  name ``sqz`` / ``sqz-mcp``; init prints the PATH step when those names do not reach this sqz;
  without it the hooks fail open; with it they run;
* user files keep the absolute paths;
* clients that start MCP servers in ``/`` or their install directory (Cline, Kiro) get
  ``sqz-mcp --project DIR``, and the server then reads that project's tree;
* the advisory text recommends ``sqz run --`` (exit status kept) with a runnable sqz and does
  not claim the MCP tools run commands.
"""

import json
import os
import subprocess
import sys

import pytest

from sqz_agents import setup_cmds
from sqz_agents.testing import SQZ_BIN, SQZ_MCP_BIN, home  # noqa: F401  (``home`` is a fixture)

SCRIPT = "#!{python}\nimport sys\nfrom {module} import main\nsys.exit(main())\n"


def _shims(folder) -> str:
    """``sqz`` and ``sqz-mcp`` console scripts of this interpreter in ``folder`` (what pip installs)."""
    folder.mkdir(parents=True, exist_ok=True)
    for name, module in (("sqz", "sqz_core.__main__"), ("sqz-mcp", "sqz_mcp.__main__")):
        (folder / name).write_text(SCRIPT.format(python=sys.executable, module=module))
        (folder / name).chmod(0o755)
    return str(folder)


def _all_integrations() -> dict:
    found = setup_cmds.discover_integrations()
    assert {"claude-code", "cline", "kiro", "cursor", "zed", "continue"} <= set(found), sorted(found)
    return found


def _files(root) -> dict[str, str]:
    out = {}
    for d, _, names in os.walk(root):
        for n in names:
            p = os.path.join(d, n)
            with open(p, encoding="utf-8", errors="replace") as fh:
                out[os.path.relpath(p, root)] = fh.read()
    return out


def _init(ctx, names=None) -> list[str]:
    lines: list[str] = []
    ctx["force"] = True
    ctx["versions"] = {"claude-code": None}  # no probe of an installed Claude Code
    setup_cmds.run_init(names or _all_integrations(), ctx, echo=lines.append)
    return lines


def _hook_commands(files: dict[str, str]) -> list[str]:
    """Every shell command in the project's JSON files that runs an sqz hook."""
    found = []

    def walk(v):
        if isinstance(v, dict):
            for x in v.values():
                walk(x)
        elif isinstance(v, list):
            for x in v:
                walk(x)
        elif isinstance(v, str) and "sqz hook" in v:
            found.append(v)

    for rel, text in files.items():
        if rel.endswith(".json"):
            walk(json.loads(text))
    return found


def test_project_files_hold_no_machine_sqz_path_and_user_files_do(home, tmp_path, monkeypatch):
    project = tmp_path / "proj"
    project.mkdir()
    ctx = setup_cmds.make_ctx(home=str(home), project=str(project), scope="project")
    _init(ctx)
    files = _files(project)
    assert {".claude/settings.local.json", ".kiro/settings/mcp.json", ".cursor/mcp.json", ".zed/settings.json",
            ".continue/mcpServers/sqz.yaml", ".clinerules/sqz.md"} <= set(files), sorted(files)
    machine = (os.path.dirname(SQZ_BIN), os.path.dirname(sys.executable))
    for rel, text in files.items():
        assert not any(m in text for m in machine), (rel, text[:400])
    assert json.loads(files[".cursor/mcp.json"])["mcpServers"]["sqz"]["command"] == "sqz-mcp"
    assert _hook_commands(files) and all(c.lstrip().startswith(("sqz ", "out=$(sqz ")) or " sqz hook" in c
                                         for c in _hook_commands(files))
    # Cline's settings are per user (never committed): the absolute sqz-mcp, and the project it serves
    from sqz_integration_cline.integration import settings_path

    with open(settings_path(str(home)), encoding="utf-8") as fh:
        cline = json.load(fh)["mcpServers"]["sqz"]
    assert cline["command"] == SQZ_MCP_BIN and cline["args"] == ["--project", os.path.realpath(project)]


def test_user_scope_names_the_absolute_sqz(home, tmp_path):
    ctx = setup_cmds.make_ctx(home=str(home), project=str(tmp_path), scope="global")
    _init(ctx)
    files = _files(home)
    assert json.loads(files[".cursor/mcp.json"])["mcpServers"]["sqz"]["command"] == SQZ_MCP_BIN
    claude = files[".claude/settings.json"]
    assert json.dumps(SQZ_BIN)[1:-1] in claude or SQZ_BIN.replace(" ", "\\\\ ") in claude or "'/opt/sqz tools/sqz'" in claude
    rule = files["Documents/Cline/Rules/sqz.md"]
    assert "'/opt/sqz tools/sqz' run -- " in rule and "'/opt/sqz tools/sqz' expand HASH" in rule


def test_project_hooks_fail_open_off_path_and_run_after_the_path_step(home, tmp_path, monkeypatch):
    project = tmp_path / "proj"
    project.mkdir()
    bindir = _shims(tmp_path / "install" / "bin")
    monkeypatch.delenv("SQZ_BIN")
    monkeypatch.setattr(sys, "argv", [os.path.join(bindir, "sqz"), "init", "--project"])  # init run by path
    monkeypatch.setenv("PATH", "/usr/bin:/bin")
    ctx = setup_cmds.make_ctx(home=str(home), project=str(project), scope="project")
    lines = _init(ctx)
    notes = [x for x in lines if x.startswith("note: ")]
    assert len(notes) == 1 and f"export PATH={bindir}:" in notes[0], lines
    commands = _hook_commands(_files(project))
    assert len(commands) >= 3, commands
    env = {k: v for k, v in os.environ.items() if not k.startswith("SQZ_")}
    env.update(SQZ_DB_PATH=str(tmp_path / "db"), SQZ_DAEMON="0", HOME=str(home))
    for command in commands:
        off = subprocess.run(["sh", "-c", command], input=b"{}", capture_output=True, cwd=project,
                             env=dict(env, PATH="/usr/bin:/bin"), timeout=60)
        assert off.returncode != 2 and off.stdout == b"", (command, off)  # 2 is the agents' "block"
        on = subprocess.run(["sh", "-c", command], input=b"{}", capture_output=True, cwd=project,
                            env=dict(env, PATH=f"{bindir}:/usr/bin:/bin"), timeout=60)
        assert on.returncode == 0, (command, on)
    mcp = subprocess.run(["sh", "-c", "sqz-mcp --version"], capture_output=True, env=dict(env, PATH=f"{bindir}:/usr/bin:/bin"))
    assert mcp.returncode == 0 and b"sqz-mcp" in mcp.stdout
    # with the PATH step done, init has nothing more to say
    monkeypatch.setenv("PATH", f"{bindir}:/usr/bin:/bin")
    assert not [x for x in _init(ctx) if x.startswith("note: ")]


def _mcp_read(argv: list[str], cwd: str, path: str) -> str:
    proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=cwd)
    try:
        def ask(msg):
            proc.stdin.write(json.dumps(msg).encode() + b"\n")
            proc.stdin.flush()
            if "id" in msg:
                return json.loads(proc.stdout.readline())
        ask({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}}})
        ask({"jsonrpc": "2.0", "method": "notifications/initialized"})
        reply = ask({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
                     "params": {"name": "sqz_read_file", "arguments": {"path": path}}})
        return "".join(c.get("text", "") for c in reply["result"]["content"])
    finally:
        proc.stdin.close()
        proc.wait(timeout=15)
        proc.stdout.close()
        proc.stderr.close()


@pytest.mark.parametrize("agent", ["cline", "kiro"])
def test_servers_started_elsewhere_read_the_project(home, tmp_path, agent):
    """Cline starts servers in /, Kiro in its install directory: with init's arguments a relative path
    names the project's file, not one below the server's working directory."""
    project = tmp_path / "proj"
    project.mkdir()
    (project / "NOTES.md").write_text("the project's own notes file\n")
    elsewhere = tmp_path / "kiro-install"
    elsewhere.mkdir()
    (elsewhere / "NOTES.md").write_text("a file of the client's install directory\n")
    ctx = setup_cmds.make_ctx(home=str(home), project=str(project), scope="project")
    mod = _all_integrations()[agent]
    value = next(a for a in mod.actions(ctx) if a["type"] == "json_member")["value"]
    assert value["args"] == ["--project", os.path.realpath(project)]
    server = [sys.executable, "-m", "sqz_mcp", *value["args"]]
    assert "the project's own notes file" in _mcp_read(server, str(elsewhere), "NOTES.md")
    assert "client's install directory" in _mcp_read([sys.executable, "-m", "sqz_mcp"], str(elsewhere), "NOTES.md")
    # a checkout at another path (the committed Kiro file on a teammate's machine): said, then the old behaviour
    r = subprocess.run([sys.executable, "-m", "sqz_mcp", "--project", str(tmp_path / "gone")], input=b"",
                       capture_output=True, cwd=str(elsewhere), timeout=30)
    assert b"--project" in r.stderr and b"not a directory" in r.stderr


def test_guidance_recommends_a_status_keeping_runnable_command():
    text = setup_cmds.guidance("'/home/me/.venv/bin/sqz'")
    assert "| sqz compress" not in text and "sqz compress" not in text
    assert "'/home/me/.venv/bin/sqz' run -- " in text and "'/home/me/.venv/bin/sqz' expand HASH" in text
    assert "exits with the command's own status" in text
    assert "they do not run commands" in text and "run commands and read" not in text
    assert "sqz run -- " in setup_cmds.GUIDANCE


def test_guidance_command_keeps_the_exit_status(tmp_path):
    """What the text tells the agent to type, typed: the command's status and its failure lines come back."""
    bindir = _shims(tmp_path / "bin")
    text = setup_cmds.guidance(os.path.join(bindir, "sqz"))
    assert f"`{os.path.join(bindir, 'sqz')} run -- sh -c '<command line>'`" in text
    env = dict(os.environ, SQZ_DB_PATH=str(tmp_path / "db"), SQZ_DAEMON="0", PATH="/usr/bin:/bin")
    r = subprocess.run([os.path.join(bindir, "sqz"), "run", "--", "sh", "-c", "echo 'error: missing file x.c'; exit 4"],
                       capture_output=True, env=env)
    assert r.returncode == 4 and b"error: missing file x.c" in r.stdout
