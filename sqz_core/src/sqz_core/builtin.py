"""The core's own hook implementations, registered before every plugin.

Being registered first, pluggy calls them last: any plugin answers before them.
"""

from __future__ import annotations

from .markers import hookimpl

commands = ("*",)


@hookimpl
def sqz_classify_safety(request):
    from .safety import classify

    return classify(request.text)


@hookimpl
def sqz_detect(request):
    if request.is_file_content():
        return None
    from .kinds import detect_kind

    return detect_kind(request.text, request)


@hookimpl(trylast=True)
def sqz_format(request):
    """Generic content kinds (JSON, logs, tables, listings…); None leaves the generic clean-up to the pipeline."""
    if request.kind is None or request.is_file_content():
        return None
    from .kinds import compress_kind

    return compress_kind(request.kind, request)


@hookimpl
def sqz_dedup(request, digest, session, store, data):
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
