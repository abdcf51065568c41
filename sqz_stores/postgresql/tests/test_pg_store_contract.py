"""The PostgreSQL store held to the same contract as SQLite (``sqz_core/tests/store_contract.py``),
connected directly and through the local pooling process."""

from __future__ import annotations

import threading

import pytest

from store_contract import *  # noqa: F401,F403
from sqz_store_postgresql import client, pool
from sqz_store_postgresql.pgstore import open_direct
from sqz_store_postgresql.store import Config


@pytest.fixture(params=["direct", "pooled"])
def store_factory(request, schema_url):
    cfg = Config(schema_url)
    if request.param == "direct":
        yield lambda: open_direct(cfg)
        return
    stop = threading.Event()
    server = threading.Thread(target=pool.serve, args=(schema_url,), kwargs={"stop": stop}, daemon=True)
    server.start()
    assert pool.wait_listening(cfg, 10)

    def opened():
        store = client.connect(cfg)
        assert isinstance(store, client.PooledStore)
        return store

    yield opened
    stop.set()
    server.join(10)
