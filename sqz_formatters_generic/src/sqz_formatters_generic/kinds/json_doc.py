"""JSON and JSON Lines output: drop empty and bookkeeping fields, cut huge strings, write
arrays of uniform objects as TOON tables, and say repeated values once.

Bookkeeping goes (``managedFields``; an ``etag``/request id with an id-like value); the
``last-applied-configuration`` annotation keeps its key, its value written
``"[sqz: value dropped, N chars]"``. A field whose value is ``null``, ``""``, ``[]`` or
``{}`` is dropped: in tool output (``cargo``, ``kubectl``, ``terraform``, ``npm``) it means
"not set", which the field's absence says too; the original stays one ``sqz expand`` away. Repeated values are said
once, each way marked so it cannot read as data: fields with one value in every item of
an array (``[every packages[].dependencies[] has "optional":false]``, per record type in
JSON Lines), a value equal to an earlier sibling's (``"output":"[sqz: same as input]"``),
a list of versions as runs (``"[sqz: 262 versions] 0.14.{0..1}, 1.0.{0..8}, …"``), and, in a
document without notes, an object or array equal to one written earlier
(``"[sqz: same as $.dependencies.express.dependencies.debug]"``, a path from the root).
Documents printed one after another (``jq``, ``kubectl … -f DIR -o json``) are written as
JSON Lines, one document a line. ripgrep's ``--json`` events lose a match's byte offset and
submatches and the search's elapsed times (path, line number, text and counts stay).
A note's path spells a key with ``.``, brackets, commas or spaces as a JSON string in
brackets (``metadata["a.b"][]``); a note reads on the objects written at its path, so a
reader applies the notes first, then the same-as markers (``$`` paths in document order, then
siblings), then the version runs. A marker only names a value the reader has already read: a
sibling written before it (never one taken into a note, which a reader adds after the written
fields, nor a key starting with ``$``, which would read as a path) or the first copy in
document order. What could not be said that way is left as it is: a key twice in one object,
a number a double cannot hold, a document already holding ``[sqz:`` text (also spelled with
``\\u`` escapes) or a line that reads as a note.
Every pass is one walk of the value: linear in the input.

Only complete, valid JSON is touched; truncated or invalid text gets ``None``.
"""

from __future__ import annotations

import json

from sqz_core.api import lazy_pattern as lazy

MAX_STRING = 500      # strings longer than this are cut ...
KEEP_STRING = 200     # ... to this many characters plus a marker
# Bookkeeping keys, compared lower-cased without "-" and "_": entity tags and
# request/correlation/trace ids, dropped only with an id-like value (a string of 16 or more
# characters: ``"etag": "~1.8.1"`` in a dependency map is the npm package etag, and stays).
_BOOKKEEPING = frozenset({
    "etag", "requestid", "xrequestid", "correlationid", "xcorrelationid", "traceid", "xtraceid",
    "xamznrequestid", "xamzrequestid", "xamzntraceid", "xmsrequestid", "xgoogrequestid",
})
_BOOKKEEPING_ID_CHARS = 16
_BOOKKEEPING_EXACT = frozenset({"__v", "managedFields"})
# Keys kept with a note in place of a long, machine-written value: the key's presence is
# information (``kubectl create --save-config`` is asked for it), its value a copy.
_ELIDE_EXACT = frozenset({"kubectl.kubernetes.io/last-applied-configuration"})

_cache: list = [None, None]   # [text, parsed value] of the last sniffed document


def _is_bookkeeping(key: str, value) -> bool:
    if key in _BOOKKEEPING_EXACT:
        return True
    return (isinstance(value, str) and len(value) >= _BOOKKEEPING_ID_CHARS
            and key.lower().replace("-", "").replace("_", "") in _BOOKKEEPING)


def _prune_field(key: str, value, keep_empty: bool = False):
    if key in _ELIDE_EXACT and not _empty(value):
        return f"[sqz: value dropped, {len(value) if isinstance(value, str) else len(_dump(value))} chars]"
    return prune(value, keep_empty)


def _empty(v) -> bool:
    return v is None or v == "" or v == [] or v == {}


def cut_string(s: str) -> str:
    if len(s) <= MAX_STRING:
        return s
    return s[:KEEP_STRING] + f"…[+{len(s) - KEEP_STRING} chars]"


