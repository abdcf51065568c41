"""Write-behind for a store that cannot take a call's writes now: a private local spool, replayed later.

A batch is a list of ``(statement key, params)`` (``storesql``). ``append`` writes one
batch as one file (written aside, then renamed in: a reader never sees half of it);
``claim`` takes every waiting file by renaming it to a name of this process (two
replayers never send the same batch), ``done`` deletes what was sent, ``give_back``
returns what could not be. A claim older than ``STALE_SECS`` (its process died) is
waiting again. Standard library only (``marshal``): the hot path can afford it.
"""

from __future__ import annotations

import marshal
import os
import time

TYPE_CHECKING = False  # not typing's: importing typing would cost every hook call (type checkers know the name)

if TYPE_CHECKING:  # pragma: no cover - types only
    from typing import Any

STALE_SECS = 60.0
_SUFFIX = ".batch"


class Spool:
    """The spool directory of one store (created private, 0700)."""

    def __init__(self, path: str) -> None:
        self.path = path

    def append(self, batch: list[Any]) -> None:
        """Keep ``batch``; raises ``OSError`` when it cannot be kept (then the writes are lost)."""
        os.makedirs(self.path, mode=0o700, exist_ok=True)
        name = f"{time.time_ns():020d}-{os.getpid()}-{id(batch) & 0xFFFFFF:06x}"
        tmp = os.path.join(self.path, f".{name}.tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            os.write(fd, marshal.dumps([(k, tuple(p)) for k, p in batch]))
        finally:
            os.close(fd)
        os.replace(tmp, os.path.join(self.path, name + _SUFFIX))

    def waiting(self) -> list[str]:
        """Names of the batches waiting, oldest first (an empty list when there is no spool)."""
        try:
            names = os.listdir(self.path)
        except OSError:
            return []
        now, ready = time.time(), []
        for name in names:
            if name.endswith(_SUFFIX):
                ready.append(name)
            elif ".claim-" in name and not name.endswith(".rejected"):  # a claim whose process died: waiting again
                full = os.path.join(self.path, name)
                try:
                    if now - os.stat(full).st_mtime > STALE_SECS:
                        os.replace(full, os.path.join(self.path, name.split(".claim-", 1)[0]))
                        ready.append(name.split(".claim-", 1)[0])
                except OSError:
                    pass
        return sorted(ready)

    def claim(self, limit: int = 256) -> list[tuple[str, list[Any]]]:
        """Take up to ``limit`` waiting batches: ``[(claimed path, batch)]``, oldest first."""
        out = []
        tag = f".claim-{os.getpid()}"
        for name in self.waiting()[:limit]:
            src = os.path.join(self.path, name)
            dst = src + tag
            try:
                os.replace(src, dst)
            except OSError:
                continue  # another process took it
            try:
                with open(dst, "rb") as fh:
                    batch = marshal.load(fh)
            except (OSError, ValueError, EOFError, TypeError):
                try:
                    os.replace(dst, src + ".rejected")  # kept for inspection, never retried
                except OSError:
                    pass
                continue
            try:  # the claim's age is its own, not the batch's (see ``waiting``)
                os.utime(dst)
            except OSError:
                pass
            out.append((dst, batch))
        return out

    @staticmethod
    def done(claimed: list[tuple[str, list[Any]]]) -> None:
        for path, _ in claimed:
            try:
                os.unlink(path)
            except OSError:
                pass

    @staticmethod
    def give_back(claimed: list[tuple[str, list[Any]]]) -> None:
        for path, _ in claimed:
            try:
                os.replace(path, path.split(".claim-", 1)[0])
            except OSError:
                pass

    def batches(self) -> list[list[Any]]:
        """Every waiting batch, without claiming it (for reads of content not yet in the store)."""
        out = []
        for name in self.waiting():
            try:
                with open(os.path.join(self.path, name), "rb") as fh:
                    out.append(marshal.load(fh))
            except (OSError, ValueError, EOFError, TypeError):
                continue
        return out

    def blob(self, digest: str) -> bytes | None:
        """The bytes of ``digest`` if a waiting batch stores them."""
        for batch in self.batches():
            for key, params in batch:
                if key == "put_blob" and params[0] == digest:
                    return bytes(params[1])
        return None

    def hashes(self, prefix: str) -> list[str]:
        """Hashes starting with ``prefix`` whose bytes a waiting batch stores."""
        return sorted({params[0] for batch in self.batches() for key, params in batch
                       if key == "put_blob" and str(params[0]).startswith(prefix)})
