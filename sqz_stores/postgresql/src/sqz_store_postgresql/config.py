"""A parsed ``postgresql://`` store URL, and the marker of a server found down (standard library only).

The URL is a libpq URL plus three sqz parameters, removed before libpq sees it:

* ``schema=NAME``        keep the tables in that schema (default: the user's search_path);
* ``store_originals=0``  send only hashes and stats to the team store (also ``SQZ_STORE_ORIGINALS=0``);
  originals, refs, pins and recall then stay in the local SQLite file;
* ``pool=0``             no local pooling process (also ``SQZ_PG_POOL=0``).

Every module of this distribution imports this one and none imports ``store`` (the entry
point), so there is no import circle.
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
        from sqz_core.api import config_env  # the variables, else the config files (sqz config)

        env_originals = config_env("SQZ_STORE_ORIGINALS") or ""
        self.store_originals = (own.get("store_originals", "1").lower() not in _OFF
                                and env_originals.lower() not in _OFF)
        self.pool = (own.get("pool", "1").lower() not in _OFF
                     and (config_env("SQZ_PG_POOL") or "1").lower() not in _OFF)
        if not any(k == "connect_timeout" for k, _ in rest):
            rest.append(("connect_timeout", "1"))  # a dead server costs at most a second
        self.conninfo = base + "?" + "&".join(f"{k}={v}" for k, v in rest)
        self.url = url

    def key(self) -> str:
        """What makes two stores the same for the pooling process (URL and local state)."""
        from sqz_core.api import cache_dir, db_path

        return "\n".join((self.url, str(self.store_originals), cache_dir(), db_path()))


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