def prune(v, keep_empty: bool = False):
    """The value without null/empty/bookkeeping fields, with long strings cut. With
    ``keep_empty`` (a JSON Schema, see :func:`is_json_schema`) empty values stay: there
    ``{}`` is a schema that accepts anything (``"patternProperties": {"^x-": {}}``,
    ``"default": {}``), and dropping it would say the opposite."""
    if isinstance(v, dict):
        out = {}
        for k, x in v.items():
            if _is_bookkeeping(k, x):
                continue
            x = _prune_field(k, x, keep_empty)
            if keep_empty or not _empty(x):
                out[k] = x
        return out
    if isinstance(v, list):
        return [prune(x, True) for x in v] if keep_empty else _prune_list(v)
    if isinstance(v, str):
        return cut_string(v)
    return v


def is_json_schema(value) -> bool:
    """A JSON Schema document: an object that names its meta-schema (``"$schema"``)."""
    return isinstance(value, dict) and isinstance(value.get("$schema"), str)


def _prune_list(arr: list) -> list:
    """Items pruned one by one; for same-shaped objects drop only columns empty in every row,
    so a uniform array stays a table. Objects left empty by pruning, and nothing else,
    make an empty list (``"dep_kinds":[{"kind":null}]``: every field was null)."""
    if len(arr) >= 2 and all(isinstance(x, dict) for x in arr):
        keys = arr[0].keys()
        if all(x.keys() == keys for x in arr) and keys:
            cols = [k for k in keys if not all(_is_bookkeeping(k, x[k]) for x in arr)]
            pruned = [{k: _prune_field(k, x[k]) for k in cols} for x in arr]
            keep = [k for k in cols if not all(_empty(row[k]) for row in pruned)]
            if all(not isinstance(row[k], (dict, list)) for row in pruned for k in keep):
                return _unless_all_emptied(arr, [{k: row[k] for k in keep} for row in pruned])
    return _unless_all_emptied(arr, [prune(x) for x in arr])


def _unless_all_emptied(arr: list, out: list) -> list:
    return [] if out and all(x == {} for x in out) and all(isinstance(x, dict) for x in arr) else out


# ------------------------------------------------------- repeated values said once

_NOTE = "[every "   # how a note line begins
SAME_AS = "[sqz: same as "   # how a same-as marker begins: a sibling's key, or ``$`` and a path from the root
MIN_ITEMS = 3        # a field is hoisted out of an array's items when at least this many share it
SAME_MIN_CHARS = 40  # a value written "same as <sibling>" is at least this long as compact JSON
_SMALL_LIST = 4      # lists of at most this many primitives count as one value when hoisting
_SMALL_DICT = 8      # ... and objects of at most this many primitive fields


def _dump(v) -> str:
    return json.dumps(v, ensure_ascii=False, separators=(",", ":"))


def _small(x) -> bool:
    return isinstance(x, (str, int, float, bool)) or x is None or x == {} or x == []


def _hoistable(v):
    """A comparable form of a value that may be hoisted (a primitive, or a short list of
    primitives and empty containers: ``["lib"]``, ``[{}]``), or None."""
    if isinstance(v, (str, int, float, bool)) or v is None:
        return (type(v).__name__, v)
    if isinstance(v, list) and len(v) <= _SMALL_LIST and all(_small(x) for x in v):
        return ("list", _dump(v))
    if isinstance(v, dict) and len(v) <= _SMALL_DICT and all(_small(x) for x in v.values()):
        return ("dict", _dump(v))
    return None


_VARIED = object()


