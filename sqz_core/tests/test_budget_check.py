"""The budget warning on the hot path (sqz_core.budget.check); `sqz budget` itself is tested in sqz_insights."""

from __future__ import annotations


def test_no_budget_file_means_no_lookup(tmp_path, monkeypatch):
    from sqz_core import budget

    monkeypatch.setenv("SQZ_DB_PATH", str(tmp_path / "sqz.db"))

    class NoQueries:
        def tokens_served(self, *a):
            raise AssertionError("queried the store without a budget")

    assert budget.check(NoQueries(), "s", "claude-code") is None
