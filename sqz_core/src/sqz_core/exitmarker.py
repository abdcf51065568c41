"""The exit trailer: how a rewritten command carries its exit status through a pipe.

A hook rewrites ``CMD`` to ``{ ( CMD\n) 2>&1; printf '\\n__SQZ_EXIT__=NONCE:%s\\n' "$?"; }``
piped into ``SQZ_EXIT_NONCE=NONCE sqz compress``, which strips that trailer exactly and
exits with its status, so the agent sees the command's real exit code.

The nonce is random per call and known only to the wrapper and to ``sqz compress``:
an output that merely ends in ``__SQZ_EXIT__=7`` (a log of an earlier call, a file
read, a plain ``… | sqz compress`` without the wrapper) can neither set sqz's exit
status nor lose its last line. Without a nonce nothing is stripped. (A command that
reads its own parent's command line can learn the nonce; the trailer guards against
accidents, not against code the agent chose to run.)
"""

from __future__ import annotations

import os

MARKER = b"__SQZ_EXIT__="
NONCE_ENV = "SQZ_EXIT_NONCE"
_MAX_TAIL = 100  # "\n" + marker + nonce (≤ 64) + ":" + status + "\n"


def new_nonce() -> str:
    return os.urandom(8).hex()


def _valid_nonce(nonce: str | bytes | None) -> bytes | None:
    if not nonce:
        return None
    b = nonce.encode("ascii", "replace") if isinstance(nonce, str) else bytes(nonce)
    if not 8 <= len(b) <= 64 or not b.isalnum():
        return None
    return b


def trailer(status: int, nonce: str) -> bytes:
    """The bytes the wrapper appends after the command's output."""
    return b"\n" + MARKER + nonce.encode("ascii") + b":%d\n" % status


def split_trailer(data: bytes, nonce: str | bytes | None = None) -> tuple[bytes, int | None]:
    """Remove the trailer carrying ``nonce``; return the output and the exit status (or None).

    Without a (well-formed) nonce, or when the output does not end in this call's
    trailer, the data is returned whole and the status is None.
    """
    key = _valid_nonce(nonce)
    if key is None:
        return data, None
    head = b"\n" + MARKER + key + b":"
    start = data.rfind(head, max(0, len(data) - _MAX_TAIL))
    if start < 0 or not data.endswith(b"\n"):
        return data, None
    digits = data[start + len(head):-1]
    if not 1 <= len(digits) <= 3 or not digits.isdigit():
        return data, None
    return data[:start], int(digits)


def wrap_command(command: str, compress: str, nonce: str | None = None) -> str:
    """Shell text running ``command`` so its merged output and status reach ``compress``.

    The command runs in a subshell on its own lines, so heredocs, comments and
    trailing backslashes keep their meaning and an ``exit N`` in it still reaches the
    trailer (the left side of a pipe is a subshell anyway, so nothing is lost); ``compress`` is the ``sqz compress …``
    invocation (already quoted by the caller), a simple command: the nonce goes before it
    as an environment assignment.
    """
    nonce = nonce if nonce is not None and _valid_nonce(nonce) else new_nonce()
    return ("{ ( " + command + "\n) 2>&1; printf '\\n__SQZ_EXIT__=" + nonce + ":%s\\n' \"$?\"; } | "
            + NONCE_ENV + "=" + nonce + " " + compress)