def _collect(v, sig: tuple, in_array: bool, stats: dict, by_shape: bool = False) -> None:
    """Per path (list indices as ``[]``; with ``by_shape`` per path and set of fields) of
    objects inside arrays: how many objects, and per key how many have it and its one value
    (or ``_VARIED``)."""
    if isinstance(v, dict):
        if in_array:
            g = (sig, frozenset(v)) if by_shape else sig
            st = stats.get(g)
            if st is None:
                st = stats[g] = [0, {}]
            st[0] += 1
            keys = st[1]
            for k, x in v.items():
                h = _hoistable(x)
                cur = keys.get(k)
                if cur is None:
                    keys[k] = [1, h if h is not None else _VARIED]
                else:
                    cur[0] += 1
                    if cur[1] is not _VARIED and cur[1] != h:
                        cur[1] = _VARIED
                if isinstance(x, str) and x.startswith(SAME_AS) and x[-1:] == "]":
                    # the sibling it names stays written, before it: a note would add it after
                    target = keys.get(x[len(SAME_AS):-1])
                    if target is not None:
                        target[1] = _VARIED
        for k, x in v.items():
            if isinstance(x, (dict, list)):
                _collect(x, sig + (k,), in_array, stats, by_shape)
    elif isinstance(v, list):
        for x in v:
            if isinstance(x, (dict, list)):
                _collect(x, sig + (EACH,), True, stats, by_shape)


EACH = None   # an array's items in a path (``sig``); never a key, which is always a string
_PLAIN_KEY = lazy(r"[A-Za-z_$@][A-Za-z0-9_$@\-]*+\Z")


def key_name(k: str) -> str:
    """A key as a note writes it: bare when plain (``dep_kinds``), else as a JSON string in
    brackets (``["a.b"]``), so ``.``, ``[``, ``]``, ``,`` or spaces in keys cannot blur a path."""
    return k if _PLAIN_KEY.match(k) else f"[{_dump(k)}]"


def _sig_name(sig: tuple) -> str:
    """A path as jq would spell it without its dots at the start: ``packages[].dependencies[]``,
    ``metadata["kubectl.kubernetes.io/x"]``."""
    out = ""
    for part in sig:
        if part is EACH:
            out += "[]"
        else:
            name = key_name(part)
            out += ("." if out and name[0] != "[" else "") + name
    return out


def hoist_shared(value, name=None, keep_first: bool = False, plan: dict | None = None):
    """Fields with one value in every object at the same place in arrays (every
    ``packages[].dependencies[]`` item has ``"optional":false``) are taken out of the items
    and said once: (value without them, note lines). Only when it saves characters; an
    object always keeps at least one field (``keep_first``: the items of a top-level array
    always keep their first). Then the same per set of fields, for arrays of objects of
    several shapes (``_by_shape``). ``name(sig)`` words the place in a note; ``plan``
    receives path (or path and fields shown) -> hoisted fields. One walk to count, one to
    rewrite."""
    shapes: dict = {}
    _collect(value, (), False, shapes, by_shape=True)   # (path, fields) -> [n, {key: [count, value]}]
    if not shapes:
        return value, []
    stats: dict = {}                                    # path -> the same, all shapes together
    for (sig, _), (n, keys) in shapes.items():
        agg = stats.setdefault(sig, [0, {}])
        agg[0] += n
        for k, (c, h) in keys.items():
            cur = agg[1].get(k)
            if cur is None:
                agg[1][k] = [c, h]
            else:
                cur[0] += c
                if cur[1] is not _VARIED and cur[1] != h:
                    cur[1] = _VARIED
    plan = {} if plan is None else plan
    notes = []
    for sig in sorted(stats, key=len):
        n, keys = stats[sig]
        if n < MIN_ITEMS or not keys or any(sig[i] in plan.get(sig[:i], ()) for i in range(len(sig))):
            continue   # too few, or inside a field already hoisted
        shared = {k: _value_of(c[1]) for k, c in keys.items() if c[0] == n and c[1] is not _VARIED}
        if len(shared) == len(keys) or (keep_first and sig == (EACH,)):  # the first field stays
            shared.pop(next(iter(keys)), None)
        if not shared:
            continue
        body = ",".join(f"{_dump(k)}:{_dump(x)}" for k, x in shared.items())
        if (len(body) + 1) * (n - 1) <= 40:
            continue   # the note would cost about what it saves
        plan[sig] = shared
        notes.append(f"{_NOTE}{(name or _sig_name)(sig) or '[]'} has {body}]")
    by_fields = _by_shape(shapes, plan, name, keep_first, notes)
    if not plan:
        return value, notes
    return _apply(value, (), False, plan, by_fields), notes


