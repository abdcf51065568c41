"""Where declarative formatters come from, which of them may run, and the compiled cache.

Sources, in the order they are tried (the first spec that matches a command answers):

1. the project's ``.sqz/formatters/*.yaml`` (the nearest ``.sqz/formatters`` folder at or above
   the working directory), then the project config's ``formatters:`` list;
2. the user's ``formatters:`` list in their config, then ``$XDG_CONFIG_HOME/sqz/formatters/*.yaml``.

Project-local specs run only once the user trusted them (``sqz trust``): a trust pin is the
file's sha256, so a changed file is untrusted again. User-level specs are the user's own and
always trusted.

A warm call parses no YAML and imports neither ruamel.yaml nor jsonschema: the compiled specs
are kept in a JSON file in sqz's cache folder, keyed by every source's path, ``mtime_ns``, size
(and content hash for project files, which trust depends on), the folders' ``mtime_ns`` and the
trust file's; any change recompiles (``compile``, off the hot path).
"""

from __future__ import annotations

import json
import os
import sys

try:  # as the core's pipeline: the C implementation without hashlib's OpenSSL set-up
    from _sha256 import sha256
except ImportError:  # pragma: no cover - other Pythons
    try:
        from _sha2 import sha256
    except ImportError:
        from hashlib import sha256

CACHE_FORMAT = 1
BASE_KEY = 6  # the fingerprint's fields before one entry per source
SUFFIXES = (".yaml", ".yml")
TRUST_FILE = "trusted-formatters.json"


def config_dir() -> str:
    """The user's sqz config folder (``$XDG_CONFIG_HOME/sqz``, default ``~/.config/sqz``)."""
    root = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    return os.path.join(root, "sqz")


def user_dir() -> str:
    """The user's own spec folder (trusted: the user wrote it)."""
    return os.path.join(config_dir(), "formatters")


def project_dir(cwd: str | None = None) -> str | None:
    """The nearest ``.sqz/formatters`` folder at or above ``cwd`` (None when there is none)."""
    try:
        here = os.path.realpath(cwd or os.getcwd())
    except OSError:
        return None
    user = None
    while True:
        candidate = os.path.join(here, ".sqz", "formatters")
        if os.path.isdir(candidate):
            user = user if user is not None else os.path.realpath(user_dir())
            if os.path.realpath(candidate) != user:
                return candidate
        parent = os.path.dirname(here)
        if parent == here:
            return None
        here = parent


def trust_path() -> str:
    return os.path.join(config_dir(), TRUST_FILE)


def digest(data: bytes) -> str:
    return sha256(data).hexdigest()


def _files(folder: str | None) -> list[str]:
    if not folder:
        return []
    try:
        names = sorted(n for n in os.listdir(folder) if n.endswith(SUFFIXES) and not n.startswith("."))
    except OSError:
        return []
    return [os.path.join(folder, n) for n in names]


def _stat(path: str) -> list | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return [st.st_mtime_ns, st.st_size]


def config_entries(cwd: str | None = None) -> dict[str, dict]:
    """The config files' ``formatters:`` lists (the core's config loader, warm from its snapshot):
    ``{path: {"origin", "specs", "lines"}}``, the project's file first. ``cwd`` None: the working
    directory's, as the loader looked at it for this call (a command-line verb passes its cwd)."""
    from sqz_core.api import load_config

    out: dict[str, dict] = {}
    for entry in load_config(cwd, quiet=True).formatters:
        rec = out.setdefault(entry["file"], {"origin": f"{'project' if entry['scope'] == 'project' else 'user'}-config",
                                             "specs": [], "lines": []})
        rec["specs"].append(entry["spec"])
        rec["lines"].append(entry.get("line"))
    return out


def config_sources(cwd: str | None = None) -> list[tuple[str, str]]:
    """``(path, origin)`` of the config files whose ``formatters:`` lists count (project, then user)."""
    return [(path, rec["origin"]) for path, rec in config_entries(cwd).items()]


