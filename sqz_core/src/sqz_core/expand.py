"""``sqz expand``: from a reference (``§ref:ID§``, ``ref:ID``, ``HASH``, a unique hex prefix, a whole ref
line ``§ref:ID§ unchanged since …`` or recovery line ``[sqz expand ID]``) to the original bytes;
``short_id`` (``gate``): the hex id a ref prints; a recovery line prints ``runnable.short_decimal``'s."""

from __future__ import annotations

import re

from .gate import ID_DIGITS as ID_DIGITS  # public here too
from .gate import short_id as short_id
from .runnable import PATTERN, is_decimal, matches

TYPE_CHECKING = False  # not typing's: importing typing would cost every hook call (type checkers know the name)

if TYPE_CHECKING:  # pragma: no cover - types only
    from .storeproto import StoreProtocol

# ``§ref:ID§``, ``ref:ID``, ``ID``, each with an optional ``:L41-80``; after a closing ``§`` the rest
# of a pasted ref line (``§ref:ID§ unchanged since 2m ago (…)``) is ignored.
_REF = re.compile(r"(?:§?ref:)?(" + PATTERN + r")(?::L(\d+)-(\d+))?(?:§(?:[ \t][^\n]*)?)?\Z")  # on the stripped text


class ExpandError(Exception):
    """The reference is malformed, unknown or ambiguous (the message says which)."""


def parse_ref(ref: str) -> tuple[str, tuple[int, int] | None]:
    """``(id, line range or None)`` from any accepted spelling of a reference; the id is a hex prefix
    (lower case) or a decimal id (``n`` + digits, ``runnable.encode``)."""
    if ref.lstrip().startswith("["):  # the whole recovery line, pasted as the argument
        from .runnable import RECOVERY_LINE

        line = RECOVERY_LINE.match(ref.strip())
        if line:
            return line.group("id"), None
    m = _REF.match(ref.strip())
    if not m:
        raise ExpandError(f"{ref!r} is not a reference (expected §ref:ID§, ID or ID:L10-20; ID: n + 15 digits or more, or 4 hex digits or more)")
    rng = None
    if m.group(2):
        first, last = int(m.group(2)), int(m.group(3))
        if first < 1 or last < first:
            raise ExpandError(f"bad line range L{first}-{last}")
        rng = (first, last)
    return m.group(1).lower(), rng  # ``N…`` as ``n…``


def unique_hash(store: StoreProtocol, prefix: str) -> str:
    """The one stored hash the id names (a hex ``prefix`` or a decimal id); ``ExpandError`` if none or several."""
    found_all = matches(store, prefix) if is_decimal(prefix) else store.find_hashes(prefix.lower(), limit=3)
    if not found_all:
        raise ExpandError(f"no stored output matches {prefix!r} (it may have been pruned, or was never cached)")
    if len(found_all) > 1:
        raise ExpandError(f"{prefix!r} matches more than one stored output; give more digits")
    found: str = found_all[0]
    return found


def resolve(store: StoreProtocol, ref: str) -> bytes:
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
