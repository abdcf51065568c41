"""Test isolation for the whole workspace: every test gets its own database, cache and session."""

import os
import sys

import pytest

try:  # property tests: the same examples on every run (a CI run must not fail on a case no earlier run drew);
    # SQZ_HYPOTHESIS_EXPLORE=1 draws new ones, as a developer hunting edge cases does (a find becomes a test)
    from hypothesis import settings as _hypothesis_settings

    _hypothesis_settings.register_profile("sqz-fixed", derandomize=True)
    _hypothesis_settings.register_profile("sqz-explore", derandomize=False)
    _hypothesis_settings.load_profile("sqz-explore" if os.environ.get("SQZ_HYPOTHESIS_EXPLORE") == "1" else "sqz-fixed")
except ImportError:  # pragma: no cover - hypothesis is a dev requirement
    pass


@pytest.fixture(autouse=True)
def _isolated_sqz_home(tmp_path, monkeypatch):
    monkeypatch.setenv("SQZ_DB_PATH", str(tmp_path / "sqz-home" / "sqz.db"))
    monkeypatch.setenv("SQZ_CACHE_DIR", str(tmp_path / "sqz-home" / "cache"))
    # no user config file of the developer's (~/.config/sqz/config.yaml) reaches a test (SQZ_CONFIG, not
    # XDG_CONFIG_HOME: the agents' CLIs that e2e tests run read that one)
    monkeypatch.setenv("SQZ_CONFIG", str(tmp_path / "sqz-home" / "config.yaml"))
    # the README's PATH step (the venv's bin first): hints then say a bare `sqz`, as for a user;
    # sqz_core/tests/test_runnable.py covers sqz off PATH
    bindir = os.path.dirname(sys.executable)
    if bindir not in os.environ.get("PATH", "").split(os.pathsep):
        monkeypatch.setenv("PATH", bindir + os.pathsep + os.environ.get("PATH", ""))
    # no wall-clock time budget: what a test asserts must not depend on how loaded the box is (a call past
    # the 2 s default sends the original, rightly, and a load of 10 makes that likely); the budget's own
    # tests (test_budget_cap, test_hard_cap, test_adversarial) set the value they test
    monkeypatch.setenv("SQZ_TIME_BUDGET_MS", "0")
    for var in ("SQZ_SESSION", "SQZ_LOAD_PLUGINS", "SQZ_DISABLE_PLUGINS", "SQZ_NO_DEDUP",
                "SQZ_REF_TTL_SECS", "SQZ_QUIET", "SQZ_MAX_BYTES"):
        monkeypatch.delenv(var, raising=False)
