"""Which store a call uses: SQLite by default, another backend by URL.

``SQZ_STORE_URL`` (or ``store_url = "…"`` in ``$XDG_CONFIG_HOME/sqz/config.toml``)
selects the backend by its scheme: unset or ``sqlite:///path`` is
the embedded SQLite store (``sqz_core.store.Store``); any other scheme
(``postgresql://…``) names a plugin registered in the entry-point group
``sqz.stores`` under that scheme. The plugin module provides
``open_store(url[, hot]) -> store`` and its store provides
``sqz_core.api.StoreProtocol`` (what the pipeline, dedup, sessions, stats and
expand use, and nothing else), held to it by the shared contract tests
(``sqz_core/tests/store_contract.py``). ``hot`` (when the function takes it) is
True on a hook call, which must not wait long for a frozen server.

Every method raises ``sqz_core.store.StoreError`` when the backend fails; callers
then degrade to compression without dedup. Plugins are found through the plugin
index (never an entry-point scan per call).
"""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False  # not typing's: importing typing would cost every hook call (type checkers know the name)

if TYPE_CHECKING:  # pragma: no cover - types only
    from .storeproto import StoreProtocol

GROUP = "sqz.stores"


def config_path() -> str:
    """``$XDG_CONFIG_HOME/sqz/config.toml`` (default ``~/.config/sqz/config.toml``)."""
    root = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    return os.path.join(root, "sqz", "config.toml")


def store_url() -> str | None:
    """The store URL: ``SQZ_STORE_URL``, else ``store_url`` in the config file, else None (SQLite file).

    The config file is read only when it exists (one ``stat`` per call otherwise);
    an unreadable or invalid file counts as unset.
    """
    from .config import env

    url = env("SQZ_STORE_URL")
    if url:
        return url
    path = config_path()
    if not os.path.isfile(path):
        return None
    try:
        import tomllib
    except ImportError:  # Python 3.10: no TOML parser in the standard library
        return None
    try:
        with open(path, "rb") as fh:
            value = tomllib.load(fh).get("store_url")
    except (OSError, ValueError):
        return None
    return value if isinstance(value, str) and value else None


def describe() -> str:
    """A short, credential-free description of the store in use (for doctor and messages)."""
    url = store_url()
    if not url or url.startswith("sqlite:"):
        from .paths import db_path

        return f"sqlite ({_sqlite_path(url) or db_path()})"
    scheme, _, rest = url.partition("://")
    host = rest.rsplit("@", 1)[-1].split("/", 1)[0]
    return f"{scheme} ({host})"


def _sqlite_path(url: str | None) -> str | None:
    if not url:
        return None
    path = url[len("sqlite:"):]
    return path[2:] if path.startswith("//") else path


def open_store(hot: bool = False) -> StoreProtocol:
    """Open the configured store; raises ``StoreError`` with a one-line reason when it cannot.

    ``hot``: a hook call; SQLite then waits for another process's write lock only briefly
    and writes behind (``Store.open(hot=True, write_behind=True)``): a busy store keeps the
    call's writes in its spool instead of losing them.
    """
    from .store import Store, StoreError

    url = store_url()
    if not url or url.startswith("sqlite:"):
        from .paths import db_path

        return Store.open(_sqlite_path(url) or db_path(), hot=hot, write_behind=hot)
    scheme = url.split(":", 1)[0].lower()
    if scheme == "postgres":
        scheme = "postgresql"
    from .plugins import load_index, _resolve

    rec = load_index().get("stores", {}).get(scheme)
    if rec is None:
        raise StoreError(f"no store plugin for {scheme!r} URLs is installed (entry-point group {GROUP})")
    try:
        module = _resolve(rec["module"], rec.get("attr"))
        opener = module.open_store
        code = getattr(opener, "__code__", None)
        if hot and code is not None and "hot" in code.co_varnames[:code.co_argcount + code.co_kwonlyargcount]:
            store: StoreProtocol = opener(url, hot=True)
        else:
            store = opener(url)
        return store
    except StoreError:
        raise
    except Exception as exc:
        raise StoreError(f"{scheme} store: {type(exc).__name__}: {exc}") from exc


def _quiet() -> bool:
    return os.environ.get("SQZ_QUIET", "") not in ("", "0")


def open_store_or_say() -> StoreProtocol | None:
    """The configured store for a hot call, or None after one clear line on stderr (compression goes on
    without dedup)."""
    from .store import StoreBusy, StoreError

    try:
        return open_store(hot=True)
    except StoreBusy:
        busy_note()
        return None
    except StoreError as exc:
        sys.stderr.write(f"sqz: store unavailable ({exc}); compressing without dedup or expand\n")
        return None


def busy_note() -> None:
    """A held write lock is a passing state, not a failure: one quiet line (none with SQZ_QUIET)."""
    if not _quiet():
        sys.stderr.write("sqz: store busy (another process holds its write lock); sent without caching\n")
