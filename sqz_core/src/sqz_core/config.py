"""sqz's settings: environment variables over the project's config over the user's over defaults.

Files (``docs/configuration.md`` lists every key):

* user: ``$XDG_CONFIG_HOME/sqz/config.yaml`` (default ``~/.config/sqz/config.yaml``);
* project: the nearest ``.sqz.yaml``, or ``pyproject.toml`` with a ``[tool.sqz]`` table, found walking up
  from the working directory to the repository root (the first directory holding ``.git``); in one
  directory ``.sqz.yaml`` wins over ``pyproject.toml``.

Mappings merge key by key (project over user over the defaults); ``rules`` and ``formatters`` are
concatenated, the project's first (the first matching rule wins). A set ``SQZ_*`` variable wins over
every file, even when empty, exactly as before config files existed.

This module is on the hot path and stays stdlib-only: a call stats the candidate files and reads a
compiled JSON snapshot of the merged result from the cache directory, keyed by each file's path,
``mtime_ns`` and size. Only when that is stale does sqz-config (``sqz_config.api.build``) parse YAML
(ruamel.yaml) and validate it (jsonschema). A broken file never breaks a call: one line on stderr names
``file:line: key`` and the file is ignored. Without sqz-config installed, the files are not read (see
``MISSING``).
"""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False  # not typing's: this module is on the hot path (type checkers know the name)
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    # a candidate file, as the snapshot keys it (JSON): [path, mtime_ns, size, kind, owner uid]
    Entry = list[Any]
    Listed = dict[str, Any]  # a rule or formatter entry: {"spec", "file", "line", "scope"}

SNAPSHOT_VERSION = 4

# keys that are lists of objects, concatenated across files (the project's first)
LISTS = ("rules", "formatters")


class Config:
    """The merged configuration and where each value came from.

    ``values``: plain data (the files' mappings merged; no defaults filled in);
    ``origins``: dotted key (``rules.0.program``) -> ``"path:line"``;
    ``files``: the files that were read and used, user first; ``errors``: one line per ignored file;
    ``rules`` / ``formatters``: lists of ``{"spec": …, "file": path, "line": n, "scope": "user"|"project"}``.
    """

    __slots__ = ("values", "origins", "files", "errors", "rules", "formatters", "project_file", "user_file", "env")

    def __init__(self, values: dict[str, Any] | None = None, origins: dict[str, str] | None = None,
                 files: list[str] | None = None, errors: list[str] | None = None, rules: list[Listed] | None = None,
                 formatters: list[Listed] | None = None, project_file: str | None = None,
                 user_file: str | None = None, env: dict[str, str] | None = None) -> None:
        self.values = values or {}
        self.origins = origins or {}
        self.files = files or []
        self.errors = errors or []
        self.rules = rules or []
        self.formatters = formatters or []
        self.project_file = project_file
        self.user_file = user_file
        self.env = env or {}  # SQZ_* variable -> the files' value as the variable would carry it

    def get(self, key: str, default: Any = None) -> Any:
        """The value at dotted ``key`` in the files (no environment, no default), or ``default``."""
        node: Any = self.values
        for part in key.split("."):
            if not isinstance(node, dict) or part not in node:
                return default
            node = node[part]
        return node

    def origin(self, key: str) -> str | None:
        return self.origins.get(key)

    def to_json(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in self.__slots__}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Config:
        return cls(**{name: data.get(name) for name in cls.__slots__})


EMPTY = Config()


def _base(kind: str) -> str:
    home = os.path.expanduser("~")
    if sys.platform == "win32":
        root = os.environ.get("LOCALAPPDATA") or os.path.join(home, "AppData", "Local")
        return os.path.join(root, "sqz", "cache" if kind == "cache" else "")
    if sys.platform == "darwin":
        sub = "Caches" if kind == "cache" else "Application Support"
        return os.path.join(home, "Library", sub, "sqz")
    var, default = ("XDG_CACHE_HOME", ".cache") if kind == "cache" else ("XDG_DATA_HOME", os.path.join(".local", "share"))
    root = os.environ.get(var) or os.path.join(home, default)
    return os.path.join(root, "sqz")


def cache_dir() -> str:
    """``SQZ_CACHE_DIR``, or the user's cache directory (platform convention); never from a config file,
    since the config's compiled snapshot is kept there."""
    return os.environ.get("SQZ_CACHE_DIR") or _base("cache")


