"""sqz-testing as a third party uses it: the assertions fail when they should, the pytest plugin's fixtures work."""

from __future__ import annotations

import pytest

from sqz_testing import assert_facts_kept, assert_passthrough, assert_recoverable, fact_kept, format_with

LOG = "".join(f"2026-12-01 10:{i // 60:02d}:{i % 60:02d} INFO worker heartbeat ok\n" for i in range(300)) + \
      "2026-12-01 10:05:00 ERROR worker lost connection to db-1:5432\n"


def test_assert_facts_kept_passes_and_fails():
    assert_facts_kept("a: 1 failed\nb", ["1 failed", ["a:", "1 failed"]])
    with pytest.raises(AssertionError, match="1 fact"):
        assert_facts_kept("2 passed", ["1 failed"])


def test_plugin_fixtures_compress_with_an_isolated_store(sqz_home, sqz_compress):
    import os

    assert os.environ["SQZ_DB_PATH"].startswith(str(sqz_home))
    result = sqz_compress(LOG, command="journalctl -u worker")
    assert len(result.output) < len(LOG.encode()) / 4
    assert fact_kept(result.output.decode(), "ERROR worker lost connection to db-1:5432")
    assert_recoverable(LOG.encode(), result, sqz_compress.store)


def test_assert_recoverable_fails_when_nothing_was_stored(sqz_store):
    class Lossy:
        output = b"shorter"

    with pytest.raises(Exception):
        assert_recoverable(b"the original that was never stored\n" * 10, Lossy(), sqz_store)


def test_assert_passthrough_and_format_with_call_the_hook_as_the_core_does():
    import types

    from sqz_core.api import hookimpl

    mod = types.ModuleType("fake_pack")

    @hookimpl
    def sqz_format(request):
        return "mine" if request.text.startswith("FAKE ") else None

    mod.sqz_format = sqz_format
    assert format_with(mod, "FAKE output", "fake") == "mine"
    assert_passthrough(mod, "fake-looking but not FAKE", "fake")
    with pytest.raises(AssertionError, match="not its own"):
        assert_passthrough(mod, "FAKE output", "fake")


def test_the_plugin_is_registered_through_pytest11():
    from importlib.metadata import entry_points

    eps = {ep.name: ep.value for ep in entry_points(group="pytest11")}
    assert eps.get("sqz") == "sqz_testing.plugin"
