"""The plugin module (entry point ``sqz.formatters``: ``declarative``): the user's YAML formatters.

A catch-all (``commands = ("*",)``): a Python formatter that claims the program answers first, so
a declarative spec serves programs no installed pack handles (or whose pack declined the output).
The answer is an ordinary ``sqz_format`` result: the core's safety routing, net-win gate and
recovery (``sqz expand``) apply to it exactly as to any Python formatter's.
"""

from __future__ import annotations

import os

from sqz_core.api import hookimpl

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
    """Whether any spec could exist here (a project or user formatters folder):
    the common call, with none, imports nothing more."""
    from . import project_dir, user_dir

    return os.path.isdir(user_dir()) or project_dir() is not None