def user_path() -> str:
    """``$SQZ_CONFIG``, else ``$XDG_CONFIG_HOME/sqz/config.yaml`` (default ``~/.config/sqz/config.yaml``)."""
    own = os.environ.get("SQZ_CONFIG")
    if own is not None:
        return own or os.devnull  # set but empty: no user file
    root = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    return os.path.join(root, "sqz", "config.yaml")


def _stat(path: str, kind: str) -> Entry | None:
    """``[path, mtime_ns, size, kind, owner uid]`` of a regular file, else None."""
    try:
        st = os.stat(path)
    except (OSError, ValueError):
        return None
    return [path, st.st_mtime_ns, st.st_size, kind, st.st_uid] if (st.st_mode & 0o170000) == 0o100000 else None


def candidates(cwd: str | None = None) -> list[Entry]:
    """``[path, mtime_ns, size, kind, uid]`` of every existing file that may hold configuration, user's
    first (``kind``: user, project for ``.sqz.yaml``, pyproject).

    The walk stops at the first ``.sqz.yaml`` (the nearest project file) or at the repository root.
    A ``pyproject.toml`` is a candidate; whether it holds ``[tool.sqz]`` is settled when parsing.
    """
    found = []
    user = _stat(user_path(), "user")
    if user is not None:
        found.append(user)
    if cwd is None:
        try:
            cwd = os.getcwd()
        except OSError:
            return found
    d = cwd
    while True:
        own = _stat(os.path.join(d, ".sqz.yaml"), "project")
        if own is not None:
            found.append(own)
            break
        py = _stat(os.path.join(d, "pyproject.toml"), "pyproject")
        if py is not None:
            found.append(py)
        if os.path.lexists(os.path.join(d, ".git")):
            break
        parent = os.path.dirname(d)
        if parent == d:
            break
        d = parent
    return found


def _may_hold_settings(entry: Entry) -> bool:
    """A YAML file always; a ``pyproject.toml`` only when its bytes name ``tool.sqz`` (reading a few KB
    costs less than the snapshot, and writes nothing)."""
    if entry[3] != "pyproject":
        return True
    try:
        with open(entry[0], "rb") as fh:
            return b"tool.sqz" in fh.read()
    except OSError:
        return False


# -- the snapshot ------------------------------------------------------------------------------------
# [signature, Config, checked]: the working directory's configuration; while ``checked``, ``load()`` answers
# it without a look at the files (``refresh()``, at the start of every pipeline call, clears it)
_memo: list[Any] = [None, EMPTY, False]
_said: set[str] = set()  # error lines already written by this process


def refresh() -> None:
    """The next ``load()`` looks at the files again (one ``stat`` walk; a new snapshot only if one changed)."""
    _memo[2] = False


def forget() -> None:
    """Drop what this process remembers, errors already said included (a long-running process serving
    another call as if it were a new process: the daemon)."""
    _memo[0] = None
    _memo[1] = EMPTY
    _memo[2] = False
    _said.clear()


def _snapshot_path(signature: list[Entry]) -> str:
    key = "\0".join(entry[0] for entry in signature).encode("utf-8", "surrogateescape")
    try:
        from _sha256 import sha256
    except ImportError:  # pragma: no cover - other Pythons
        try:
            from _sha2 import sha256
        except ImportError:
            from hashlib import sha256
    return os.path.join(cache_dir(), "config", sha256(key).hexdigest()[:20] + ".json")


def _read_snapshot(path: str, signature: list[Entry]) -> Config | None:
    import json

    try:
        with open(path, encoding="utf-8") as fh:
            data = json.load(fh)
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("version") != SNAPSHOT_VERSION or data.get("sources") != signature:
        return None
    if data.get("unread") and _reader() is not None:  # sqz-config installed since: the files are read now
        return None
    try:
        return Config.from_json(data["config"])
    except (KeyError, TypeError):
        return None


def _write_snapshot(path: str, signature: list[Entry], cfg: Config, unread: bool = False) -> None:
    import json

    try:
        os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
        tmp = f"{path}.{os.getpid()}.tmp"
        with open(tmp, "w", encoding="utf-8") as fh:
            json.dump({"version": SNAPSHOT_VERSION, "sources": signature, "config": cfg.to_json(),
                       "unread": unread}, fh)
        os.replace(tmp, path)
    except OSError:
        pass  # a read-only cache: the next call parses again


# Parsing and validating the files is sqz-config's (ruamel.yaml, jsonschema). Without it the files are not
# read at all, ``[tool.sqz]`` included (applying a policy nobody validated could half-apply it): the
# defaults and the ``SQZ_*`` variables hold, and the call that first meets the files as they now are
# says so in one line; the calls after it are silent until a file changes or sqz-config is installed.
MISSING = "sqz: config {files} not read: config files need the sqz-config distribution (pip install sqz-config); using defaults"


