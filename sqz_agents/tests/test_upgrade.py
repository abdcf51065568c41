"""``sqz init`` over what the previous sqz (2f2c607) wrote: upgraded in place, never duplicated.

The fixtures (``fixtures/upgrade/<agent>-<scope>.json``, captured by ``fixtures/upgrade/capture.py``
running the old ``run_init``) hold the user's own files, every file after the old init and the
old install manifest. For every integration and scope:

* ``sqz doctor`` calls the installation stale and names ``sqz init`` as the fix;
* ``sqz init`` then leaves exactly what a fresh install makes of the user's own files (one entry
  per hook, the current shape and path, nothing of the old sqz left), and a second init changes nothing;
* ``sqz uninstall`` gives back the user's files byte for byte.
"""

import json
import os

import pytest

from sqz_agents import setup_cmds
from sqz_agents.testing import SQZ_BIN, SQZ_MCP_BIN

FIXTURES = os.path.join(os.path.dirname(__file__), "fixtures", "upgrade")
CASES = sorted(f[:-5] for f in os.listdir(FIXTURES) if f.endswith(".json"))
OLD_SQZ = "/opt/old sqz/bin/sqz"


@pytest.fixture(scope="module")
def integrations():
    return setup_cmds.discover_integrations()


class Site:
    """A HOME, a project and sqz's data folder below ``root``."""

    def __init__(self, root, monkeypatch) -> None:
        self.home, self.project, self.data = (str(root / n) for n in ("home", "project", "data"))
        for d in (self.home, self.project, self.data):
            os.makedirs(d)
        self.mp = monkeypatch

    def use(self) -> None:
        self.mp.setenv("HOME", self.home)
        self.mp.setenv("SQZ_DB_PATH", os.path.join(self.data, "sqz.db"))

    def local(self, text: str) -> str:
        return text.replace("@HOME@", self.home).replace("@PROJECT@", self.project)

    def generic(self, text: str) -> str:
        return text.replace(os.path.realpath(self.project), "@PROJECT@").replace(self.home, "@HOME@").replace(
            self.project, "@PROJECT@")

    def write(self, files: dict[str, str]) -> None:
        for key, text in files.items():
            where, rel = key.split(":", 1)
            p = os.path.join(self.home if where == "H" else self.project, rel)
            os.makedirs(os.path.dirname(p), exist_ok=True)
            with open(p, "w", encoding="utf-8", newline="") as fh:
                fh.write(self.local(text))

    def tree(self) -> dict[str, str]:
        out = {}
        for tag, root in (("H", self.home), ("P", self.project)):
            for d, _, names in os.walk(root):
                for n in names:
                    with open(os.path.join(d, n), encoding="utf-8", newline="") as fh:
                        out[f"{tag}:{os.path.relpath(os.path.join(d, n), root)}"] = self.generic(fh.read())
        return out

    def ctx(self, scope: str) -> dict:
        self.use()
        ctx = setup_cmds.make_ctx(home=self.home, project=self.project, scope=scope)
        ctx.update(force=True, versions={"claude-code": None})
        return ctx


def _run(fn, names, ctx) -> tuple[int, list[str]]:
    lines: list[str] = []
    return fn(names, ctx, echo=lines.append), lines


@pytest.fixture(autouse=True)
def _sqz_paths(monkeypatch):
    monkeypatch.setenv("SQZ_BIN", SQZ_BIN)
    monkeypatch.setenv("SQZ_MCP_BIN", SQZ_MCP_BIN)
    for var in ("XDG_DATA_HOME", "XDG_CACHE_HOME", "SQZ_CACHE_DIR", "CODEX_HOME"):
        monkeypatch.delenv(var, raising=False)


@pytest.mark.parametrize("case", CASES)
def test_init_upgrades_what_the_previous_sqz_wrote(case, integrations, tmp_path, monkeypatch):
    _upgrade(case, integrations, tmp_path, monkeypatch)


# the transparent integrations changed shape, not only paths: with sqz at the same path as before
# (the old hook commands contain the current ones), the old entries are still replaced
SAME_PATH = [c for c in CASES if c.endswith("-global") and c.split("-global")[0] in (
    "claude-code", "claude-code-empty", "gemini-cli", "copilot-cli", "opencode", "codex", "codex-empty")]


@pytest.mark.parametrize("case", SAME_PATH)
def test_init_upgrades_older_shapes_at_the_same_sqz_path(case, integrations, tmp_path, monkeypatch):
    monkeypatch.setenv("SQZ_BIN", OLD_SQZ)
    monkeypatch.setenv("SQZ_MCP_BIN", "/opt/old sqz/bin/sqz-mcp")
    _upgrade(case, integrations, tmp_path, monkeypatch, same_path=True)


