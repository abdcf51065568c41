"""`sqz init` / `sqz doctor` as a person and a script use them (issue 28 item 3): `--json` results,
a clear line when nothing is installed or nothing is detected. Real `sqz` processes in a throwaway HOME."""

import json
import os
import subprocess
import sys

import typer
from typer.testing import CliRunner

from sqz_agents import commands, setup_cmds
from sqz_agents.testing import home  # noqa: F401  (``home`` is a fixture)

SQZ = [sys.executable, "-m", "sqz_core"]


def _bare_path() -> str:
    """PATH with this sqz and the system tools only: no agent CLI that detection could find."""
    return os.pathsep.join([os.path.dirname(sys.executable), "/usr/bin", "/bin"])


def sqz(*args: str, env: dict | None = None):
    full = dict(os.environ, PATH=_bare_path())
    full.update(env or {})
    return subprocess.run(SQZ + list(args), capture_output=True, env=full, timeout=180, check=False,
                          stdin=subprocess.DEVNULL)


def _files(root) -> dict:
    return {str(p.relative_to(root)): p.read_bytes() for p in root.rglob("*") if p.is_file()}


def test_doctor_json_reports_agents_database_and_plugins(home):
    r = sqz("doctor", "--json")
    assert r.returncode in (0, 1), r.stderr
    report = json.loads(r.stdout)
    names = {a["agent"] for a in report["agents"]}
    assert {"claude-code", "codex"} <= names, names
    for a in report["agents"]:
        assert set(a) >= {"agent", "detected", "configured", "tier", "problems"}
        assert a["detected"] is False  # an empty HOME, no agent CLI on PATH
        assert a["configured"] == "no" and isinstance(a["problems"], list)
    assert report["database"]["status"] == "ok" and report["database"]["store"]
    assert report["plugins"]["status"] == "ok" and report["plugins"]["integrations"] >= 2
    assert report["status"] == r.returncode


def test_init_dry_run_json_lists_each_change_with_its_diff_and_writes_nothing(home):
    (home / ".claude").mkdir()
    before = _files(home)
    r = sqz("init", "--dry-run", "--json")
    assert r.returncode == 0, r.stderr
    result = json.loads(r.stdout)  # stdout is the JSON alone; the human lines went to stderr
    assert result["dry_run"] is True and "claude-code" in result["installed"]
    by_agent = {a["agent"]: a for a in result["agents"]}
    claude = by_agent["claude-code"]
    assert claude["detected"] is True and claude["outcome"] == "changed" and claude["tier"]
    assert claude["changes"] and all(c["file"] and c["what"] for c in claude["changes"])
    assert any(c["diff"].startswith("---") and "\n+" in c["diff"] for c in claude["changes"])
    assert by_agent["codex"]["detected"] is False and by_agent["codex"]["outcome"] == "skipped"
    assert "would change" in r.stderr.decode()
    assert _files(home) == before


def test_init_json_applies_and_reports_then_already_configured(home):
    (home / ".claude").mkdir()
    first = json.loads(sqz("init", "--yes", "--json", "--only", "claude-code").stdout)
    claude = first["agents"][0]
    assert claude["outcome"] == "changed" and all(os.path.exists(c["file"]) for c in claude["changes"])
    second = json.loads(sqz("init", "--yes", "--json", "--only", "claude-code").stdout)
    assert second["agents"][0]["outcome"] == "already configured" and second["agents"][0]["changes"] == []


def test_init_with_no_agent_detected_says_which_it_looked_for(home):
    r = sqz("init", "--yes")
    out = r.stdout.decode()
    line = [ln for ln in out.splitlines() if ln.startswith("sqz init: no agent detected")]
    assert len(line) == 1, out
    assert "claude-code" in line[0] and "codex" in line[0] and "--only" in line[0]
    assert r.returncode == 0


