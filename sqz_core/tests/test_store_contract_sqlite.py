"""The built-in SQLite store held to the store contract (``store_contract.py``) every backend shares."""

import pytest

from sqz_core.store import Store
from store_contract import *  # noqa: F401,F403


@pytest.fixture
def store_factory(tmp_path):
    path = str(tmp_path / "contract.sqlite")
    return lambda: Store.open(path)
