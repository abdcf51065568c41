"""sqz-formatters-declarative: line filters for sqz written in YAML, no Python needed.

A spec names the program it is for and what to keep, drop and fold; ``sqz trust`` decides which
project-local specs may run; ``sqz formatters test`` shows what a spec does to a real output.
See docs/declarative-formatters.md.

The package itself holds only where specs live (``config_dir``, ``user_dir``, ``project_dir``):
every call of sqz imports it, and a call with no spec anywhere goes no further.
"""

from __future__ import annotations

import os

__all__ = ["__version__", "config_dir", "project_dir", "user_dir"]


def config_dir() -> str:
    """The user's sqz config folder (``$XDG_CONFIG_HOME/sqz``, default ``~/.config/sqz``)."""
    root = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    return os.path.join(root, "sqz")


def user_dir() -> str:
    """The user's own spec folder (trusted: the user wrote it)."""
    return os.path.join(config_dir(), "formatters")


def project_dir(cwd: str | None = None) -> str | None:
    """The nearest ``.sqz/formatters`` folder at or above ``cwd`` (None when there is none)."""
    try:
        here = os.path.realpath(cwd or os.getcwd())
    except OSError:
        return None
    user = None
    while True:
        candidate = os.path.join(here, ".sqz", "formatters")
        if os.path.isdir(candidate):
            user = user if user is not None else os.path.realpath(user_dir())
            if os.path.realpath(candidate) != user:
                return candidate
        parent = os.path.dirname(here)
        if parent == here:
            return None
        here = parent


def __getattr__(name: str):
    if name == "__version__":  # loaded on first use: the hot path never needs it
        from ._version import VERSION

        return VERSION
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
