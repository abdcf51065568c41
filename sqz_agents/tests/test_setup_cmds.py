"""sqz_agents.setup_cmds: init is idempotent and backed up, uninstall restores the bytes, doctor's exit codes."""

import os
import types

import pytest

from sqz_agents import setup_cmds

SEED = """{
  // keep me
  "editor": "vim",
  "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "notify.sh"}]}]}
}
"""


def fake(tmp_home, tier="transparent"):
    def actions(ctx):
        f = os.path.join(ctx["home"], "agent dir ü", "settings.json")
        return [
            {"type": "json_array_item", "file": f, "path": ["hooks", "PreToolUse"], "marker": f"{ctx['sqz']} hook fake",
             "item": {"matcher": "Bash", "hooks": [{"type": "command", "command": f"{ctx['sqz']} hook fake"}]}},
            {"type": "json_member", "file": f, "path": ["mcpServers"], "key": "sqz", "value": {"command": "sqz-mcp"}},
            {"type": "md_block", "file": os.path.join(ctx["home"], "AGENTS.md"), "body": ctx["guidance"]},
            {"type": "owned_file", "file": os.path.join(ctx["home"], ".fake", "rules", "sqz.md"), "content": "hi\n"},
        ]
    return types.SimpleNamespace(name="fake", tier=tier, actions=actions,
                                 detect=lambda home: {"detected": os.path.isdir(os.path.join(home, "agent dir ü"))})


