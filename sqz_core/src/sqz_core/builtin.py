"""The core's own hook implementations, registered before every plugin: safety and dedup.

Being registered first, pluggy calls them last: any plugin answers before them. The core
has no formatter of its own: content kinds (JSON, logs, tables…) are the generic pack's
(``sqz-formatters-generic``), reached through ``sqz_detect``/``sqz_format`` like any other.
"""

from __future__ import annotations

from .markers import hookimpl

TYPE_CHECKING = False  # not typing's: importing typing would cost every hook call (type checkers know the name)

if TYPE_CHECKING:  # pragma: no cover - types only
    from .request import FormatRequest
    from .storeproto import StoreProtocol
    from .verdicts import Safety

commands = ("*",)


@hookimpl
def sqz_classify_safety(request: FormatRequest) -> Safety | None:
    from .safety import classify

    return classify(request.text)


@hookimpl
def sqz_dedup(request: FormatRequest, digest: str, session: str, store: StoreProtocol | None,
              data: bytes) -> str | None:
    """Exact repeat or pinned → ``§ref:HASH§``; for file content also line slices and near-duplicate deltas."""
    from . import dedup

    ttl = dedup.ref_ttl()
    if ttl <= 0 or store is None:
        return None
    ref = dedup.exact(store, session, digest, ttl, request.command or request.tool)
    if ref is not None or not request.is_file_content():
        return ref
    ref = dedup.slice_of_fresh_read(store, session, data, ttl)
    if ref is not None:
        return ref
    return dedup.delta(store, session, digest, data, ttl, dedup.sketch(data))
