"""Config files parsed and validated: ruamel.yaml (round-trip, for line numbers and edits), tomllib for
``pyproject.toml``, jsonschema against ``config.schema.json``.

Off the hot path: ``config.load`` imports this module only when its snapshot is stale, and the
``sqz config`` verbs use it for their edits. Every problem becomes one line naming the file, the line
and the key; a file with a problem is ignored whole (a half-read file would apply half a policy).
"""

from __future__ import annotations

import json
import os
from importlib import resources

from .settings import env_map

LISTS = ("rules", "formatters")  # lists of objects, concatenated across files (the project's first)


class ConfigError(Exception):
    """One file's problem. ``str()`` is the one line: ``path:line: key: message``."""

    def __init__(self, path: str, line: int | None, key: str | None, message: str) -> None:
        self.path, self.line, self.key, self.message = path, line, key, message
        where = f"{path}:{line}" if line else path
        super().__init__(f"{where}: {key + ': ' if key else ''}{message}")


def schema() -> dict:
    """The published JSON Schema (``config.schema.json`` in this package)."""
    return json.loads(resources.files(__package__).joinpath("config.schema.json").read_text("utf-8"))


def leaves(node: dict | None = None, prefix: str = "") -> dict[str, dict]:
    """Dotted key -> schema of each setting (the properties carrying ``x-env``)."""
    node = schema() if node is None else node
    out: dict[str, dict] = {}
    for name, sub in node.get("properties", {}).items():
        dotted = f"{prefix}.{name}" if prefix else name
        if "x-env" in sub:
            out[dotted] = sub
        elif sub.get("type") == "object":
            out.update(leaves(sub, dotted))
    return out


# -- reading ----------------------------------------------------------------------------------------
def _yaml():
    from ruamel.yaml import YAML

    y = YAML(typ="rt", pure=True)
    y.preserve_quotes = True
    return y


def _plain(node):
    """ruamel's round-trip types as plain JSON data (dates as ISO strings)."""
    import datetime

    if isinstance(node, dict):
        return {str(k): _plain(v) for k, v in node.items()}
    if isinstance(node, list):
        return [_plain(v) for v in node]
    if isinstance(node, (datetime.date, datetime.datetime)):
        return node.isoformat()
    if isinstance(node, bool) or node is None:
        return node
    if isinstance(node, int):
        return int(node)
    if isinstance(node, float):
        return float(node)
    if isinstance(node, str):
        return str(node)
    return node


def _yaml_lines(node, prefix: str, out: dict) -> None:
    """Dotted path -> 1-based line of each key and list item in a round-trip tree."""
    lc = getattr(node, "lc", None)
    if isinstance(node, dict):
        for k, v in node.items():
            path = f"{prefix}.{k}" if prefix else str(k)
            try:
                out[path] = lc.key(k)[0] + 1
            except Exception:
                pass
            _yaml_lines(v, path, out)
    elif isinstance(node, list):
        for i, v in enumerate(node):
            path = f"{prefix}.{i}"
            try:
                out[path] = lc.item(i)[0] + 1
            except Exception:
                pass
            _yaml_lines(v, path, out)


def read_yaml(path: str, text: str | None = None):
    """``(round-trip tree, plain data, lines)`` of a YAML file; raises ``ConfigError``."""
    from ruamel.yaml.error import MarkedYAMLError, YAMLError

    if text is None:
        text = _read(path)
    try:
        tree = _yaml().load(text)
    except MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        if exc.context_mark is not None and "<stream end>" in str(exc.problem):  # unclosed: where it opened
            mark = exc.context_mark
        raise ConfigError(path, mark.line + 1 if mark is not None else None, None,
                          f"invalid YAML ({exc.problem or exc.context})") from None
    except YAMLError as exc:
        raise ConfigError(path, None, None, f"invalid YAML ({' '.join(str(exc).split())})") from None
    if tree is None:
        tree = {}
    lines: dict[str, int] = {}
    _yaml_lines(tree, "", lines)
    return tree, _plain(tree), lines


def _read(path: str) -> str:
    try:
        with open(path, encoding="utf-8") as fh:
            return fh.read()
    except UnicodeDecodeError:
        raise ConfigError(path, None, None, "not UTF-8") from None
    except OSError as exc:
        raise ConfigError(path, None, None, f"cannot read ({exc.strerror or exc})") from None