def _by_shape(shapes: dict, plan: dict, name, keep_first: bool, notes: list[str]) -> dict:
    """Notes per set of fields (servers among other resources: ``[every resources[].input with
    fields image,name,zone has "cpu":2]``), only where no other object there shows those
    fields (the note names exactly its objects). Returns (path, all fields) -> fields to drop."""
    at: dict[tuple, list[frozenset]] = {}     # path -> fields each shape shows after the notes above
    groups = []
    for (sig, ks), (n, keys) in shapes.items():
        if any(sig[i] in plan.get(sig[:i], ()) for i in range(len(sig))):
            continue   # inside a field already hoisted for every object
        first = plan.get(sig, {})
        at.setdefault(sig, []).append(ks - first.keys())
        groups.append((sig, ks, n, {k: c for k, c in keys.items() if k not in first}))
    hoisted: set[tuple] = set()      # (path, field) taken out of some objects
    reduced_at: dict[tuple, list[frozenset]] = {}
    drops: dict = {}
    for sig, ks, n, keys in sorted(groups, key=lambda g: len(g[0])):
        if (n < MIN_ITEMS or not keys or len(at[sig]) < 2
                or any((sig[:i], sig[i]) in hoisted for i in range(len(sig)))):
            continue
        shown = frozenset(keys)
        shared = {k: _value_of(c[1]) for k, c in keys.items() if c[1] is not _VARIED}
        if len(shared) == len(keys) or (keep_first and sig == (EACH,)):
            shared.pop(next(iter(keys)), None)
        rest = [k for k in keys if k not in shared]
        reduced = frozenset(rest)
        if not shared or any(reduced <= other for other in at[sig] if other != shown) or any(
                reduced <= other or other <= reduced for other in reduced_at.get(sig, ())):
            continue   # nothing to say, or other objects there would match the note too
        body = ",".join(f"{_dump(k)}:{_dump(x)}" for k, x in shared.items())
        if (len(body) + 1) * (n - 1) <= 40 + 2 * sum(len(k) + 1 for k in rest):
            continue
        plan[(sig, reduced)] = shared
        drops[(sig, ks)] = shared
        reduced_at.setdefault(sig, []).append(reduced)
        hoisted.update((sig, k) for k in shared)
        fields = ",".join(map(key_name, rest))
        notes.append(f"{_NOTE}{(name or _sig_name)(sig) or '[]'} with fields {fields} has {body}]")
    return drops


def _value_of(h):
    """The value back from its ``_hoistable`` form."""
    return json.loads(h[1]) if h[0] in ("list", "dict") else h[1]


def _apply(v, sig: tuple, in_array: bool, plan: dict, by_fields: dict):
    if isinstance(v, dict):
        drop = drop2 = None
        if in_array:
            drop = plan.get(sig)
            drop2 = by_fields.get((sig, frozenset(v))) if by_fields else None
        return {k: (_apply(x, sig + (k,), in_array, plan, by_fields) if isinstance(x, (dict, list)) else x)
                for k, x in v.items()
                if (drop is None or k not in drop) and (drop2 is None or k not in drop2)}
    if isinstance(v, list):
        return [_apply(x, sig + (EACH,), True, plan, by_fields) if isinstance(x, (dict, list)) else x for x in v]
    return v


SAME_CANDIDATES = 8   # earlier siblings of one shape compared with a value, at most


def same_as_sibling(v):
    """An object's value equal to an earlier sibling's (``"output"`` = ``"input"``) and at least
    ``SAME_MIN_CHARS`` long is written ``"[sqz: same as input]"``. Values are compared only
    with a few earlier siblings of the same type and length, and written out only when equal."""
    if isinstance(v, list):
        return [same_as_sibling(x) if isinstance(x, (dict, list)) else x for x in v]
    if not isinstance(v, dict):
        return v
    out = {}
    seen: dict[tuple, list] = {}   # (type, len) -> [(key, value)]
    for k, x in v.items():
        if isinstance(x, (dict, list)) and x:
            cands = seen.setdefault((type(x), len(x)), [])
            text = None
            for c in cands:          # [key, value, its compact text once needed]
                if c[1] == x:        # cheap, stops at the first difference; then exact (True is not 1)
                    c[2] = c[2] or _dump(c[1])
                    text = text or _dump(x)
                    if text == c[2]:
                        break
            else:
                c = None
            if c is not None and len(text) >= SAME_MIN_CHARS:
                out[k] = f"{SAME_AS}{c[0]}]"
                continue
            if len(cands) < SAME_CANDIDATES and k[:1] != "$":   # "$…" names a path from the root
                cands.append([k, x, text])
            out[k] = same_as_sibling(x)
            continue
        out[k] = x
    return out


