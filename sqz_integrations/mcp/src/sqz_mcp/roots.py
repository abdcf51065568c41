"""Allowed roots: the server reads only inside them, symlinks included.

The working directory is the default root; ``--root DIR`` adds more. A client that declares
the roots capability replaces the working directory with the roots it lists (``roots/list``). A path is resolved
(``..`` and every symlink followed) before the check, so a link that points outside the
roots is refused like the outside path itself.
"""

from __future__ import annotations

import os


class PathRefused(Exception):
    """The path is outside the allowed roots, or cannot be used; the message says which."""


def _real_dirs(dirs) -> list[str]:
    real: list[str] = []
    for d in dirs:
        r = os.path.realpath(os.path.abspath(os.path.expanduser(d)))
        if r not in real:
            real.append(r)
    return real


def paths_from_uris(uris) -> list[str]:
    """Local paths of the ``file://`` URIs in ``uris`` (others, and remote hosts, are skipped)."""
    from urllib.parse import unquote, urlsplit
    out = []
    for uri in uris:
        if not isinstance(uri, str):
            continue
        parts = urlsplit(uri)
        if parts.scheme != "file" or parts.netloc not in ("", "localhost") or not parts.path:
            continue
        path = unquote(parts.path)
        if "\x00" not in path:
            out.append(path)
    return out


class Roots:
    """The directories a tool may read below."""

    def __init__(self, dirs, explicit=()) -> None:
        real = _real_dirs(dirs)
        if not real:
            real.append(os.path.realpath(os.getcwd()))
        self.dirs = tuple(real)
        self.explicit = tuple(_real_dirs(explicit))  # --root dirs: kept when the client sends its roots

    def set_client_roots(self, dirs) -> tuple[str, ...]:
        """Use the client's roots (directories that exist) plus the explicit ``--root`` dirs.

        The first client root becomes the base of relative paths. An empty or unusable list
        leaves the roots unchanged. Returns the roots now in force.
        """
        client = [d for d in _real_dirs(dirs) if os.path.isdir(d)]
        if client:
            self.dirs = tuple(dict.fromkeys([*client, *self.explicit]))
        return self.dirs

    @property
    def primary(self) -> str:
        return self.dirs[0]

    def contains(self, real_path: str) -> bool:
        for d in self.dirs:
            if real_path == d or real_path.startswith(d.rstrip(os.sep) + os.sep):
                return True
        return False

    def resolve(self, path: str | None) -> str:
        """The real path of ``path`` (relative paths are below the first root); raises ``PathRefused``."""
        if path is None or path == "":
            path = "."
        if not isinstance(path, str):
            raise PathRefused("path must be a string")
        if "\x00" in path:
            raise PathRefused("path contains a NUL byte")
        full = os.path.join(self.primary, os.path.expanduser(path))
        try:
            real = os.path.realpath(full)
        except OSError as exc:  # the tree changed under the walk (a link swapped in and out)
            raise PathRefused(f"{path}: cannot be resolved ({exc.strerror or exc})") from None
        if not self.contains(real):
            via = "" if os.path.abspath(full) == real else f" (it resolves to {real})"
            raise PathRefused(f"{path}: outside the allowed roots{via}; allowed: {', '.join(self.dirs)} "
                              "(start sqz-mcp with --root DIR to allow more)")
        if not os.path.exists(real):
            raise PathRefused(f"{path}: no such file or directory")
        return real

    def display(self, real_path: str) -> str:
        """``real_path`` relative to the first root when below it, else absolute."""
        base = self.primary
        if real_path == base:
            return "."
        if real_path.startswith(base.rstrip(os.sep) + os.sep):
            return os.path.relpath(real_path, base)
        return real_path

    def root_of(self, real_path: str) -> str | None:
        """The allowed root ``real_path`` lies in (the longest match), or None."""
        best = None
        for d in self.dirs:
            if real_path == d or real_path.startswith(d.rstrip(os.sep) + os.sep):
                if best is None or len(d) > len(best):
                    best = d
        return best

    def open_fd(self, real_path: str, directory: bool = False) -> int:
        """An fd for ``real_path`` opened component by component below its root, never following a link.

        ``resolve`` checks a path, but the tree may change before the open: here each directory is
        opened relative to the previous one with O_NOFOLLOW, so a component swapped for a symlink
        fails instead of leading outside the root. The last component is opened O_NONBLOCK, so a FIFO
        cannot block; the caller fstats the fd and keeps only what it expects. Raises ``OSError``.
        """
        root = self.root_of(real_path)
        if root is None:
            raise PathRefused(f"{real_path}: outside the allowed roots")
        rel = os.path.relpath(real_path, root)
        parts = [] if rel == "." else rel.split(os.sep)
        if any(p in ("", ".", "..") for p in parts):
            raise PathRefused(f"{real_path}: not a plain path below {root}")
        dir_flags = os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC
        fd = os.open(root, dir_flags)
        try:
            for i, name in enumerate(parts):
                last = i == len(parts) - 1
                if last:
                    flags = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
                    if directory:
                        flags |= os.O_DIRECTORY
                else:
                    flags = dir_flags | os.O_NOFOLLOW
                nxt = os.open(name, flags, dir_fd=fd)
                os.close(fd)
                fd = nxt
        except BaseException:
            os.close(fd)
            raise
        return fd