def read_pyproject(path: str, raw: bytes | None = None):
    """``(data of [tool.sqz], lines)``, or None when the file has no such table; raises ``ConfigError``."""
    if raw is None:
        try:
            with open(path, "rb") as fh:
                raw = fh.read()
        except OSError as exc:
            raise ConfigError(path, None, None, f"cannot read ({exc.strerror or exc})") from None
    if b"[tool.sqz" not in raw and b"tool.sqz" not in raw:
        return None
    try:
        import tomllib
    except ImportError:  # Python 3.10
        try:
            import tomli as tomllib  # type: ignore[no-redef]
        except ImportError:
            raise ConfigError(path, None, "tool.sqz", "reading pyproject.toml needs Python 3.11 (tomllib) "
                              "or the tomli package; use .sqz.yaml instead") from None
    text = raw.decode("utf-8", "replace")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        line = getattr(exc, "lineno", None)
        msg = str(exc).split(" (at line")[0]
        raise ConfigError(path, line, None, f"invalid TOML ({msg})") from None
    table = data.get("tool", {}).get("sqz") if isinstance(data.get("tool"), dict) else None
    if table is None:
        return None
    return table, _toml_lines(text, table)


def _toml_lines(text: str, table: dict) -> dict:
    """Dotted path -> line for ``[tool.sqz]`` keys (tomllib keeps no positions: the lines are found by
    their ``key =`` and ``[tool.sqz.sub]`` / ``[[tool.sqz.rules]]`` headers)."""
    import re

    lines: dict[str, int] = {}
    section: str | None = None
    counts: dict[str, int] = {}
    header = re.compile(r"^\s*(\[\[?)\s*([A-Za-z0-9_.\"'-]+?)\s*\]\]?")
    assign = re.compile(r"^\s*([A-Za-z0-9_\"'.-]+)\s*=")
    for n, line in enumerate(text.splitlines(), 1):
        m = header.match(line)
        if m:
            name = m.group(2).replace('"', "").replace("'", "")
            if name == "tool.sqz" or name.startswith("tool.sqz."):
                section = name[len("tool.sqz."):] if name != "tool.sqz" else ""
                if m.group(1) == "[[":
                    i = counts.get(section, 0)
                    counts[section] = i + 1
                    section = f"{section}.{i}"
                lines.setdefault(section or "", n)
                if section:
                    lines.setdefault(section, n)
            else:
                section = None
            continue
        m = assign.match(line)
        if m and section is not None:
            key = m.group(1).replace('"', "").replace("'", "")
            lines.setdefault(f"{section}.{key}" if section else key, n)
    return lines


# -- validation -------------------------------------------------------------------------------------
def _key_text(path: list) -> str:
    out = ""
    for p in path:
        out += f"[{p}]" if isinstance(p, int) else (f".{p}" if out else str(p))
    return out


def _line_of(lines: dict, path: list) -> int | None:
    parts = [str(p) for p in path]
    while parts:
        got = lines.get(".".join(parts))
        if got:
            return got
        parts.pop()
    return lines.get("") or None


def errors_of(data, path: str, lines: dict, scope: str) -> list[ConfigError]:
    """Every problem of one file's data (schema, then keys only the user's file may set), in file order."""
    import jsonschema

    validator = jsonschema.Draft202012Validator(schema())
    found: list[ConfigError] = []
    for err in validator.iter_errors(data):
        best = jsonschema.exceptions.best_match([err]) if err.context else err
        where = list(best.absolute_path)
        message = best.schema.get("x-message") if isinstance(best.schema, dict) else None
        if message is None:
            for sub in [err, *err.context]:
                if isinstance(sub.schema, dict) and sub.schema.get("x-message") and sub.validator == "anyOf":
                    message = sub.schema["x-message"]
                    where = list(sub.absolute_path)
                    break
        if message is None:
            message = " ".join(best.message.split())
            if best.validator == "additionalProperties" and isinstance(best.instance, dict):
                extra = sorted(set(best.instance) - set(best.schema.get("properties", {})))
                if extra:
                    where = where + [extra[0]]
                    message = f"unknown key (known here: {', '.join(sorted(best.schema.get('properties', {})))})"
        found.append(ConfigError(path, _line_of(lines, where), _key_text(where) or None, message))
    if scope != "user" and isinstance(data, dict):
        for key, setting in leaves().items():
            if setting.get("x-user-only") and _has(data, key):
                found.append(ConfigError(path, _line_of(lines, key.split(".")), key,
                                         "may be set only in the user's config (a repository must not redirect "
                                         "your store, upstreams or prices)"))
    found.sort(key=lambda e: (e.line or 0))
    return found


def _has(data: dict, key: str) -> bool:
    node = data
    for part in key.split("."):
        if not isinstance(node, dict) or part not in node:
            return False
        node = node[part]
    return True


