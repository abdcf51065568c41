"""Shared set-up of the declarative pack's tests: an isolated config folder (trust store, user specs)
and a project folder to put ``.sqz/formatters`` in."""

from __future__ import annotations

import pytest



@pytest.fixture
def config_home(tmp_path, monkeypatch):
    """``$XDG_CONFIG_HOME`` in tmp_path (the user's formatters and trust store live under ``sqz/``): the
    folder the workspace's own isolation (the root conftest) names, whichever fixture runs first."""
    home = tmp_path / "sqz-home" / "xdg-config"
    home.mkdir(parents=True, exist_ok=True)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home))
    monkeypatch.delenv("SQZ_CONFIG", raising=False)  # the root conftest's: here the user file is found by XDG
    monkeypatch.setenv("SQZ_CACHE_DIR", str(tmp_path / "sqz-home" / "cache"))
    return home


@pytest.fixture
def project(tmp_path, monkeypatch, config_home):
    """A project folder (the working directory) with an empty ``.sqz/formatters``."""
    root = tmp_path / "project"
    (root / ".sqz" / "formatters").mkdir(parents=True)
    monkeypatch.chdir(root)
    return root


@pytest.fixture(autouse=True)
def _a_new_call():
    """Each test starts as a new sqz call: the core's config looked at again, no compiled state kept."""
    from sqz_core.config import forget

    from sqz_formatters_declarative import sources

    forget()
    sources._memo.clear()
    yield
    forget()
