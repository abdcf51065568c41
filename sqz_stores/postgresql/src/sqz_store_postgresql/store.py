"""``open_store(url)`` for ``postgresql://`` store URLs (entry point ``sqz.stores``).

The URL and its sqz parameters are ``config.Config``'s. A call first tries the local
pooling process (a Unix socket, standard library only: no psycopg import, no PostgreSQL
connection set-up on the agent's path); when it is not running, this call connects
directly with psycopg and starts it in the background. This module stays light: psycopg
is imported only by ``pgstore`` and the pool process.
"""

from __future__ import annotations

from .config import Config, recently_down

__all__ = ["Config", "open_store"]


def open_store(url: str, hot: bool = False):
    """The store for ``url``: through the local pooling process when it runs, else a direct connection.

    ``hot``: a hook call, which waits for each answer at most ``SQZ_PG_TIMEOUT_MS`` (400 ms),
    so a frozen server costs it one such wait, not the connect and statement timeouts.
    Raises ``sqz_core.api.StoreError`` (one line, no credentials) when PostgreSQL is
    unreachable or the schema cannot be brought up to date.
    """
    cfg = Config(url)
    from . import client

    timeout = client.hot_reply_seconds() if hot else client.REPLY_TIMEOUT
    if cfg.pool:
        store = client.connect(cfg, timeout)
        if store is not None:
            return store
        client.start_pool(cfg)
    reason = recently_down(cfg)
    if reason is None and hot:  # a frozen server found before importing psycopg (issue 29.3)
        from .config import note_down
        from .probe import probe

        reason = probe(cfg.conninfo, timeout)
        if reason is not None:
            note_down(cfg, reason)
    if reason is not None:  # checked before importing psycopg (~0.1 s; 1 s at load 10): a down server costs little
        from sqz_core.api import StoreError

        raise StoreError(reason)
    from .pgstore import open_direct

    return open_direct(cfg, timeout if hot else None)
