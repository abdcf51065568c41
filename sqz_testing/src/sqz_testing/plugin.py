"""The pytest plugin of sqz-testing (entry point ``pytest11``, name ``sqz``): fixtures for pack tests.

* ``sqz_home``: an isolated sqz home for the test (``SQZ_DB_PATH``, ``SQZ_CACHE_DIR``, ``XDG_CONFIG_HOME`` in ``tmp_path``,
  no session or plugin filters inherited from the environment); returns its folder.
* ``sqz_store``: an open SQLite store in that home (closed after the test).
* ``sqz_compress``: ``sqz_compress(data, command=…, tool=…)`` runs the whole pipeline (installed plugins
  included) with that store and returns the core's ``Result``.
"""

from __future__ import annotations

import pytest

_ENV = ("SQZ_SESSION", "SQZ_LOAD_PLUGINS", "SQZ_DISABLE_PLUGINS", "SQZ_NO_DEDUP", "SQZ_REF_TTL_SECS", "SQZ_QUIET",
        "SQZ_MAX_BYTES", "SQZ_STORE_URL", "SQZ_DAEMON")


@pytest.fixture
def sqz_home(tmp_path, monkeypatch):
    home = tmp_path / "sqz-home"
    home.mkdir(exist_ok=True)
    monkeypatch.setenv("SQZ_DB_PATH", str(home / "sqz.db"))
    monkeypatch.setenv("SQZ_CACHE_DIR", str(home / "cache"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / "xdg-config"))  # no user config file of yours
    for var in _ENV:
        monkeypatch.delenv(var, raising=False)
    return home


@pytest.fixture
def sqz_store(sqz_home):
    from sqz_core.api import Store

    store = Store.open(str(sqz_home / "sqz.db"))
    yield store
    store.close()


@pytest.fixture
def sqz_compress(sqz_store):
    from sqz_core.api import compress

    def run(data, command: str | None = None, tool: str | None = None, session: str = "sqz-testing", **kwargs):
        raw = data.encode("utf-8") if isinstance(data, str) else data
        return compress(raw, command=command, tool=tool, session=session, store=sqz_store, **kwargs)

    run.store = sqz_store
    return run
