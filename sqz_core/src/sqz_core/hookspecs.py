"""The hook specifications: the whole contract between the sqz core and its plugins.

A plugin is a module (or object) with functions named after these specs and marked
with ``sqz_core.hookimpl``; it is registered under the entry-point group
``sqz.formatters``. Hooks are always called with keyword arguments, so a plugin may
accept only the arguments it needs, and specs can grow new ones.

A formatter module also declares ``commands``: the program names it claims
(``commands = ("git",)``). Only plugins that claim the command's program are
imported for a call; a plugin with ``commands = ("*",)`` is offered every output.
A module without ``commands``, or one pluggy rejects against these specs, is refused
when the plugin index is built (``sqz plugins`` shows ``error: <reason>``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pluggy

if TYPE_CHECKING:  # pragma: no cover - types only
    from .request import FormatRequest
    from .verdicts import Safety

hookspec = pluggy.HookspecMarker("sqz")


@hookspec(firstresult=True)
def sqz_detect(request: FormatRequest) -> str | None:
    """Say what kind of content ``request.text`` is (``"json"``, ``"log"``, ``"git-diff"`` …).

    Stops at the first non-None result. Return None when unsure. The answer is
    passed to ``sqz_format`` as ``request.kind``. Asked only when every formatter that
    claims the program returned None, just before the catch-all formatters
    (``commands = ("*",)``) are called; until then ``request.kind`` is None.
    """


@hookspec(firstresult=True)
def sqz_format(request: FormatRequest) -> str | None:
    """Return a compressed rendering of ``request.text``, or None for "not mine".

    Stops at the first non-None result. Refuse to guess: an unknown version, locale,
    section or shape returns None and the text goes on to the generic stages. Every
    failure, error, location and count the reader acts on must survive; content
    whose ``request.is_file_content()`` is true must not be summarised. The core
    stores the original for ``sqz expand`` and applies the net-win gate, so a
    formatter never needs to add markers of its own.
    """


@hookspec
def sqz_classify_safety(request: FormatRequest) -> Safety | None:
    """Judge whether ``request.text`` may be compressed and cached.

    All answers are collected and the most restrictive wins (``"safe"`` over
    ``"default"`` over ``"aggressive"``). Return None for no opinion. Safe content
    (stack traces with frames, PEM blocks, credential lines, SQL DDL, secret tokens)
    reaches the model unchanged and is never cached. A stack trace is protected as it
    stands (header or exception line through its last frame), not the text around it,
    and identical later copies of it fold to one counted line each.

    A formatter module that sets ``reports_traces = True`` (a test runner's pack) renders
    the stack traces of its tool's failure report itself: when only stack traces made the
    output safe and that formatter answers, its result is used, stored and recoverable
    with ``sqz expand`` like any other.
    """


@hookspec(firstresult=True)
def sqz_dedup(request: FormatRequest, digest: str, session: str, store: object, data: bytes) -> str | None:
    """Replace content the model already holds with a reference, or return None.

    Stops at the first non-None result. ``digest`` is the SHA-256 hex of ``data``,
    the original bytes; ``session`` the agent session served; ``store`` the session
    store (``sqz_core.store.Store``). The result must be recoverable with
    ``sqz expand`` and must only point at content served to the same session
    within the freshness window (or pinned). The core's answer: ``§ref:HASH§``
    for exact repeats, ``§ref:HASH:L41-80§`` for a line slice of a fresh file
    read, ``§delta:OLD→NEW§`` for a file re-read after a small edit.
    """