def _reader() -> Callable[[list[Entry]], dict[str, Any]] | None:
    """``sqz_config.api.build``, or None when sqz-config is not installed."""
    try:
        from sqz_config.api import build
    except ImportError:
        return None
    return build


def _build(path: str, signature: list[Entry]) -> Config:
    """The files parsed and merged (by sqz-config), written as this signature's snapshot."""
    build = _reader()
    if build is None:
        files = ", ".join(entry[0] for entry in signature if _may_hold_settings(entry))
        _write_snapshot(path, signature, EMPTY, unread=True)
        return Config(errors=[MISSING.format(files=files)])
    cfg = Config.from_json(build(signature))
    _write_snapshot(path, signature, cfg)
    return cfg


def load(cwd: str | None = None, *, quiet: bool = False) -> Config:
    """The merged configuration for ``cwd`` (default: the working directory); never raises.

    Warm: a few ``stat`` calls and one small JSON read; for the working directory, once per call
    (``refresh``). An ignored file's error is written to stderr once per process unless ``quiet`` (it
    stays in ``Config.errors`` either way).
    """
    if cwd is None and _memo[2]:
        return _say(_memo[1], quiet)
    try:
        signature = candidates(cwd)
    except Exception:  # pragma: no cover - defensive: configuration never breaks a call
        return EMPTY
    if cwd is None:
        _memo[2] = True
    if not signature or not any(_may_hold_settings(entry) for entry in signature):
        if cwd is None:  # nothing to compile (most Python projects: a pyproject.toml without [tool.sqz])
            _memo[0], _memo[1] = signature, EMPTY
        return EMPTY
    if cwd is None and _memo[0] == signature:
        cfg = _memo[1]
    else:
        cfg = None
        try:
            path = _snapshot_path(signature)
            cfg = _read_snapshot(path, signature)
            if cfg is None:
                cfg = _build(path, signature)
        except Exception as exc:  # a bug: defaults, said once
            cfg = Config(errors=[f"sqz: config not read ({type(exc).__name__}: {exc}); using defaults"])
        if cwd is None:
            _memo[0], _memo[1] = signature, cfg
    return _say(cfg, quiet)


def _say(cfg: Config, quiet: bool) -> Config:
    """Each ignored file's line on stderr, once per process (``forget`` starts again)."""
    if cfg.errors and not quiet:
        for line in cfg.errors:
            if line not in _said:
                _said.add(line)
                try:
                    sys.stderr.write(line + "\n")
                except Exception:
                    pass
    return cfg


def current() -> Config:
    """``load()`` for the working directory."""
    return load()


def env(name: str, default: str | None = None) -> str | None:
    """What ``os.environ.get(name, default)`` gave before config files, with the files in between:
    the variable when set (even empty), else the files' value written as the variable would carry it
    (sqz-config compiles that into the snapshot: ``Config.env``), else ``default``."""
    value = os.environ.get(name)
    if value is not None or not name.startswith("SQZ_"):
        return default if value is None else value
    got = current().env.get(name)
    return default if got is None else got


# -- per-command rules -------------------------------------------------------------------------------
RULE_MATCHERS = ("program", "subcommand", "argv", "tool")


def rule_for(command: str | None, tool: str | None = None, cfg: Config | None = None) -> dict[str, Any] | None:
    """The first rule whose matchers all match this call: ``{"spec": …, "file": …, "line": …}``, or None.

    ``program``/``subcommand``/``tool`` are shell-style globs (``fnmatch``, case-sensitive) over the
    program (wrappers such as ``sudo`` and ``uv run`` stripped), its first non-option word and the
    agent's tool name; ``argv`` is a glob over the command's words joined by single spaces
    (``make deploy*``).
    """
    cfg = current() if cfg is None else cfg
    if not cfg.rules:
        return None
    from fnmatch import fnmatchcase

    from .request import FormatRequest

    req = FormatRequest("", command, tool=tool)
    words = " ".join(req.argv)
    for rule in cfg.rules:
        spec = rule.get("spec") or {}
        checks = [(spec.get("program"), req.program), (spec.get("tool"), tool), (spec.get("argv"), words)]
        if spec.get("subcommand") is not None:
            checks.append((spec["subcommand"], req.subcommand()))
        if any(pattern is not None for pattern, _ in checks) and all(
                pattern is None or (subject is not None and fnmatchcase(subject, pattern))
                for pattern, subject in checks):
            return rule
    return None
