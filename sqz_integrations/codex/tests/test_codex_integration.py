"""codex: init/uninstall round trip on a seeded home (config.toml, AGENTS.md); invalid TOML left alone."""

from sqz_core import setup_cmds
from sqz_core.testing_integrations import round_trip
from sqz_core.testing_integrations import home  # noqa: F401  (a pytest fixture)
from sqz_integration_codex import integration


def test_round_trip_toml_and_agents_md(home):
    seed = {".codex/config.toml": '# my codex config\nmodel = "o3"\n\n[mcp_servers.docs]\ncommand = "docs"  # keep\n',
            ".codex/AGENTS.md": "# Global rules\n\nBe terse.\n"}
    after = round_trip(integration, home, seed)
    toml = after[".codex/config.toml"].decode()
    assert toml.startswith(seed[".codex/config.toml"]) and '[mcp_servers.sqz]\ncommand = "/opt/sqz tools/sqz-mcp"' in toml
    assert "sqz' run -- " in after[".codex/AGENTS.md"].decode() and "SQZ_NO_DEDUP=1" in after[".codex/AGENTS.md"].decode()


def test_invalid_toml_left_alone(home):
    (home / ".codex").mkdir()
    (home / ".codex" / "config.toml").write_text("model = = 1\n")
    ctx = setup_cmds.make_ctx(home=str(home))
    lines = []
    assert setup_cmds.run_init({"codex": integration}, dict(ctx, force=True), echo=lines.append) == 1
    assert (home / ".codex" / "config.toml").read_text() == "model = = 1\n" and "invalid TOML" in " ".join(lines)
