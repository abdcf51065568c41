"""The core's own hook implementations, registered before every plugin.

Being registered first, pluggy calls them last: any plugin answers before them.
"""

from __future__ import annotations

import os
import time

from .markers import hookimpl

commands = ("*",)

DEFAULT_TTL = 30 * 60  # seconds a served output stays referable


def ref_ttl() -> float:
    """Freshness window for refs, from ``SQZ_REF_TTL_SECS`` (0 disables refs)."""
    raw = os.environ.get("SQZ_REF_TTL_SECS")
    if raw is None:
        return DEFAULT_TTL
    try:
        return max(0.0, float(raw))
    except ValueError:
        return DEFAULT_TTL


def short_age(seconds: float) -> str:
    seconds = max(0, int(seconds))
    if seconds < 60:
        return f"{seconds}s"
    if seconds < 3600:
        return f"{seconds // 60}m"
    return f"{seconds // 3600}h"


def ref_token(digest: str) -> str:
    return f"§ref:{digest[:16]}§"


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
def sqz_dedup(request, digest, session, store):
    """Exact repeat: content this session was served within the freshness window → ``§ref:HASH§``."""
    ttl = ref_ttl()
    if ttl <= 0 or store is None:
        return None
    served = store.last_served(session, digest)
    if served is None:
        return None
    age = time.time() - served
    if age > ttl:
        return None
    return f"{ref_token(digest)} (same output as {short_age(age)} ago; `sqz expand {digest[:16]}` prints it)\n"
