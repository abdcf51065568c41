"""Session memory: compaction, pins, recall and pressure levels.

A session is one agent conversation (the hook's ``session_id``, ``SQZ_SESSION``, or
one per user, machine and working directory: ``default_session_for``). Refs are only emitted for content that session was
served; after the agent compacts its history those refs would point at text the
model no longer has, so compaction forgets what the session was served.
"""

from __future__ import annotations

import json
import os
import time

TYPE_CHECKING = False  # not typing's: importing typing would cost every hook call (type checkers know the name)

if TYPE_CHECKING:  # pragma: no cover - types only
    from .storeproto import StoreProtocol

# -- identity ---------------------------------------------------------------------------


def user_name() -> str:
    """Who runs this call: ``USER``/``LOGNAME`` (as ``getpass`` reads them), else the uid's name."""
    name = os.environ.get("USER") or os.environ.get("LOGNAME")
    if name:
        return name
    try:
        import pwd

        return pwd.getpwuid(os.getuid()).pw_name
    except (ImportError, KeyError, AttributeError):
        return f"uid{os.getuid()}" if hasattr(os, "getuid") else "?"


def host_name() -> str:
    """This machine: ``SQZ_HOST`` (for hosts that share a name, e.g. containers), else the node name."""
    from .config import env

    host = env("SQZ_HOST")
    if host:
        return host
    try:
        return os.uname().nodename or "?"
    except AttributeError:  # pragma: no cover - Windows
        return os.environ.get("COMPUTERNAME", "?")


def default_session() -> str:
    """``SQZ_SESSION``, else one session per user, machine and working directory."""
    sid = os.environ.get("SQZ_SESSION")
    if sid:
        return sid
    try:
        cwd = os.getcwd()
    except OSError:
        cwd = "?"
    return default_session_for(cwd)


def default_session_for(cwd: str) -> str:
    """The session id of calls made in ``cwd`` without a session of their own.

    User and machine are part of it, so two members with the same checkout path on one
    team store never share a session (refs never cross users or machines):
    ``cwd:USER@HOST:CRC32(cwd)``.
    """
    import zlib

    crc = zlib.crc32(cwd.encode("utf-8", "surrogateescape")) & 0xFFFFFFFF
    return f"cwd:{user_name()}@{host_name()}:{crc:08x}"


# -- compaction -------------------------------------------------------------------------


def session_from_hook(payload: bytes, args: list[str]) -> str | None:
    """The session id of a compaction hook call: ``--session ID``, else the JSON's ``session_id``."""
    if "--session" in args:
        i = args.index("--session")
        if i + 1 < len(args):
            return args[i + 1]
    try:
        data = json.loads(payload.decode("utf-8") or "{}")
    except (UnicodeDecodeError, ValueError):
        return None
    if isinstance(data, dict):
        for key in ("session_id", "sessionId"):
            if isinstance(data.get(key), str) and data[key]:
                sid: str = data[key]
                return sid
    return None


def compact(store: StoreProtocol, session: str) -> int:
    """Invalidate ``session``'s refs; returns how many served entries were forgotten."""
    return store.invalidate_session(session)


def hook_precompact(payload: bytes, args: list[str]) -> bytes | None:
    """``sqz hook precompact``: the agent is about to compact (or has): forget what its session was served.

    Prints nothing (the agent goes on unchanged); a payload without a session id
    falls back to ``SQZ_SESSION`` / the per-directory default.
    """
    from .stores import open_store_or_say as _open_store

    session = session_from_hook(payload, args) or default_session()
    store = _open_store()
    if store is None:
        return None
    try:
        compact(store, session)
    finally:
        store.close()
    return None


# -- pressure ---------------------------------------------------------------------------

DEFAULT_BUDGET = 200_000   # tokens served per window that count as a full context's worth
DEFAULT_WINDOW = 30 * 60   # seconds
LEVELS = ("default", "high", "critical")


def _env_number(name: str, default: float) -> float:
    try:
        from .config import env

        return float(env(name) or default)
    except ValueError:
        return default


def pressure(store: StoreProtocol | None, session: str) -> tuple[str, float]:
    """``(level, ratio)``: tokens served to ``session`` in the sliding window against the budget.

    ``default`` below 80%, ``high`` from 80%, ``critical`` from 90%
    (``SQZ_PRESSURE_BUDGET`` tokens per ``SQZ_PRESSURE_WINDOW_SECS``; a budget of 0
    turns pressure off). What each level changes is in ``pipeline.compress``.
    """
    budget = _env_number("SQZ_PRESSURE_BUDGET", DEFAULT_BUDGET)
    if budget <= 0 or store is None:
        return "default", 0.0
    window = _env_number("SQZ_PRESSURE_WINDOW_SECS", DEFAULT_WINDOW)
    ratio = store.tokens_served(session, time.time() - window) / budget
    if ratio >= 0.9:
        return "critical", ratio
    if ratio >= 0.8:
        return "high", ratio
    return "default", ratio
