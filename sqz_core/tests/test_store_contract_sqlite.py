"""The built-in SQLite store held to the store contract (``store_contract.py``) every backend shares:
a plain handle, and the write-behind handle hook calls use (writes sent at the next read or close)."""

import pytest

from sqz_core.store import Store
from store_contract import *  # noqa: F401,F403


@pytest.fixture(params=["plain", "write-behind"])
def store_factory(request, tmp_path):
    path = str(tmp_path / "contract.sqlite")
    if request.param == "plain":
        return lambda: Store.open(path)
    return lambda: Store.open(path, hot=True, write_behind=True)
