"""JSON and JSON Lines output: drop empty and bookkeeping fields, cut huge strings, write
arrays of uniform objects as TOON tables.

Only complete, valid JSON is touched; truncated or invalid text gets ``None``.
"""

from __future__ import annotations

import json

MAX_STRING = 500      # strings longer than this are cut ...
KEEP_STRING = 200     # ... to this many characters plus a marker
# Bookkeeping keys, compared lower-cased without "-" and "_": version keys, entity
# tags, request/correlation/trace ids.
_BOOKKEEPING = frozenset({
    "etag", "requestid", "xrequestid", "correlationid", "xcorrelationid", "traceid", "xtraceid",
    "xamznrequestid", "xamzrequestid", "xamzntraceid", "xmsrequestid", "xgoogrequestid",
    "managedfields",
})
_BOOKKEEPING_EXACT = frozenset({"__v", "kubectl.kubernetes.io/last-applied-configuration"})

_cache: list = [None, None]   # [text, parsed value] of the last sniffed document


def _is_bookkeeping(key: str) -> bool:
    return key in _BOOKKEEPING_EXACT or key.lower().replace("-", "").replace("_", "") in _BOOKKEEPING


def _empty(v) -> bool:
    return v is None or v == "" or v == [] or v == {}


def cut_string(s: str) -> str:
    if len(s) <= MAX_STRING:
        return s
    return s[:KEEP_STRING] + f"…[+{len(s) - KEEP_STRING} chars]"


def prune(v):
    """The value without null/empty/bookkeeping fields, with long strings cut."""
    if isinstance(v, dict):
        out = {}
        for k, x in v.items():
            if _is_bookkeeping(k):
                continue
            x = prune(x)
            if not _empty(x):
                out[k] = x
        return out
    if isinstance(v, list):
        return _prune_list(v)
    if isinstance(v, str):
        return cut_string(v)
    return v


def _prune_list(arr: list) -> list:
    """Items pruned one by one; for same-shaped objects drop only columns empty in every row,
    so a uniform array stays a table."""
    if len(arr) >= 2 and all(isinstance(x, dict) for x in arr):
        keys = arr[0].keys()
        if all(x.keys() == keys for x in arr) and keys:
            cols = [k for k in keys if not _is_bookkeeping(k)]
            pruned = [{k: prune(x[k]) for k in cols} for x in arr]
            keep = [k for k in cols if not all(_empty(row[k]) for row in pruned)]
            if all(not isinstance(row[k], (dict, list)) for row in pruned for k in keep):
                return [{k: row[k] for k in keep} for row in pruned]
    return [prune(x) for x in arr]


def parse_document(text: str):
    """The parsed JSON object/array, or None (not JSON, truncated, a bare scalar, NaN)."""
    if _cache[0] is text:
        return _cache[1]
    s = text.strip()
    value = None
    if s[:1] in "{[" and s[-1:] in "}]":
        try:
            value = json.loads(s, parse_constant=_reject_constant)
        except (ValueError, RecursionError):
            value = None
    if not isinstance(value, (dict, list)):
        value = None
    _cache[0], _cache[1] = text, value
    return value


def _reject_constant(name: str):
    raise ValueError(f"non-standard constant {name}")


def looks_like_json(text: str) -> bool:
    return parse_document(text) is not None


def compress_json(request) -> str | None:
    """The pruned document as TOON or as compact JSON, whichever is shorter.

    TOON wins on arrays of uniform rows; deep nesting of small objects (Kubernetes objects,
    ``cargo metadata``, ``terraform show -json``) costs more as indented TOON than as compact
    JSON, whose braces merge with the keys into few tokens. Both keep every pruned value.
    """
    value = parse_document(request.text)
    if value is None:
        return None
    from ..tokens import estimate
    from .toon import encode

    pruned = prune(value)
    out = encode(pruned)
    compact = json.dumps(pruned, ensure_ascii=False, separators=(",", ":"))
    if not out or (compact and estimate(compact) < estimate(out)):
        out = compact
    return out + "\n" if out else None


def _parse_line(line: str):
    s = line.strip()
    if not (s.startswith("{") and s.endswith("}")):
        return None
    try:
        v = json.loads(s, parse_constant=_reject_constant)
    except (ValueError, RecursionError):
        return None
    return v if isinstance(v, dict) else None


def looks_like_jsonl(text: str) -> bool:
    """Two or more lines that are JSON objects, and at least half of the non-blank lines."""
    objects = other = 0
    for i, line in enumerate(text.splitlines()):
        if i >= 400:
            break
        s = line.strip()
        if not s:
            continue
        if s[0] == "{" and s[-1] == "}":
            objects += 1
        else:
            other += 1
    return objects >= 2 and objects >= other


def compress_jsonl(request) -> str | None:
    """Each JSON line pruned and written compactly; runs of flat same-shaped records become
    one TOON table; other lines kept verbatim. Any ``{...}`` line that is invalid → None."""
    from .toon import encode_table, is_tabular

    out: list[str] = []
    run: list[dict] = []

    def flush() -> None:
        if len(run) >= 3 and is_tabular(run):
            out.extend(encode_table(run))
        else:
            out.extend(json.dumps(r, ensure_ascii=False, separators=(",", ":")) for r in run)
        run.clear()

    records = 0
    for line in request.text.splitlines():
        s = line.strip()
        if s.startswith("{") and s.endswith("}"):
            v = _parse_line(s)
            if v is None:
                return None
            records += 1
            v = prune(v)
            if run and v.keys() != run[0].keys():
                flush()
            run.append(v)
        else:
            flush()
            out.append(line)
    flush()
    if records < 2:
        return None
    return "\n".join(out) + "\n"
