"""References to content the model already holds: exact repeats, line slices, near-duplicates.

Every reference points at bytes served to the *same* agent session within the
freshness window (or pinned), so the model has them in context:

* exact repeat        → ``§ref:HASH§``
* a line slice of a fresh full read whose served bytes contain it (``sed -n 41,80p``
  after ``cat``)     → ``§ref:HASH:L41-80§``
* a re-read after a small edit → a delta: the changed lines with one unchanged line
  on each side, against the version the model has; ``sqz expand NEW`` prints the
  new version exactly.

Near-duplicate candidates come from bottom-k MinHash sketches of each served file's
lines, kept for the whole session, so an early version still matches late in a
long session (the version must still be fresh to be used).
"""

from __future__ import annotations

import heapq
import time
import zlib

TYPE_CHECKING = False  # not typing's: importing typing would cost every hook call (type checkers know the name)

if TYPE_CHECKING:  # pragma: no cover - types only
    from .storeproto import StoreProtocol

try:  # the C implementation without hashlib's OpenSSL set-up (saves a few ms per call)
    from _sha256 import sha256
except ImportError:  # pragma: no cover - other Pythons
    try:
        from _sha2 import sha256
    except ImportError:
        from hashlib import sha256

MIN_BYTES = 160       # shorter content is always sent in full
SKETCH_K = 32         # values kept per sketch
MIN_SHARED = 12       # sketch values a candidate must share (≈ Jaccard ≥ 0.2) to be diffed
MAX_DELTA_LINES = 20000
MAX_DELTA_RATIO = 0.6  # a delta is used only when at most this share of the full text
SHORTENED_NOTE = "shown shortened"  # in a ref to content the model got shortened (see ``exact``)


def ref_ttl() -> float:
    """Freshness window for refs, from ``SQZ_REF_TTL_SECS`` (default 30 min; 0 disables refs)."""
    from .config import env

    raw = env("SQZ_REF_TTL_SECS")
    if raw is None:
        return 1800.0
    try:
        return max(0.0, float(raw))
    except ValueError:
        return 1800.0


def short_age(seconds: float) -> str:
    seconds = max(0, int(seconds))
    if seconds < 60:
        return f"{seconds}s"
    if seconds < 3600:
        return f"{seconds // 60}m"
    return f"{seconds // 3600}h"


def sketch(data: bytes) -> list[int]:
    """Bottom-k MinHash sketch of the set of non-blank lines (k = ``SKETCH_K``)."""
    hashes = {zlib.crc32(line.strip()) for line in data.splitlines() if line.strip()}
    return heapq.nsmallest(SKETCH_K, hashes)


def digest_of(data: bytes) -> str:
    """The content's id: the SHA-256 of its bytes, in hex (what the store keys blobs and refs by).

    The last large ``bytes`` object hashed is remembered by identity (a call hashes its raw
    input in the ref lookup, again for its store key and its rows): each is hashed once."""
    if type(data) is bytes and len(data) >= _REMEMBER_FROM:
        for seen, hexdigest in _recent:
            if seen is data:
                return hexdigest
        fresh: str = sha256(data).hexdigest()
        _recent.insert(0, (data, fresh))
        del _recent[1:]
        return fresh
    whole: str = sha256(data).hexdigest()
    return whole


_REMEMBER_FROM = 65536  # smaller inputs hash in microseconds
# (held, so an identity check cannot meet a new object at a freed address; bytes are immutable)
_recent: list[tuple[bytes, str]] = []


def shortened_key(digest: str, command: str | None) -> str:
    """The served-mark key of content the model got *shortened* (a lossy or folded rendering) by ``command``.

    Such content is not "held" by the model: only a rerun of the same command may answer it
    with a ref; any other read of the same bytes (``cat`` of the log, an ``expand``) gets
    the content again. Not a blob hash, so it never matches a full-content lookup.
    """
    return digest_of(f"shortened\0{command or ''}\0{digest}".encode("utf-8", "surrogatepass"))


def _expand_words() -> str:
    from .runnable import sqz_command

    return sqz_command()


def _ref_id(store: StoreProtocol, digest: str) -> str:
    """The id a ref prints: the shortest unique prefix of ``digest`` (12+ hex, as the recovery line's)."""
    from .gate import short_id

    return short_id(store, digest)


def exact(store: StoreProtocol, session: str, digest: str, ttl: float, command: str | None = None) -> str | None:
    """``§ref:HASH§`` for content this session was served in full within ``ttl``, or that is pinned.

    Content served shortened gets a ref only on a rerun of the same ``command``, worded
    as such: it is never reported as "unchanged" content the model holds.
    """
    sqz = _expand_words()
    if store.is_pinned(digest):
        return f"§ref:{_ref_id(store, digest)}§ pinned content (`{sqz} expand` this ref prints it)\n"
    served = store.last_served(session, digest)
    if served is not None and time.time() - served <= ttl:
        return (f"§ref:{_ref_id(store, digest)}§ unchanged since {short_age(time.time() - served)} ago "
                f"(`{sqz} expand` this ref prints it)\n")
    served = store.last_served(session, shortened_key(digest, command))
    if served is not None and time.time() - served <= ttl:
        return (f"§ref:{_ref_id(store, digest)}§ same output as {short_age(time.time() - served)} ago, "
                f"{SHORTENED_NOTE} then (`{sqz} expand` this ref prints it in full)\n")
    return None


