"""``StoreProtocol``: what the pipeline, dedup, sessions, stats and expand use of a store, and nothing else.

The SQLite store (``sqz_core.store.Store``) and every plugin of the entry-point group
``sqz.stores`` (``open_store(url) -> StoreProtocol``) provide it; the shared contract
tests (``sqz_core/tests/store_contract.py``) hold each backend to its behaviour. Every
method may raise ``StoreError`` (``sqz_core.api.StoreError``); callers then degrade to
compression without dedup. Import it through ``sqz_core.api`` (for type checking and
``isinstance``: it is runtime-checkable); the hot path never imports this module.
"""

from __future__ import annotations

from typing import Any, ContextManager, Protocol, runtime_checkable


@runtime_checkable
class StoreProtocol(Protocol):
    # -- originals by SHA-256 (expand, dedup) -------------------------------------------------
    def put_blob(self, digest: str, data: bytes, command: str | None = None) -> None:
        """Keep ``data`` under its hash; the first bytes stored for a hash stay."""

    def get_blob(self, digest: str) -> bytes | None: ...

    def find_hashes(self, prefix: str, limit: int = 3) -> list[str]:
        """Full hashes of stored content starting with the hex ``prefix``."""

    # -- what each agent session was served -----------------------------------------------------
    def last_served(self, session: str, digest: str) -> float | None: ...

    def mark_served(self, session: str, digest: str, when: float | None = None, *, output_hash: str | None = None,
                    is_file: bool = False) -> None: ...

    def recent_files(self, session: str, since: float, limit: int = 20) -> list[tuple[str, str | None]]: ...

    def invalidate_session(self, session: str) -> int:
        """Forget what ``session`` was served; returns how many entries."""

    def sessions(self) -> list[tuple[str, int, float]]: ...

    # -- pins ----------------------------------------------------------------------------------
    def pin(self, digest: str, label: str | None) -> None: ...

    def unpin(self, digest: str) -> bool: ...

    def is_pinned(self, digest: str) -> bool: ...

    def pins(self) -> list[tuple[str, str | None, float, int]]: ...

    # -- near-duplicate sketches ---------------------------------------------------------------
    def add_sketch(self, session: str, digest: str, values: list[int]) -> None: ...

    def similar(self, session: str, values: list[int], exclude: str, limit: int = 3) -> list[tuple[str, int]]: ...

    # -- full-text recall ----------------------------------------------------------------------
    def has_fts(self) -> bool: ...

    def index_text(self, digest: str, text: str, command: str | None, session: str | None) -> None: ...

    def search(self, query: str, limit: int = 10) -> list[tuple[str, str | None, float, str]]:
        """``(hash, command, ts, snippet)`` best first; never raises on odd query syntax."""

    # -- stats rows and events -----------------------------------------------------------------
    def tokens_served(self, session: str, since: float) -> int: ...

    def record_call(self, *, session: str | None, command: str | None, family: str | None,
                    plugin: str | None, outcome: str, bytes_in: int, bytes_out: int, est_in: int,
                    est_out: int, input_hash: str | None, output_hash: str | None, agent: str | None = None,
                    cwd: str | None = None) -> None: ...

    def calls(self, since: float = 0.0) -> list[tuple[Any, ...]]: ...

    def origins(self, digests: list[str]) -> dict[str, set[str]]: ...

    def record_event(self, kind: str, *, session: str | None = None, ref: str | None = None,
                     detail: str | None = None) -> None: ...

    def events(self, since: float = 0.0) -> list[tuple[Any, ...]]: ...

    def cached_count(self, digest: str, encoding: str) -> int | None: ...

    def save_count(self, digest: str, encoding: str, n: int) -> None: ...

    # -- upkeep --------------------------------------------------------------------------------
    def prune_before(self, cutoff: float) -> dict[str, int]: ...

    def reset(self, *, cache: bool = True, stats: bool = True) -> dict[str, int]: ...

    def purge_secrets(self) -> dict[str, int]: ...

    def vacuum(self) -> bool: ...

    def health(self) -> str:
        """``"ok"`` or what is wrong."""

    # -- the call's writes ---------------------------------------------------------------------
    def batch(self) -> ContextManager[None]:
        """Several writes in one transaction (``with store.batch(): …``)."""

    def flush(self) -> None:
        """Send the writes a store buffers (its end of the call; a store that writes at once has none)."""

    def close(self) -> None:
        """Send or keep the buffered writes and let go of the backend; never raises."""
