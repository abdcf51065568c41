"""Allowed roots: the server reads only inside them, symlinks included.

The working directory is the default root; ``--root DIR`` adds more. A path is resolved
(``..`` and every symlink followed) before the check, so a link that points outside the
roots is refused like the outside path itself.
"""

from __future__ import annotations

import os


class PathRefused(Exception):
    """The path is outside the allowed roots, or cannot be used; the message says which."""


class Roots:
    """The directories a tool may read below."""

    def __init__(self, dirs) -> None:
        real = []
        for d in dirs:
            r = os.path.realpath(os.path.abspath(os.path.expanduser(d)))
            if r not in real:
                real.append(r)
        if not real:
            real.append(os.path.realpath(os.getcwd()))
        self.dirs = tuple(real)

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
        real = os.path.realpath(full)
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
