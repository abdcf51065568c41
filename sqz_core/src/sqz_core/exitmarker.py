"""The exit trailer: how a rewritten command carries its exit status through a pipe.

A hook rewrites ``CMD`` to ``{ ( CMD\n) 2>&1; printf '\\n__SQZ_EXIT__=%s\\n' "$?"; }``
piped into ``sqz compress``, which strips the trailer exactly and exits with that
status, so the agent sees the command's real exit code.
"""

from __future__ import annotations

import re

MARKER = b"__SQZ_EXIT__="
_TRAILER = re.compile(rb"\n__SQZ_EXIT__=(\d{1,3})\n\Z")


def split_trailer(data: bytes) -> tuple[bytes, int | None]:
    """Remove the trailer the wrapper appended; return the output and the exit status (or None)."""
    if MARKER not in data[-32:]:
        return data, None
    m = _TRAILER.search(data, max(0, len(data) - 32))
    if not m:
        return data, None
    return data[: m.start()], int(m.group(1))


def wrap_command(command: str, compress: str) -> str:
    """Shell text running ``command`` so its merged output and status reach ``compress``.

    The command runs in a subshell on its own lines, so heredocs, comments and
    trailing backslashes keep their meaning and an ``exit N`` in it still reaches the
    trailer (the left side of a pipe is a subshell anyway, so nothing is lost); ``compress`` is the ``sqz compress …``
    invocation (already quoted by the caller).
    """
    return "{ ( " + command + "\n) 2>&1; printf '\\n__SQZ_EXIT__=%s\\n' \"$?\"; } | " + compress
