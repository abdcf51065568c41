"""The budget warning on the hot path (sqz_insights.budget_warning.check, which the core calls through
sqz_insights.api); `sqz budget` itself is tested in test_budget.py."""

from __future__ import annotations


def test_no_budget_file_means_no_lookup(tmp_path, monkeypatch):
    from sqz_insights import budget_warning as budget

    monkeypatch.setenv("SQZ_DB_PATH", str(tmp_path / "sqz.db"))

    class NoQueries:
        def tokens_served(self, *a):
            raise AssertionError("queried the store without a budget")

    assert budget.check(NoQueries(), "s", "claude-code") is None