def config_digest(specs: list) -> str:
    """What a config file's formatters are pinned by: their content, not the file's (an unrelated
    setting changed in ``pyproject.toml`` keeps them trusted; a changed formatter does not)."""
    return digest(json.dumps(specs, sort_keys=True, ensure_ascii=False).encode("utf-8"))


def config_trust_key(path: str) -> str:
    return os.path.realpath(path) + "#formatters"


def _sources(cwd: str | None) -> list[tuple[str, str]]:
    """Every spec source, ``(path, origin)``, in the order they are tried."""
    project = project_dir(cwd)
    configs = config_sources(cwd)
    out = [(p, "project") for p in _files(project)]
    out += [c for c in configs if c[1] == "project-config"]
    out += [c for c in configs if c[1] == "user-config"]
    out += [(p, "user") for p in _files(user_dir())]
    return out


def is_project(origin: str) -> bool:
    return origin.startswith("project")


def fingerprint(cwd: str | None = None) -> tuple[list, dict[str, bytes]]:
    """What the compiled cache is keyed by, and the project files' bytes read to hash them."""
    project = project_dir(cwd)
    key: list = [CACHE_FORMAT, sys.version_info[:2], project, _stat(project) if project else None,
                 _stat(user_dir()), _stat(trust_path())]
    contents: dict[str, bytes] = {}
    configs = config_entries(cwd)
    for path, origin in _sources(cwd):
        entry = [path, origin, _stat(path)]
        if origin.endswith("-config"):
            entry.append(config_digest(configs[path]["specs"]))
        elif is_project(origin):
            try:
                with open(path, "rb") as fh:
                    contents[path] = data = fh.read()
                entry.append(digest(data))
            except OSError:
                entry.append(None)
        key.append(entry)
    return json.loads(json.dumps(key)), contents


def cache_path(project: str | None) -> str:
    from sqz_core.api import cache_dir

    import zlib

    tag = zlib.crc32((project or "-").encode("utf-8", "surrogateescape")) & 0xFFFFFFFF
    return os.path.join(cache_dir(), "declarative", f"specs-{tag:08x}.json")


def read_trust() -> dict[str, dict]:
    """``{realpath: {"sha256": …, "at": …}}`` of the project formatters the user trusted."""
    try:
        with open(trust_path(), encoding="utf-8") as fh:
            data = json.load(fh)
    except (OSError, ValueError):
        return {}
    trusted = data.get("trusted") if isinstance(data, dict) else None
    return trusted if isinstance(trusted, dict) else {}


def trust_state(path: str, data: bytes | None, trusted: dict[str, dict]) -> str:
    """``trusted``, ``untrusted`` or ``changed`` (trusted once, with other content)."""
    pin = trusted.get(os.path.realpath(path))
    if not isinstance(pin, dict):
        return "untrusted"
    if data is None or pin.get("sha256") != digest(data):
        return "changed"
    return "trusted"


def build(cwd: str | None, key: list, contents: dict[str, bytes]) -> dict:
    """Compile every source (the cold path: ruamel.yaml and jsonschema) into the cache's shape."""
    from .compile import compile_config, compile_file, compile_text, programs_of

    trusted = read_trust()
    specs, untrusted, problems = [], [], []
    configs = config_entries(cwd)
    for path, origin in _sources(cwd):
        if origin.endswith("-config"):
            rec = configs[path]
            found, errors = compile_config(path, origin, rec["specs"], rec["lines"])
        elif path in contents:
            text = contents[path].decode("utf-8", "replace")
            found, errors = compile_text(text, path, origin)
        else:
            found, errors = compile_file(path, origin)
        if is_project(origin):
            if origin.endswith("-config"):
                state = config_trust_state(path, configs[path]["specs"], trusted)
                named = _programs_in(configs[path]["specs"])
            else:
                state = trust_state(path, contents.get(path) if path in contents else _read(path), trusted)
                named = programs_of(path)
            if state != "trusted":
                progs = sorted({p for s in found for p in s["programs"]} | set(named))
                untrusted.append({"source": path, "state": state, "programs": progs})
                continue
        if errors:
            named = _programs_in(configs[path]["specs"]) if origin.endswith("-config") else programs_of(path)
            problems.append({"source": path, "errors": errors, "programs": sorted(set(named))})
        specs.extend(found)
    return {"key": key, "specs": specs, "untrusted": untrusted, "problems": problems}