def problems(path: str, kind: str, text: str | None = None) -> list[ConfigError]:
    """Every problem of one file (``text``: its would-be content), in file order; [] when it is valid.

    ``kind``: ``user`` or ``project`` (YAML), ``pyproject`` (its ``[tool.sqz]``)."""
    try:
        if kind == "pyproject":
            got = read_pyproject(path, None if text is None else text.encode("utf-8"))
            if got is None:
                return []
            data, lines = got
        else:
            _, data, lines = read_yaml(path, text)
    except ConfigError as exc:
        return [exc]
    return errors_of(data, path, lines, "user" if kind == "user" else "project")


def read_file(path: str, kind: str) -> tuple[dict, dict] | None:
    """One file's ``(data, lines)`` validated; None for a pyproject without ``[tool.sqz]``; raises the
    first ``ConfigError``."""
    if kind == "pyproject":
        got = read_pyproject(path)
        if got is None:
            return None
        data, lines = got
    else:
        _, data, lines = read_yaml(path)
    problems = errors_of(data, path, lines, "user" if kind == "user" else "project")
    if problems:
        raise problems[0]
    return data, lines


# -- merging ----------------------------------------------------------------------------------------
def _merge(into: dict, data: dict, origins: dict, lines: dict, path: str, prefix: str = "",
           known: dict | None = None) -> None:
    known = leaves() if known is None else known
    for key, value in data.items():
        dotted = f"{prefix}.{key}" if prefix else key
        if not prefix and key in LISTS:
            continue
        if isinstance(value, dict) and dotted not in known:
            sub = into.setdefault(key, {})
            if not isinstance(sub, dict):
                sub = into[key] = {}
            _merge(sub, value, origins, lines, path, dotted, known)
            continue
        into[key] = value
        line = lines.get(dotted)
        origins[dotted] = f"{path}:{line}" if line else path


def build(signature: list[list]) -> dict:
    """The merged configuration of the files ``config.candidates`` found (``[path, mtime, size, kind]``),
    as the fields of ``config.Config`` (``env``: each setting the files hold, as its variable would carry it)."""
    user_entry = next((e for e in signature if e[3] == "user"), None)
    project_entries = [e for e in signature if e[3] != "user"]
    layers: list[tuple[str, str, dict, dict]] = []  # (scope, path, data, lines), user first
    errors: list[str] = []
    if user_entry is not None:
        try:
            got = read_file(user_entry[0], "user")
            if got is not None:
                layers.append(("user", user_entry[0], *got))
        except ConfigError as exc:
            errors.append(f"sqz: config {exc}; file ignored")
    me = os.getuid() if hasattr(os, "getuid") else None
    for entry in project_entries:  # nearest first: the first that holds sqz settings is the project's
        if me is not None and len(entry) > 4 and entry[4] not in (me, 0):
            # as git's safe.directory: a file another user could plant (/tmp/.sqz.yaml) is not yours to obey
            errors.append(f"sqz: config {entry[0]}: owned by uid {entry[4]}, not by you (uid {me}); file ignored")
            break
        try:
            got = read_file(entry[0], entry[3])
        except ConfigError as exc:
            errors.append(f"sqz: config {exc}; file ignored")
            break
        if got is not None:
            layers.append(("project", entry[0], *got))
            break
    values: dict = {}
    origins: dict = {}
    for _scope, path, data, lines in layers:
        _merge(values, data, origins, lines, path)
    lists: dict[str, list] = {name: [] for name in LISTS}
    for scope, path, data, lines in reversed(layers):  # the project's entries first
        for name in LISTS:
            for i, spec in enumerate(data.get(name) or []):
                line = lines.get(f"{name}.{i}")
                lists[name].append({"spec": spec, "file": path, "line": line, "scope": scope})
    for name in LISTS:
        if lists[name]:
            values[name] = [entry["spec"] for entry in lists[name]]
            for i, entry in enumerate(lists[name]):
                origins[f"{name}.{i}"] = f"{entry['file']}:{entry['line']}" if entry["line"] else entry["file"]
    return {"values": values, "origins": origins, "files": [path for _, path, _, _ in layers], "errors": errors,
            "rules": lists["rules"], "formatters": lists["formatters"],
            "project_file": next((p for s, p, _, _ in layers if s == "project"), None),
            "user_file": next((p for s, p, _, _ in layers if s == "user"), None), "env": env_map(values)}


# -- the defaults, for ``sqz config show`` ----------------------------------------------------------
def defaults() -> dict:
    """Every setting's default (None where it is computed at run time, e.g. the platform's data dir)."""
    return {key: node.get("default") for key, node in leaves().items()}