def _upgrade(case, integrations, tmp_path, monkeypatch, same_path=False):
    with open(os.path.join(FIXTURES, case + ".json"), encoding="utf-8") as fh:
        rec = json.load(fh)
    names = {rec["agent"]: integrations[rec["agent"]]}

    fresh = Site(tmp_path / "fresh", monkeypatch)
    fresh.write(rec["user"])
    assert _run(setup_cmds.run_init, names, fresh.ctx(rec["scope"]))[0] == 0
    expected = fresh.tree()

    site = Site(tmp_path / "upgraded", monkeypatch)
    site.write(rec["old"])
    with open(os.path.join(site.data, "integrations-manifest.json"), "w", encoding="utf-8") as fh:
        fh.write(site.local(json.dumps(rec["manifest"])))
    assert site.tree() == {k: site.generic(site.local(v)) for k, v in rec["old"].items()}
    ctx = site.ctx(rec["scope"])

    status = setup_cmds.agent_status(rec["agent"], names[rec["agent"]], ctx)
    assert status["configured"] == "stale", status
    assert all(f"sqz init --only {rec['agent']}` upgrades it" in p for p in status["problems"]), status

    code, lines = _run(setup_cmds.run_init, names, ctx)
    assert code == 0, lines
    assert any("upgraded" in line for line in lines), lines
    assert site.tree() == expected
    assert same_path or not any(OLD_SQZ in text for text in site.tree().values())
    assert setup_cmds.agent_status(rec["agent"], names[rec["agent"]], ctx)["configured"] == "yes"
    assert _run(setup_cmds.run_init, names, ctx) == (0, [f"{rec['agent']}: already configured"])

    code, lines = _run(setup_cmds.run_uninstall, names, ctx)
    assert code == 0, lines
    assert site.tree() == {k: site.generic(v) for k, v in rec["user"].items()}


def _value(key: str, text: str, emptied: bool = False):
    """A JSON file's value (layout aside); other files as they stand. ``emptied``: without the manifest
    an array left empty by removing sqz's only element stays (it might be the user's): drop empty hook lists."""
    from sqz_agents.configfiles import parse_jsonc, to_python

    if not key.endswith(".json"):
        return text
    value = to_python(parse_jsonc(text))
    if emptied and isinstance(value.get("hooks"), dict):
        value["hooks"] = {k: v for k, v in value["hooks"].items() if v != []}
    return value


@pytest.mark.parametrize("case", CASES)
def test_upgrade_without_the_old_manifest(case, integrations, tmp_path, monkeypatch):
    """The manifest lost (another data folder): sqz's old entries are still found and replaced, once;
    the result holds what a fresh install holds (JSON layout aside), the user's entries included."""
    with open(os.path.join(FIXTURES, case + ".json"), encoding="utf-8") as fh:
        rec = json.load(fh)
    names = {rec["agent"]: integrations[rec["agent"]]}
    fresh = Site(tmp_path / "fresh", monkeypatch)
    fresh.write(rec["user"])
    assert _run(setup_cmds.run_init, names, fresh.ctx(rec["scope"]))[0] == 0
    expected = {k: _value(k, v) for k, v in fresh.tree().items()}

    site = Site(tmp_path / "upgraded", monkeypatch)
    site.write(rec["old"])
    ctx = site.ctx(rec["scope"])
    code, lines = _run(setup_cmds.run_init, names, ctx)
    assert code == 0, lines
    # a file the old sqz created for its block alone stays, empty: without the manifest it might be the user's
    left = {k: v for k, v in site.tree().items() if v or k in expected}
    assert {k: _value(k, v, emptied=True) for k, v in left.items()} == expected
    assert _run(setup_cmds.run_init, names, ctx) == (0, [f"{rec['agent']}: already configured"])