SAME_TREE_MIN_CHARS = 200   # a subtree written "same as $.path" is at least this long as compact JSON


def _tree_sizes(v, sizes: dict) -> tuple[int, int]:
    """(structural hash, compact JSON length) of ``v``, bottom up; each container's pair is
    kept in ``sizes`` by id. One visit a node: linear in the document."""
    if isinstance(v, dict):
        parts, n = [], 1
        for k, x in v.items():
            h, m = _tree_sizes(x, sizes)
            parts.append((k, h))
            n += len(k) + 4 + m
        pair = (hash(("{", tuple(parts))), n)
    elif isinstance(v, list):
        parts, n = [], 1
        for x in v:
            h, m = _tree_sizes(x, sizes)
            parts.append(h)
            n += m + 1
        pair = (hash(("[", tuple(parts))), n)
    else:
        return hash((type(v), v)), len(_dump(v))
    sizes[id(v)] = pair
    return pair


def same_as_earlier(value):
    """An object or array equal to one written earlier in the document (a dependency printed
    again under each package that needs it, ``npm ls --all --long --json``) and at least
    ``SAME_TREE_MIN_CHARS`` long is written ``"[sqz: same as $.dependencies.express.dependencies.debug]"``:
    the path from the document's root, keys spelled as notes spell them, ``[i]`` for an
    array's item. Candidates are found by a structural hash and confirmed by comparing the
    compact JSON; only values written out in full are referred to."""
    sizes: dict[int, tuple[int, int]] = {}
    _tree_sizes(value, sizes)
    first: dict[int, tuple[str, object, list]] = {}

    def walk(v, path: str):
        h, n = sizes[id(v)]
        if n >= SAME_TREE_MIN_CHARS:
            seen = first.get(h)
            if seen is not None and seen[1] == v:
                seen[2][0] = seen[2][0] or _dump(seen[1])
                if _dump(v) == seen[2][0]:
                    return f"{SAME_AS}{seen[0]}]"
            elif seen is None:
                first[h] = (path, v, [None])
        if isinstance(v, dict):
            return {k: walk(x, path + (("." if key_name(k)[0] != "[" else "") + key_name(k)))
                    if isinstance(x, (dict, list)) else x for k, x in v.items()}
        return [walk(x, f"{path}[{i}]") if isinstance(x, (dict, list)) else x for i, x in enumerate(v)]

    return walk(value, "$") if isinstance(value, (dict, list)) else value


# ------------------------------------------------------- version lists

MIN_VERSIONS = 8
_SEMVER = lazy(r"(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)\Z")  # no leading zeros: runs are exact
# possessive: no backtracking, linear in the (at most 64-character) string
_VERSIONISH = lazy(r"v?\d++(?:\.\d++)*+(?:[-+._]?[0-9A-Za-z]++)*+\Z")


def version_runs(items: list[str]) -> str:
    """Versions in their order, each run of consecutive patch releases of one minor written
    as a shell brace range: ``4.10.0 4.10.1 … 4.10.8`` → ``4.10.{0..8}``."""
    out, i, n = [], 0, len(items)
    while i < n:
        m = _SEMVER.match(items[i])
        j = i
        if m:
            base, patch = m.group(1, 2), int(m.group(3))
            while j + 1 < n:
                nxt = _SEMVER.match(items[j + 1])
                if not (nxt and nxt.group(1, 2) == base and nxt.group(3) == str(patch + j + 1 - i)):
                    break
                j += 1
        out.append(f"{m.group(1)}.{m.group(2)}.{{{m.group(3)}..{patch + j - i}}}" if j > i else items[i])
        i = j + 1
    return ", ".join(out)