@pytest.fixture()
def home(tmp_path, monkeypatch):
    h = tmp_path / "home with space"
    h.mkdir()
    monkeypatch.setenv("HOME", str(h))
    for var in ("SQZ_DB_PATH", "SQZ_CACHE_DIR", "XDG_DATA_HOME", "XDG_CACHE_HOME"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("SQZ_BIN", "/opt/sqz tools/sqz")
    return h


def snapshot(root):
    out = {}
    for dirpath, _, files in os.walk(root):
        if ".local" in dirpath or ".cache" in dirpath:
            continue
        for f in files:
            p = os.path.join(dirpath, f)
            with open(p, "rb") as fh:
                out[os.path.relpath(p, root)] = fh.read()
    return out


def test_round_trip_is_byte_exact_and_idempotent(home):
    (home / "agent dir ü").mkdir()
    (home / "agent dir ü" / "settings.json").write_text(SEED)
    (home / "AGENTS.md").write_text("# Rules\n\nBe brief.\n")
    before = snapshot(home)
    ctx = setup_cmds.make_ctx(home=str(home))
    lines = []
    assert setup_cmds.run_init({"fake": fake(home)}, ctx, echo=lines.append) == 0
    text = (home / "agent dir ü" / "settings.json").read_text()
    assert "// keep me" in text and "'/opt/sqz tools/sqz' hook fake" in text and "notify.sh" in text
    assert (home / ".fake" / "rules" / "sqz.md").read_text() == "hi\n"
    backups = list((home / ".local" / "share" / "sqz" / "backups").rglob("settings.json"))
    assert len(backups) == 1 and backups[0].read_text() == SEED
    after_first = snapshot(home)
    lines.clear()
    assert setup_cmds.run_init({"fake": fake(home)}, ctx, echo=lines.append) == 0
    assert snapshot(home) == after_first and lines == ["fake: already configured"]
    assert setup_cmds.run_uninstall({"fake": fake(home)}, ctx, echo=lines.append) == 0
    assert snapshot(home) == before
    assert not (home / ".fake").exists()


def test_dry_run_writes_nothing(home):
    (home / "agent dir ü").mkdir()
    before = snapshot(home)
    lines = []
    setup_cmds.run_init({"fake": fake(home)}, setup_cmds.make_ctx(home=str(home)), dry_run=True, echo=lines.append)
    assert snapshot(home) == before and any(line.startswith("+") for line in lines)


def test_invalid_config_is_left_alone(home):
    (home / "agent dir ü").mkdir()
    broken = '{"hooks": {"PreToolUse": [}\n'
    (home / "agent dir ü" / "settings.json").write_text(broken)
    lines = []
    status = setup_cmds.run_init({"fake": fake(home)}, setup_cmds.make_ctx(home=str(home)), echo=lines.append)
    assert status == 1 and (home / "agent dir ü" / "settings.json").read_text() == broken
    assert any("left alone" in line and "line 1" in line for line in lines)


def test_undetected_agent_is_skipped_unless_forced(home):
    ctx = setup_cmds.make_ctx(home=str(home))
    lines = []
    setup_cmds.run_init({"fake": fake(home)}, ctx, echo=lines.append)
    assert "not detected" in lines[0] and not (home / "AGENTS.md").exists()
    ctx["force"] = True
    setup_cmds.run_init({"fake": fake(home)}, ctx, echo=lines.append)
    assert (home / "agent dir ü" / "settings.json").exists()
    setup_cmds.run_uninstall({"fake": fake(home)}, ctx, echo=lines.append)
    assert not (home / "agent dir ü").exists() and not (home / "AGENTS.md").exists()


def test_uninstall_after_user_edits_removes_only_ours(home):
    (home / "agent dir ü").mkdir()
    ctx = setup_cmds.make_ctx(home=str(home))
    setup_cmds.run_init({"fake": fake(home)}, ctx, echo=lambda s: None)
    p = home / "agent dir ü" / "settings.json"
    edited = p.read_text().replace('"matcher": "Bash"', '"matcher": "Bash",\n        "x": 1')
    p.write_text(edited)
    setup_cmds.run_uninstall({"fake": fake(home)}, ctx, echo=lambda s: None)
    from sqz_agents.configfiles import parse_jsonc, to_python

    # the recorded insertion no longer matches: only our element goes (an empty list may stay)
    assert to_python(parse_jsonc(p.read_text())) == {"hooks": {"PreToolUse": []}}


def test_doctor_exit_codes(home):
    (home / "agent dir ü").mkdir()
    ctx = setup_cmds.make_ctx(home=str(home))
    lines = []
    assert setup_cmds.run_doctor({"fake": fake(home)}, ctx, echo=lines.append) == 1
    assert any("sqz init --only fake" in line for line in lines)
    setup_cmds.run_init({"fake": fake(home)}, ctx, echo=lambda s: None)
    lines.clear()
    assert setup_cmds.run_doctor({"fake": fake(home)}, ctx, echo=lines.append) == 0, lines
    assert "configured: yes" in lines[0] and "last hook: never" in lines[0]
    db = home / ".local" / "share" / "sqz" / "sqz.db"
    db.write_bytes(b"this is not a database" * 100)
    assert setup_cmds.run_doctor({"fake": fake(home)}, ctx, echo=lines.append) == 2


def test_uninstall_scope_project_then_global(home, tmp_path):
    """init in a project and for the user; `uninstall --project` removes only the project's part."""
    project = tmp_path / "proj"
    project.mkdir()
    (home / "agent dir ü").mkdir()
    (home / "agent dir ü" / "settings.json").write_text(SEED)
    before_home = snapshot(home)
    agent = fake(home)

    def project_actions(ctx):
        return [{"type": "md_block", "file": os.path.join(ctx["project"], "AGENTS.md"), "body": ctx["guidance"]}]

    proj_agent = types.SimpleNamespace(name="fake", tier="transparent", actions=project_actions,
                                       detect=agent.detect)
    glob_ctx = setup_cmds.make_ctx(home=str(home), project=str(project))
    assert setup_cmds.run_init({"fake": agent}, glob_ctx, echo=lambda s: None) == 0
    proj_ctx = setup_cmds.make_ctx(home=str(home), project=str(project), scope="project")
    assert setup_cmds.run_init({"fake": proj_agent}, proj_ctx, echo=lambda s: None) == 0
    assert (project / "AGENTS.md").exists()
    global_state = snapshot(home)

    assert setup_cmds.run_uninstall({"fake": agent}, glob_ctx, echo=lambda s: None, scope="project") == 0
    assert not (project / "AGENTS.md").exists()  # init created it: removed
    assert snapshot(home) == global_state  # the user-wide part is still there
    assert setup_cmds.run_uninstall({"fake": agent}, glob_ctx, echo=lambda s: None, scope="global") == 0
    assert snapshot(home) == before_home


def test_init_links_sqz_on_path_so_hints_are_bare_and_uninstall_removes_it(home, tmp_path, monkeypatch):
    """Issue 25.5: ~/.local/bin on PATH, no sqz on PATH: init links this sqz there (hints then say a bare
    ``sqz expand ID``); a second run changes nothing; uninstall removes the link with the last file."""
    import sys

    from sqz_core import runnable

    script = tmp_path / "venv" / "bin" / "sqz"
    script.parent.mkdir(parents=True)
    script.write_text(f"#!{sys.executable}\nimport sys\nfrom sqz_core.__main__ import main\nsys.exit(main())\n")
    script.chmod(0o755)
    monkeypatch.setattr(sys, "argv", [str(script), "init"])
    monkeypatch.delenv("SQZ_BIN")
    (home / ".local" / "bin").mkdir(parents=True)
    monkeypatch.setenv("PATH", f"{home / '.local' / 'bin'}:/usr/bin:/bin")
    runnable._cache.clear()
    (home / "agent dir ü").mkdir()
    ctx = setup_cmds.make_ctx(home=str(home))
    lines = []
    assert setup_cmds.run_init({"fake": fake(home)}, ctx, echo=lines.append) == 0
    link = home / ".local" / "bin" / "sqz"
    assert os.readlink(link) == str(script)
    assert [x for x in lines if x.startswith("linked ")] == [
        f"linked {link} -> {script} (hints now say a bare `sqz expand ID`; sqz uninstall removes it)"]
    assert runnable.sqz_command() == "sqz"
    lines.clear()
    assert setup_cmds.run_init({"fake": fake(home)}, ctx, echo=lines.append) == 0
    assert lines == ["fake: already configured"]
    assert setup_cmds.run_uninstall({"fake": fake(home)}, ctx, echo=lines.append) == 0
    assert not os.path.lexists(link) and f"removed {link} (sqz init's link)" in lines
    runnable._cache.clear()


def test_init_without_a_user_bin_on_path_says_so_and_links_nothing(home, monkeypatch):
    monkeypatch.delenv("SQZ_BIN")
    monkeypatch.setenv("PATH", "/usr/bin:/bin")
    (home / "agent dir ü").mkdir()
    lines = []
    assert setup_cmds.run_init({"fake": fake(home)}, setup_cmds.make_ctx(home=str(home)), echo=lines.append) == 0
    notes = [x for x in lines if x.startswith("note: recovery hints name sqz by its absolute path")]
    assert len(notes) == 1 and "~/.local/bin" in notes[0], lines
    assert not (home / ".local" / "bin").exists()