def test_entries_that_are_not_sqzs_are_left_alone(integrations, tmp_path, monkeypatch):
    """Look-alikes (another program's ``hook precompact``, a user's own ``sqz`` server, a user's file
    where sqz would put its own) are never taken for an older sqz's."""
    site = Site(tmp_path, monkeypatch)
    user = {
        "H:.claude/settings.json": json.dumps({"hooks": {
            "PreCompact": [{"hooks": [{"type": "command", "command": "/usr/local/bin/notsqz hook precompact"}]},
                           {"hooks": [{"type": "command", "command": "sqz-helper hook precompact"}]}],
            "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "mysqz hook claude-code"}]}]}},
            indent=2) + "\n",
        "H:.cursor/mcp.json": '{"mcpServers": {"sqz": {"command": "docker", "args": ["run", "sqz-image"]}}}\n',
        "H:.copilot/hooks/sqz.json": '{"version": 1, "hooks": {"preToolUse": []}}\n',
    }
    site.write(user)
    ctx = site.ctx("global")
    names = {n: integrations[n] for n in ("claude-code", "cursor", "copilot-cli")}
    for agent, mod in names.items():
        assert setup_cmds.agent_status(agent, mod, ctx)["configured"] != "stale"
    code, lines = _run(setup_cmds.run_init, names, ctx)
    assert code == 1 and any("sqz.json: left alone: a file with other content" in line for line in lines), lines
    after = site.tree()
    assert after["H:.cursor/mcp.json"] == user["H:.cursor/mcp.json"]
    assert after["H:.copilot/hooks/sqz.json"] == user["H:.copilot/hooks/sqz.json"]
    hooks = json.loads(after["H:.claude/settings.json"])["hooks"]
    assert hooks["PreCompact"][:2] == json.loads(user["H:.claude/settings.json"])["hooks"]["PreCompact"]
    assert len(hooks["PreCompact"]) == 3 and hooks["PreToolUse"][0]["hooks"][0]["command"] == "mysqz hook claude-code"
    assert _run(setup_cmds.run_uninstall, names, ctx)[0] == 0
    assert site.tree() == user


def test_a_moved_sqz_is_upgraded_in_place(integrations, tmp_path, monkeypatch):
    """sqz installed elsewhere (a new venv): init replaces the hook naming the old path, once, and the
    user's entries around it stay; uninstall gives back the user's file."""
    site = Site(tmp_path, monkeypatch)
    user = {"H:.gemini/settings.json": '{\n  "hooks": {\n    "BeforeTool": [\n      {"matcher": "write_file", '
                                       '"hooks": [{"type": "command", "command": "lint.sh"}]}\n    ]\n  }\n}\n'}
    site.write(user)
    names = {"gemini-cli": integrations["gemini-cli"]}
    monkeypatch.setenv("SQZ_BIN", "/old/venv/bin/sqz")
    assert _run(setup_cmds.run_init, names, site.ctx("global"))[0] == 0
    monkeypatch.setenv("SQZ_BIN", SQZ_BIN)
    ctx = site.ctx("global")
    assert setup_cmds.agent_status("gemini-cli", names["gemini-cli"], ctx)["configured"] == "stale"
    assert _run(setup_cmds.run_init, names, ctx)[0] == 0
    after = site.tree()
    before_tool = json.loads(after["H:.gemini/settings.json"])["hooks"]["BeforeTool"]
    assert [e["hooks"][0]["name"] if "name" in e["hooks"][0] else e["hooks"][0]["command"] for e in before_tool] == [
        "lint.sh", "sqz-rewrite"]
    assert "/old/venv" not in "".join(after.values()) and SQZ_BIN in after["H:.gemini/settings.json"]
    assert _run(setup_cmds.run_uninstall, names, ctx)[0] == 0
    assert site.tree() == user


@pytest.mark.parametrize("command, ours", [
    ("'/opt/sqz tools/sqz' hook precompact", True),
    ("/home/u/.venv/bin/sqz hook precompact", True),
    ("sqz hook precompact", True),
    ("'/usr/bin/python3' -m sqz_core hook precompact", True),
    ("out=$(\"/x/sqz\" hook precompact 2>/dev/null) && printf '%s' \"$out\"; exit 0", True),
    ("/usr/local/bin/notsqz hook precompact", False),
    ("sqz-helper hook precompact", False),
    ("/opt/sqz/bin/sqz hook precompactor", False),
    ("C:\\Tools\\sqz.exe hook precompact", True),
    ("/opt/sqz/bin/sqz hook claude-code", False),
])
def test_an_sqz_hook_command_is_recognised_whatever_its_path(command, ours):
    ctx = {"sqz": SQZ_BIN, "sqz_abs": SQZ_BIN}
    action = setup_cmds.with_recognisers([{"type": "json_array_item", "file": "x", "path": ["hooks", "PreCompact"],
                                           "item": {}, "marker": f"{SQZ_BIN} hook precompact"}], ctx)[0]
    assert setup_cmds._ours(action)({"hooks": [{"command": command}]}) is ours