def compact_versions(v):
    """A list of ``MIN_VERSIONS`` or more version strings (``npm view … versions``) written as
    one line of runs, when that is much shorter: ``"[sqz: 262 versions] 0.14.{0..1}, 1.0.{0..8}, …"``."""
    if isinstance(v, dict):
        return {k: compact_versions(x) if isinstance(x, (dict, list)) else x for k, x in v.items()}
    if not isinstance(v, list):
        return v
    if len(v) >= MIN_VERSIONS and all(isinstance(x, str) and len(x) <= 64 and _VERSIONISH.match(x) for x in v):
        line = version_runs(v)
        if len(line) * 3 < sum(len(x) + 3 for x in v) * 2:
            return f"[sqz: {len(v)} versions] {line}"
        return v
    return [compact_versions(x) if isinstance(x, (dict, list)) else x for x in v]


MARK = "[sqz:"   # how this module's markers begin; a document already holding it is left as it is


class _Refused(ValueError):
    """Valid JSON this module will not rewrite (it stays JSON, passed through as it is)."""


_REFUSED = object()


def _loads(s: str):
    """``json.loads``, refusing (ValueError) what a re-dump would not say the same way:
    NaN/Infinity, a number a double cannot hold (``1e400``, ``0.10000000000000000001``),
    and an object with a key twice (``json`` keeps the last value, silently)."""
    return json.loads(s, parse_constant=_reject_constant, parse_float=_exact_float,
                      object_pairs_hook=_unique_keys)


def _exact_float(s: str) -> float:
    f = float(s)
    if repr(f) != s:
        import math
        from decimal import Decimal

        if not math.isfinite(f) or Decimal(s) != Decimal(repr(f)):
            raise _Refused(f"number {s[:40]} does not survive as a double")
    return f


def _unique_keys(pairs: list) -> dict:
    d = dict(pairs)
    if len(d) != len(pairs):
        raise _Refused("duplicate key")
    return d


def parse_document(text: str):
    """The parsed JSON object/array, or None (not JSON, truncated, a bare scalar, NaN), or
    ``_REFUSED`` (JSON with a key twice or a number a double cannot hold: said as it is)."""
    if _cache[0] is text:
        return _cache[1]
    s = text.strip()
    value = None
    if s[:1] in "{[" and s[-1:] in "}]":
        try:
            value = _loads(s)
        except _Refused:
            value = _REFUSED
        except ValueError as exc:
            value = _stream(s) if str(exc).startswith("Extra data") else None
        except RecursionError:
            value = None
    if not isinstance(value, (dict, list)) and value is not _REFUSED:
        value = None
    _cache[0], _cache[1] = text, value
    return value


class Stream(list):
    """Documents printed one after another (``kubectl … -f DIR -o json``, ``jq`` without
    ``-c``): each an object or an array, only whitespace between them."""


def _stream(s: str):
    """The documents of ``s`` as a ``Stream`` (two or more), ``_REFUSED``, or None."""
    decoder = json.JSONDecoder(parse_constant=_reject_constant, parse_float=_exact_float,
                               object_pairs_hook=_unique_keys)
    docs, i, n = Stream(), 0, len(s)
    multiline = False   # one document a line is JSON Lines: the jsonl kind's
    try:
        while i < n:
            start = i
            doc, i = decoder.raw_decode(s, i)
            if not isinstance(doc, (dict, list)):
                return None
            multiline = multiline or s.find("\n", start, i) >= 0
            docs.append(doc)
            while i < n and s[i] in " \t\r\n":
                i += 1
    except _Refused:
        return _REFUSED
    except (ValueError, RecursionError):
        return None
    return docs if len(docs) >= 2 and multiline else None


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
        return _compress_wrapped(request)
    if value is _REFUSED or _holds_mark(request.text, value):
        return None   # (a marker of ours already there could not be told from one we add)
    if isinstance(value, Stream):
        return _compress_stream(value)
    from sqz_core.api import estimate
    from .toon import encode

    try:
        pruned, notes = hoist_shared(same_as_sibling(compact_versions(prune(value, is_json_schema(value)))))
        if not notes:   # (a note reads on the objects at its path: a copy elsewhere would blur it)
            pruned = same_as_earlier(pruned)
        out = encode(pruned)
    except RecursionError:   # nested deeper than the passes recurse: left as it is
        return None
    compact = json.dumps(pruned, ensure_ascii=False, separators=(",", ":"))
    if not out or (compact and estimate(compact) < estimate(out)) or (
            any(line.startswith(_NOTE) for line in out.splitlines())):
        out = compact   # (a TOON line that would read as a note: compact JSON has one line, "{…" or "[…")
    return "\n".join(notes + [out]) + "\n" if out else None


