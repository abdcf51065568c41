"""``sqz expand``: from a reference (``§ref:HASH§``, ``HASH``, a unique hex prefix) to the original bytes."""

from __future__ import annotations

import re

_REF = re.compile(r"^\s*(?:§ref:)?([0-9a-fA-F]{4,64})(?::L(\d+)-(\d+))?(?:§)?\s*$")


class ExpandError(Exception):
    """The reference is malformed, unknown or ambiguous (the message says which)."""


def parse_ref(ref: str) -> tuple[str, tuple[int, int] | None]:
    """``(hex prefix, line range or None)`` from any accepted spelling of a reference."""
    m = _REF.match(ref)
    if not m:
        raise ExpandError(f"{ref!r} is not a reference (expected §ref:HEX§, HEX or HEX:L10-20, at least 4 hex digits)")
    rng = None
    if m.group(2):
        first, last = int(m.group(2)), int(m.group(3))
        if first < 1 or last < first:
            raise ExpandError(f"bad line range L{first}-{last}")
        rng = (first, last)
    return m.group(1).lower(), rng


def unique_hash(store, prefix: str) -> str:
    """The one stored hash starting with the hex ``prefix``; ``ExpandError`` if none or several."""
    matches = store.find_hashes(prefix, limit=3)
    if not matches:
        raise ExpandError(f"no stored output matches {prefix!r} (it may have been pruned, or was never cached)")
    if len(matches) > 1:
        raise ExpandError(f"{prefix!r} matches more than one stored output; give more hex digits")
    return matches[0]


def resolve(store, ref: str) -> bytes:
    """The stored original bytes for ``ref`` (or the requested lines of it)."""
    prefix, rng = parse_ref(ref)
    data = store.get_blob(unique_hash(store, prefix))
    if data is None:  # pragma: no cover - raced with a prune
        raise ExpandError(f"{prefix!r} was removed while reading it")
    if rng is None:
        return data
    lines = data.splitlines(keepends=True)
    first, last = rng
    if last > len(lines):
        raise ExpandError(f"{prefix}: L{first}-{last} is past the end ({len(lines)} lines)")
    return b"".join(lines[first - 1:last])
