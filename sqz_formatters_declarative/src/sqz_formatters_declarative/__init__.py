"""sqz-formatters-declarative: line filters for sqz written in YAML, no Python needed.

A spec names the program it is for and what to keep, drop and fold; ``sqz trust`` decides which
project-local specs may run; ``sqz formatters test`` shows what a spec does to a real output.
See docs/declarative-formatters.md.

The package is the plugin (entry point ``sqz.formatters``: ``declarative``), a catch-all
(``commands = ("*",)``): a Python formatter that claims the program answers first, so a spec serves
programs no installed pack handles (or whose pack declined the output). Its answer is an ordinary
``sqz_format`` result: the core's safety routing, net-win gate and recovery (``sqz expand``) apply
to it as to any Python formatter's. Every call no other formatter answered reaches it, so it holds
only the hook and a quick look for spec folders: a call with no spec anywhere imports nothing more.
"""

from __future__ import annotations

import os

from sqz_core.api import hookimpl

__all__ = ["__version__", "commands", "sqz_format"]

commands = ("*",)


@hookimpl
def sqz_format(request):
    """The first trusted spec matching the command renders the output; None when none matches."""
    if request.program is None or request.tool is not None or not _any_source():
        return None
    from .sources import active, notes_for

    state = active()
    if state.get("untrusted") or state.get("problems"):
        import sys

        for note in notes_for(state, request.program):
            sys.stderr.write(f"sqz: {note}\n")
    specs = state.get("specs", ())
    if not any(request.program in spec["programs"] for spec in specs):
        return None
    from .engine import apply, matches

    for spec in specs:
        if matches(spec, request):
            return apply(spec, request.text, request.exit_code)
    return None


def _any_source() -> bool:
    """Whether any spec could exist here: a user or project formatters folder (the walk of
    ``sources.project_dir``, without importing it), or a config's ``formatters`` list."""
    from sqz_core.api import load_config

    root = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    if os.path.isdir(os.path.join(root, "sqz", "formatters")):
        return True
    try:
        here = os.getcwd()
    except OSError:
        return False
    while True:
        if os.path.isdir(os.path.join(here, ".sqz", "formatters")):
            return True
        parent = os.path.dirname(here)
        if parent == here:
            break
        here = parent
    return bool(load_config(quiet=True).formatters)


def __getattr__(name: str):
    if name == "__version__":  # loaded on first use: the hot path never needs it
        from ._version import VERSION

        return VERSION
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