def config_trust_state(path: str, specs: list, trusted: dict[str, dict]) -> str:
    pin = trusted.get(config_trust_key(path))
    if not isinstance(pin, dict):
        return "untrusted"
    return "trusted" if pin.get("sha256") == config_digest(specs) else "changed"


def _programs_in(specs: list) -> list[str]:
    found = []
    for spec in specs:
        match = spec.get("match") if isinstance(spec, dict) else None
        program = match.get("program") if isinstance(match, dict) else None
        found += [program] if isinstance(program, str) else [p for p in program or [] if isinstance(p, str)]
    return found


def _read(path: str) -> bytes | None:
    try:
        with open(path, "rb") as fh:
            return fh.read()
    except OSError:
        return None


_memo: dict[str, dict] = {}


def active(cwd: str | None = None) -> dict:
    """The compiled state for ``cwd``: ``specs`` that may run, ``untrusted`` sources, ``problems``.

    Warm: the sources are stat-ed (project files read and hashed) and the JSON cache reused when
    its key is the same; otherwise compiled and the cache rewritten.
    """
    key, contents = fingerprint(cwd)
    project = key[2]
    memo = _memo.get(project or "-")
    if memo is not None and memo["key"] == key:
        return memo
    path = cache_path(project)
    try:
        with open(path, encoding="utf-8") as fh:
            state = json.load(fh)
        if isinstance(state, dict) and state.get("key") == key:
            _memo[project or "-"] = state
            return state
    except (OSError, ValueError):
        pass
    if len(key) == BASE_KEY:  # no source at all: nothing to compile, nothing to cache
        state = {"key": key, "specs": [], "untrusted": [], "problems": []}
    else:
        state = build(cwd, key, contents)
        _write(path, state)
    _memo[project or "-"] = state
    return state


def _write(path: str, state: dict) -> None:
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        tmp = f"{path}.{os.getpid()}.tmp"
        with open(tmp, "w", encoding="utf-8") as fh:
            json.dump(state, fh)
        os.replace(tmp, path)
    except OSError:
        pass  # an unwritable cache only costs a compile next time


def notes_for(state: dict, program: str | None, cwd: str | None = None) -> list[str]:
    """One line per source that would have answered ``program`` but may not run (untrusted, changed,
    or broken), saying what to do."""
    out = []
    for rec in state.get("untrusted", []):
        if program in rec.get("programs", ()) or not rec.get("programs"):
            shown = _shown(rec["source"], cwd)
            if rec["state"] == "changed":
                out.append(f"{shown} changed since you trusted it and is not used; review it, then "
                           f"`sqz trust {shown}`")
            else:
                out.append(f"{shown} is a project formatter not trusted yet and is not used; review it, then "
                           f"`sqz trust {shown}`")
    for rec in state.get("problems", []):
        if program in rec.get("programs", ()) or not rec.get("programs"):
            more = len(rec["errors"]) - 1
            out.append(f"{rec['errors'][0]}" + (f" (+{more} more: `sqz formatters check`)" if more else "")
                       + "; that formatter is not used")
    return out


def _shown(path: str, cwd: str | None) -> str:
    try:
        rel = os.path.relpath(path, cwd or os.getcwd())
    except (OSError, ValueError):
        return path
    return rel if not rel.startswith("..") else path
