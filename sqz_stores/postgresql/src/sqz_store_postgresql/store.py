"""``open_store(url)`` for ``postgresql://`` store URLs (entry point ``sqz.stores``).

The URL is a libpq URL plus three sqz parameters, removed before libpq sees it:

* ``schema=NAME``        keep the tables in that schema (default: the user's search_path);
* ``store_originals=0``  send only hashes and stats to the team store (also ``SQZ_STORE_ORIGINALS=0``);
  originals, refs, pins and recall then stay in the local SQLite file;
* ``pool=0``             no local pooling process (also ``SQZ_PG_POOL=0``).

A call first tries the local pooling process (a Unix socket, standard library only:
no psycopg import, no PostgreSQL connection set-up on the agent's path); when it is
not running, this call connects directly with psycopg and starts it in the background.
This module stays light: psycopg is imported only by ``pgstore`` and the pool process.
"""

from __future__ import annotations

import os
import re

_OWN_PARAMS = ("schema", "store_originals", "pool")
_SCHEMA_NAME = re.compile(r"^[a-z_][a-z0-9_]{0,62}$")
_OFF = ("0", "false", "no", "off")


class Config:
    """A parsed store URL: what libpq gets, and the sqz options."""

    __slots__ = ("url", "conninfo", "schema", "store_originals", "pool")

    def __init__(self, url: str) -> None:
        from sqz_core.api import StoreError

        scheme = url.split("://", 1)[0]
        if scheme not in ("postgresql", "postgres"):
            raise StoreError(f"not a PostgreSQL URL: {scheme}://")
        # split by hand (urllib.parse costs ~2 ms per call); libpq's own parameters pass through verbatim
        base, _, query = url.partition("#")[0].partition("?")
        params = [(k, v) for k, _, v in (item.partition("=") for item in query.split("&") if item)]
        own = {k: v for k, v in params if k in _OWN_PARAMS}
        rest = [(k, v) for k, v in params if k not in _OWN_PARAMS]
        self.schema = own.get("schema") or None
        if self.schema is not None and not _SCHEMA_NAME.match(self.schema):
            raise StoreError(f"schema={self.schema!r}: use lower-case letters, digits and _ (at most 63)")
        env_originals = os.environ.get("SQZ_STORE_ORIGINALS", "")
        self.store_originals = (own.get("store_originals", "1").lower() not in _OFF
                                and env_originals.lower() not in _OFF)
        self.pool = (own.get("pool", "1").lower() not in _OFF
                     and os.environ.get("SQZ_PG_POOL", "1").lower() not in _OFF)
        if not any(k == "connect_timeout" for k, _ in rest):
            rest.append(("connect_timeout", "1"))  # a dead server costs at most a second
        self.conninfo = base + "?" + "&".join(f"{k}={v}" for k, v in rest)
        self.url = url

    def key(self) -> str:
        """What makes two stores the same for the pooling process (URL and local state)."""
        from sqz_core.api import cache_dir, db_path

        return "\n".join((self.url, str(self.store_originals), cache_dir(), db_path()))


def scrub_command(command: str | None) -> str | None:
    """The command line as the team store may keep it (``sqz_core.api.withhold_credentials``)."""
    from sqz_core.api import withhold_credentials

    return withhold_credentials(command)


DOWN_SECS = 2.0  # after a failed connect, direct calls fail fast for this long (a dead host costs one timeout)


def _down_marker(cfg: Config) -> str:
    from sqz_core.api import cache_dir

    return os.path.join(cache_dir(), f"pg-down-{_tag(cfg.url)}")


def _tag(text: str) -> str:
    import zlib

    return f"{zlib.crc32(text.encode('utf-8', 'surrogateescape')) & 0xFFFFFFFF:08x}"


def note_down(cfg: Config, reason: str) -> None:
    """Remember that the server was unreachable, so the next calls do not wait for it again."""
    marker = _down_marker(cfg)
    try:
        os.makedirs(os.path.dirname(marker), mode=0o700, exist_ok=True)
        with open(marker, "w", encoding="utf-8") as fh:
            fh.write(reason)
    except OSError:
        pass


def recently_down(cfg: Config) -> str | None:
    """The reason the server was unreachable less than ``DOWN_SECS`` ago, else None."""
    import time

    marker = _down_marker(cfg)
    try:
        if not 0 <= time.time() - os.stat(marker).st_mtime < DOWN_SECS:
            return None
        with open(marker, encoding="utf-8") as fh:
            return fh.read().strip() or "postgresql: server unreachable"
    except OSError:
        return None


def open_store(url: str, hot: bool = False):
    """The store for ``url``: through the local pooling process when it runs, else a direct connection.

    ``hot``: a hook call, which waits for each answer at most ``SQZ_PG_TIMEOUT_MS`` (300 ms),
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
    if reason is not None:  # checked before importing psycopg (~0.1 s): a down server costs little
        from sqz_core.api import StoreError

        raise StoreError(reason)
    from .pgstore import open_direct

    return open_direct(cfg, timeout if hot else None)