def _line_range(base: bytes, data: bytes) -> tuple[int, int] | None:
    """1-based inclusive line numbers of ``data`` inside ``base`` if it is an exact run of whole lines."""
    start = 0
    while True:
        idx = base.find(data, start)
        if idx < 0:
            return None
        end = idx + len(data)
        at_line_start = idx == 0 or base[idx - 1] == 10
        at_line_end = data.endswith(b"\n") or end == len(base)
        if at_line_start and at_line_end:
            first = base.count(b"\n", 0, idx) + 1
            last = first + data.count(b"\n") - (1 if data.endswith(b"\n") else 0)
            lines = base.splitlines(keepends=True)
            if b"".join(lines[first - 1:last]) == data:
                return first, last
        start = idx + 1


def slice_of_fresh_read(store: StoreProtocol, session: str, data: bytes, ttl: float) -> str | None:
    """``§ref:HASH:L41-80§`` when ``data`` is whole lines of a fresh full read served to this session."""
    if len(data) < MIN_BYTES or data.count(b"\n") < 2:
        return None
    now = time.time()
    for base_hash, out_hash in store.recent_files(session, now - ttl):
        base = store.get_blob(base_hash)
        if base is None or len(base) <= len(data):
            continue
        rng = _line_range(base, data)
        if rng is None:
            continue
        served = store.get_blob(out_hash) if out_hash else base
        if served is None or data not in served:
            continue  # the model never saw these lines (a lossy stage dropped them)
        first, last = rng
        age = now - (store.last_served(session, base_hash) or now)
        return (f"§ref:{_ref_id(store, base_hash)}:L{first}-{last}§ part of the file read {short_age(age)} ago "
                f"(`{_expand_words()} expand` this ref prints it)\n")
    return None


def render_delta(base_lines: list[str], new_lines: list[str],
                 keys: tuple[list[str], list[str]] | None = None) -> list[str]:
    """Hunks ``@@ -a,n +b,m @@`` turning ``base_lines`` into ``new_lines``, one unchanged line around each.

    ``keys`` (one comparison key per line of each side) decide which lines are equal when the
    lines themselves differ in a part that must not count (a host's line-number prefix, which an
    inserted line shifts); the unchanged lines shown are the new side's.
    """
    from difflib import SequenceMatcher

    ka, kb = keys if keys is not None else (base_lines, new_lines)
    out: list[str] = []
    ops = SequenceMatcher(None, ka, kb, autojunk=False).get_opcodes()
    for tag, i1, i2, j1, j2 in ops:
        if tag == "equal":
            continue
        # one unchanged line on each side
        b0, b1 = max(0, j1 - 1), min(len(new_lines), j2 + 1)
        a0, a1 = max(0, i1 - 1), min(len(base_lines), i2 + 1)
        out.append(f"@@ -{a0 + 1},{a1 - a0} +{b0 + 1},{b1 - b0} @@")
        if j1 > b0:
            out.append(" " + new_lines[b0])
        out.extend("-" + line for line in base_lines[i1:i2])
        out.extend("+" + line for line in new_lines[j1:j2])
        if j2 < b1:
            out.append(" " + new_lines[j2])
    return out


def delta(store: StoreProtocol, session: str, digest: str, data: bytes, ttl: float, values: list[int]) -> str | None:
    """A line delta against a fresh near-duplicate this session holds, when that is much shorter."""
    if len(data) < MIN_BYTES or not values:
        return None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    new_lines = text.split("\n")
    if len(new_lines) > MAX_DELTA_LINES:
        return None
    now = time.time()
    for base_hash, shared in store.similar(session, values, exclude=digest):
        if shared < min(MIN_SHARED, len(values)):
            break
        served_at = store.last_served(session, base_hash)
        if served_at is None or now - served_at > ttl:
            continue
        base = store.get_blob(base_hash)
        if base is None:
            continue
        try:
            base_text = base.decode("utf-8")
        except UnicodeDecodeError:
            continue
        base_lines = base_text.split("\n")
        if len(base_lines) > MAX_DELTA_LINES:
            continue
        body = render_delta(base_lines, new_lines)
        if not body:
            continue
        changed = sum(1 for line in body if line[:1] in "+-" and not line.startswith("@@"))
        head = (f"§delta:{base_hash[:16]}→{digest[:16]}§ changed since read {short_age(now - served_at)} ago; "
                f"{changed} changed line(s), one unchanged line around each (`{_expand_words()} expand {digest[:16]}` "
                f"restores the new version)")
        rendered = head + "\n" + "\n".join(body) + "\n"
        if len(rendered) <= MAX_DELTA_RATIO * len(text):
            return rendered
    return None