WRAP_LINES = 50   # at most this many lines of a tool's own messages above or below the document


def _compress_wrapped(request) -> str | None:
    """A document the program printed between lines of its own (``pip list --format=json``'s
    ``WARNING: …`` above it, npm's ``npm error …`` below): those lines as they are, the
    document between them compressed. None unless the lines from the first that opens with
    ``{``/``[`` to the last that closes with ``}``/``]`` are one document."""
    text = request.text
    lines = text.rstrip("\n").split("\n")
    n = len(lines)
    first = next((i for i in range(min(n, WRAP_LINES + 1)) if lines[i][:1] in ("{", "[")), None)
    last = next((j for j in range(n - 1, max(-1, n - 2 - WRAP_LINES), -1) if lines[j].rstrip()[-1:] in ("}", "]")), None)
    if first is None or last is None or last < first or (first == 0 and last == n - 1):
        return None
    # a message line opens with a word (``WARNING:``, ``npm``): not a cut or damaged document
    if not all(line[:1].isalpha() for line in lines[:first] + lines[last + 1:]):
        return None
    body = "\n".join(lines[first:last + 1])
    value = parse_document(body)
    if value is None or value is _REFUSED or isinstance(value, Stream):
        return None
    inner = compress_json(request.replace(text=body + "\n"))
    if inner is None:
        return None
    return "\n".join(lines[:first] + [inner.rstrip("\n")] + lines[last + 1:]) + "\n"


def _holds_mark(text: str, value) -> bool:
    """Whether the document already says ``[sqz:``, as it is or spelled with ``\\u`` escapes
    (``"\\u005bsqz: same as k]"`` is written back unescaped)."""
    if MARK in text:
        return True
    if "\\u" not in text:
        return False
    try:
        return MARK in _dump(value)
    except RecursionError:   # nested deeper than json writes: left as it is
        return True


def _compress_stream(docs: Stream) -> str | None:
    """Documents one after another, written as JSON Lines (one compact document a line),
    then compressed as JSON Lines are: the same values, said once where they repeat."""
    from sqz_core.api import FormatRequest

    lines = [json.dumps(d, ensure_ascii=False, separators=(",", ":")) for d in docs]
    if any(not line.startswith("{") for line in lines):
        return "\n".join(lines) + "\n"   # arrays: compact, each on its line
    return compress_jsonl(FormatRequest("\n".join(lines) + "\n", None))


def _parse_line(line: str):
    s = line.strip()
    if not (s.startswith("{") and s.endswith("}")):
        return None
    try:
        v = _loads(s)
    except (ValueError, RecursionError):
        return None
    return v if isinstance(v, dict) else None


def _lines(text: str) -> list[str]:
    """Lines split at ``\\n`` (``\\r\\n`` too) only: JSON may hold U+0085 or U+2028 raw inside a
    string, where ``str.splitlines`` would tear a record in two."""
    lines = (text[:-1] if text.endswith("\n") else text).split("\n")
    return [line[:-1] if line.endswith("\r") else line for line in lines]


def looks_like_jsonl(text: str) -> bool:
    """Two or more lines that are JSON objects, and at least half of the non-blank lines."""
    objects = other = 0
    for i, line in enumerate(_lines(text)):
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
    """Each JSON line pruned and written compactly; fields with one value in every record of
    a type (the same first field: ``"reason":"compiler-artifact"``) said once, before its first
    record; runs of flat same-shaped records become one TOON table; other lines kept verbatim.
    Any ``{...}`` line that is invalid → None."""
    from .toon import encode_table, is_tabular

    if MARK in request.text:
        return None   # a marker of ours already there could not be told from one we add
    lines = _lines(request.text)
    records: dict[int, dict] = {}
    for i, line in enumerate(lines):
        s = line.strip()
        if s.startswith(_NOTE):
            return None   # a line of the input would read as one of our notes
        if s.startswith("{") and s.endswith("}"):
            v = _parse_line(s)
            if v is None or _holds_mark(s, v):
                return None   # (a marker of ours spelled with escapes: written back as one)
            records[i] = v
    if len(records) < 2:
        return None
    try:
        rg = _is_rg_stream(records)
        for i, v in records.items():
            records[i] = prune(_rg_lean(v) if rg else v)
        notes_at = _hoist_records(records)
    except RecursionError:   # nested deeper than the passes recurse: left as it is
        return None

    out: list[str] = []
    run: list[dict] = []

    def flush() -> None:
        if len(run) >= 3 and is_tabular(run):
            note, rows = _run_constants(run)
            out.extend(note)
            out.extend(encode_table(rows))
        else:
            out.extend(_dump(r) for r in run)
        run.clear()

    for i, line in enumerate(lines):
        v = records.get(i)
        if v is None:
            flush()
            out.append(line)
            continue
        if i in notes_at or (run and v.keys() != run[0].keys()):
            flush()
        out.extend(notes_at.get(i, ()))
        run.append(v)
    flush()
    return "\n".join(out) + "\n"


