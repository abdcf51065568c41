"""cursor: advisory tier and init/uninstall round trip on a seeded home."""

from sqz_agents.testing import assert_advisory_without_hook, assert_mcp_server_added, round_trip
from sqz_agents.testing import home  # noqa: F401  (a pytest fixture)
from sqz_integration_cursor import integration


def test_advisory_tier_has_no_hook():
    assert_advisory_without_hook(integration)


def test_round_trip_keeps_existing_servers(home):
    after = round_trip(integration, home, {".cursor/mcp.json": '{\n  "mcpServers": {\n    "github": {"command": "gh-mcp"}\n  }\n}\n'})
    assert_mcp_server_added(after, ".cursor/mcp.json")