def test_init_with_no_integration_installed_says_what_to_install(monkeypatch):
    monkeypatch.setattr(setup_cmds, "discover_integrations", lambda: {})
    app = typer.Typer()
    app.command("init")(commands.init)
    app.command("doctor")(commands.doctor)
    r = CliRunner().invoke(app, ["init", "--yes"])
    assert r.exit_code == 1
    assert "no agent integration is installed" in r.output
    assert "pip install sqz-integration-claude-code" in r.output and "pip install sqz-all" in r.output
    r = CliRunner().invoke(app, ["init", "--yes", "--json"])
    assert r.exit_code == 1
    assert json.loads(r.stdout)["problems"] == [setup_cmds.NOTHING_INSTALLED]


def test_run_doctor_with_no_integration_says_what_to_install(home):
    lines = []
    setup_cmds.run_doctor({}, setup_cmds.make_ctx(home=str(home)), echo=lines.append)
    assert setup_cmds.NOTHING_INSTALLED in lines and "pip install sqz-all" in setup_cmds.NOTHING_INSTALLED


def _read_all(fd: int) -> bytes:
    import select

    out = b""
    while select.select([fd], [], [], 0)[0]:
        try:
            piece = os.read(fd, 65536)
        except OSError:
            break
        if not piece:
            break
        out += piece
    return out


def test_progress_draws_on_a_terminal_and_stays_silent_elsewhere(tmp_path):
    import io
    import pty

    master, slave = pty.openpty()
    try:
        with os.fdopen(slave, "w", closefd=False) as term:
            with commands._Progress("replaying transcripts", after=0, stream=term) as progress:
                progress(2, 5)
            term.flush()
        drawn = _read_all(master).decode("utf-8", "replace")
    finally:
        os.close(slave)
        os.close(master)
    assert "replaying transcripts" in drawn and "2/5" in drawn
    plain = io.StringIO()
    with commands._Progress("replaying transcripts", after=0, stream=plain) as progress:
        progress(2, 5)
    assert plain.getvalue() == ""  # not a terminal: no bar, whatever the duration


def test_discover_reports_progress_per_transcript(tmp_path):
    from sqz_agents.discover import discover

    for n, session in enumerate(("3f2a9c1e-5b7d-4e21-9a0b-6c8d2e4f1a37", "9d8c7b6a-0000-4000-8000-000000000001")):
        use = {"type": "assistant", "sessionId": session, "uuid": f"a{n}", "message": {"role": "assistant", "content": [
            {"type": "tool_use", "id": f"toolu_{n}", "name": "Bash", "input": {"command": "ls -la /usr/lib"}}]}}
        listing = subprocess.run(["ls", "-la", "/usr/lib"], capture_output=True, text=True, check=True).stdout
        result = {"type": "user", "sessionId": session, "uuid": f"u{n}", "message": {"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": f"toolu_{n}", "content": listing}]}}
        (tmp_path / f"{session}.jsonl").write_text(json.dumps(use) + "\n" + json.dumps(result) + "\n")
    calls = []
    found = discover(str(tmp_path), progress=lambda done, total: calls.append((done, total)))
    assert found["transcripts"] == 2 and found["total"]["results"] == 2
    assert calls == [(0, 2), (1, 2), (2, 2)]


def test_doctor_names_a_config_file_it_ignores(home, tmp_path):
    xdg = tmp_path / "xdg"
    (xdg / "sqz").mkdir(parents=True)
    cfg = xdg / "sqz" / "config.yaml"
    cfg.write_text("quiet: true\ntime_budget_ms: soon\n")
    r = sqz("doctor", "--json", env={"SQZ_CONFIG": str(cfg)})
    report = json.loads(r.stdout)
    assert report["config"] == {"status": "invalid", "files": [], "problems": [
        f"sqz: config {cfg}:2: time_budget_ms: 'soon' is not of type 'integer'; file ignored"]}
    assert r.returncode >= 1
    human = sqz("doctor", env={"SQZ_CONFIG": str(cfg)})
    assert f"config: {cfg}:2: time_budget_ms: 'soon' is not of type 'integer'; file ignored (fix:" in \
        human.stdout.decode()
    cfg.write_text("quiet: true\n")
    report = json.loads(sqz("doctor", "--json", env={"SQZ_CONFIG": str(cfg)}).stdout)
    assert report["config"] == {"status": "ok", "files": [str(cfg)], "problems": []}