ROW_NOTE = "[every row below has "


def _run_constants(run: list[dict]) -> tuple[list[str], list[dict]]:
    """Fields with one value in every record of a run (a log's user, database, backend type):
    said once above the run's table (``[every row below has "user":"postgres"]``), the table
    without them; nothing when that would not be shorter or would leave no column."""
    first = run[0]
    const = [k for k, v in first.items() if all(r[k] == v for r in run[1:])]
    if not const or len(const) == len(first):
        return [], run
    said = ",".join(f"{_dump(k)}:{_dump(first[k])}" for k in const)
    saved = (len(run) - 1) * sum(len(_dump(first[k])) + 1 for k in const)
    if saved <= len(ROW_NOTE) + len(said) + 1:
        return [], run
    return [f"{ROW_NOTE}{said}]"], [{k: v for k, v in r.items() if k not in const} for r in run]


_RG_TYPES = frozenset({"begin", "match", "context", "end", "summary"})


def _is_rg_stream(records: dict[int, dict]) -> bool:
    """ripgrep's ``--json`` events: every record a begin/match/context/end/summary with its data."""
    for v in records.values():
        kind, data = v.get("type"), v.get("data")
        if kind not in _RG_TYPES or not isinstance(data, dict):
            return False
        if kind in ("match", "context") and not ("lines" in data and "line_number" in data and "path" in data):
            return False
        if kind in ("begin", "end") and "path" not in data:
            return False
    return True


def _rg_lean(v: dict) -> dict:
    """An rg event without what restates its line or times the search: a match's byte offset
    and its submatches (the matched text and its columns, found again by the pattern in the
    line), the elapsed times of a file and of the run. Path, line number, text and counts stay."""
    data = v["data"]
    if v["type"] in ("match", "context"):
        data = {k: x for k, x in data.items() if k not in ("absolute_offset", "submatches")}
    elif v["type"] in ("end", "summary"):
        data = {k: ({kk: xx for kk, xx in x.items() if kk != "elapsed"} if k == "stats" and isinstance(x, dict) else x)
                for k, x in data.items() if k != "elapsed_total"}
    return {**v, "data": data}


def _hoist_records(records: dict[int, dict]) -> dict[int, list[str]]:
    """``hoist_shared`` per record type, in place: line index -> notes to print before it."""
    groups: dict[tuple, list[int]] = {}
    for i, v in records.items():
        if v:
            k, x = next(iter(v.items()))
            if isinstance(x, str):
                groups.setdefault((k, x), []).append(i)
    # A type is named by its first field; a record showing that field and value further in
    # ({"id":5,"reason":"x"}) would read as one of its lines too, so such a type gets no note.
    blurred = {kx for v in records.values() for kx in list(v.items())[1:]
               if isinstance(kx[1], str) and kx in groups}
    notes_at: dict[int, list[str]] = {}
    for (k, x), idx in groups.items():
        if len(idx) < MIN_ITEMS or (k, x) in blurred:
            continue
        disc = f"{_dump(k)}:{_dump(x)}"

        def name(sig: tuple, disc=disc) -> str:
            rest = _sig_name(sig[1:])
            return f"{disc} line" + (f"'s {rest}" if rest else "")

        hoisted, notes = hoist_shared([records[i] for i in idx], name, keep_first=True)
        if notes:
            for i, v in zip(idx, hoisted):
                records[i] = v
            notes_at[idx[0]] = notes
    return notes_at
