"""What the memory verbs need beyond the store's own methods: pinning content, a ref's full hash, and
recall's matches with the ids refs print (all through ``sqz_core.api``)."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from sqz_core.api import digest_of, parse_ref, short_id, unique_hash

if TYPE_CHECKING:
    from sqz_core.api import StoreProtocol


def pin_bytes(store: StoreProtocol, data: bytes, label: str | None) -> str:
    """Store ``data`` and pin it: refs to it skip the freshness check. Returns its hash."""
    digest = digest_of(data)
    store.put_blob(digest, data, label)
    store.pin(digest, label)
    return digest


def resolve_prefix(store: StoreProtocol, prefix: str) -> str:
    """The full hash for a hex prefix (or a ``§ref:…§`` token); ``ExpandError`` if unknown/ambiguous."""
    return unique_hash(store, parse_ref(prefix)[0])


def recall(store: StoreProtocol, query: str, limit: int = 10) -> list[dict[str, Any]]:
    """Full-text matches over everything compressed: ``ref`` (with the id refs print), ``command``,
    ``age_seconds``, ``snippet``."""
    now = time.time()
    out = []
    for digest, command, ts, snippet in store.search(query, limit):
        out.append({"ref": f"§ref:{short_id(store, digest)}§", "hash": digest, "command": command,
                    "age_seconds": max(0, int(now - float(ts))), "snippet": " ".join(str(snippet).split())})
    return out
