"""continue_dev: advisory tier and init/uninstall round trip on a seeded home."""

from sqz_agents.testing import assert_advisory_without_hook, round_trip
from sqz_agents.testing import home  # noqa: F401  (a pytest fixture)
from sqz_integration_continue_dev import integration


def test_advisory_tier_has_no_hook():
    assert_advisory_without_hook(integration)


def test_round_trip_keeps_existing_servers(home):
    after = round_trip(integration, home, {".continue/config.yaml": "name: my\nversion: 1.0.0\nschema: v1\nmodels: []\n"})

    assert b'command: "/opt/sqz tools/sqz-mcp"' in after[".continue/mcpServers/sqz.yaml"]
    assert after[".continue/config.yaml"] == b"name: my\nversion: 1.0.0\nschema: v1\nmodels: []\n"
