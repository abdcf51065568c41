"""Entry point of the ``sqz`` command and of ``python -m sqz_core``.

The hot verbs go through ``sqz_core.hot`` (no typer); everything else, and any
``--help``, goes to the typer application in ``sqz_core.cli``.
"""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    from . import hot

    status = hot.main(args, hard_cap=argv is None)  # the process's own command line: its time budget is a hard cap
    if status is not hot.NOT_MINE:
        code: int = status
        return code
    from .cli import run_app

    done: int = run_app(args)
    return done


if __name__ == "__main__":
    sys.exit(main())
