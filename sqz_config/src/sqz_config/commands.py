"""``sqz config``: show, get, set, unset, edit, validate the config files (``docs/configuration.md``).

Edits go through ruamel.yaml's round-trip mode, so comments, key order and the file's indentation
stay as they were; a change the schema rejects is never written.
"""

from __future__ import annotations

import json
import os
import sys
from typing import List, Optional

import typer

from sqz_core import api as core

from .settings import _BY_KEY, SETTINGS
from .settings import value as setting_value

config_app = typer.Typer(
    help="The config files: ~/.config/sqz/config.yaml (user) and .sqz.yaml or \\[tool.sqz] in pyproject.toml "
         "(project). Precedence: defaults < user < project < SQZ_* variables. Every key: docs/configuration.md.",
    no_args_is_help=True,
)

_USER_HELP = "The user's file ($XDG_CONFIG_HOME/sqz/config.yaml)."
_PROJECT_HELP = "The project's file (.sqz.yaml at the repository root, or the nearest one in use)."
_JSON_HELP = "Machine-readable output (JSON on stdout)."
_TEMPLATE = ("# sqz configuration: every key, its SQZ_* variable and default are in docs/configuration.md\n"
             "# (or `sqz config show`); the schema: `sqz config schema`.\n")


def _fail(message: str, code: int = 1):
    typer.echo(message, err=True)
    raise typer.Exit(code)


def _cfg() -> core.Config:
    return core.load_config(quiet=True)


# -- where to write ------------------------------------------------------------------------------
def _repo_root(start: str) -> str | None:
    d = start
    while True:
        if os.path.lexists(os.path.join(d, ".git")):
            return d
        parent = os.path.dirname(d)
        if parent == d:
            return None
        d = parent


def _target(user: bool, project: bool, verb: str) -> tuple[str, str]:
    """``(path, kind)`` of the file a verb changes: the user's by default."""
    if user and project:
        _fail(f"sqz config {verb}: --user and --project exclude each other", 2)
    if not project:
        if os.environ.get("SQZ_CONFIG") == "":
            _fail(f"sqz config {verb}: SQZ_CONFIG is set but empty (no user file); unset it or name a file", 2)
        return core.user_config_path(), "user"
    found = [e for e in core.config_candidates() if e[3] != "user"]
    cfg = _cfg()
    if cfg.project_file:
        return cfg.project_file, "pyproject" if cfg.project_file.endswith("pyproject.toml") else "project"
    own = next((e[0] for e in found if e[3] == "project"), None)  # a .sqz.yaml, even a broken one
    if own:
        return own, "project"
    cwd = os.getcwd()
    return os.path.join(_repo_root(cwd) or cwd, ".sqz.yaml"), "project"


# -- values ----------------------------------------------------------------------------------------
def _show_value(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "(unset)"
    if isinstance(value, (list, dict)):
        return json.dumps(value, ensure_ascii=False)
    return str(value)


def _settings_view() -> dict:
    out = {}
    for key, env, _kind, _default, scope, doc in SETTINGS:
        value, source = setting_value(key)
        out[key] = {"value": value, "source": source, "env": env, "scope": scope, "help": doc}
    return out


def _lists_view(cfg: core.Config) -> dict:
    return {name: [{"spec": e["spec"], "source": f"{e['file']}:{e['line']}" if e.get("line") else e["file"],
                    "scope": e["scope"]} for e in getattr(cfg, name)] for name in ("rules", "formatters")}


def _rule_text(spec: dict) -> str:
    match = " ".join(f"{k}={spec[k]!r}" for k in core.CONFIG_RULE_MATCHERS if k in spec)
    effects = [("passthrough" if spec.get("passthrough") else None),
               ("no cache" if spec.get("cache") is False else None),
               (f"level {spec['level']}" if spec.get("level") else None)]
    text = f"{match} → {', '.join(e for e in effects if e) or 'nothing'}"
    return text + (f"  ({spec['note']})" if spec.get("note") else "")


@config_app.command("show")
def show(as_json: bool = typer.Option(False, "--json", help=_JSON_HELP)):
    """Every setting with its effective value and where it came from (default, file:line, env VAR)."""
    cfg = _cfg()
    settings = _settings_view()
    lists = _lists_view(cfg)
    if as_json:
        typer.echo(json.dumps({"files": cfg.files, "errors": cfg.errors, "settings": settings, **lists},
                              indent=2, ensure_ascii=False))
        return
    typer.echo(f"user file:    {cfg.user_file or core.user_config_path() + ' (none)'}")
    typer.echo(f"project file: {cfg.project_file or '(none)'}")
    for line in cfg.errors:
        typer.echo(line)
    width = max(len(k) for k in settings)
    for key, row in settings.items():
        typer.echo(f"{key:<{width}}  {_show_value(row['value']):<24} {row['source']}")
    for name in ("rules", "formatters"):
        typer.echo(f"{name}: {len(lists[name]) or 'none'}")
        for i, entry in enumerate(lists[name], 1):
            what = _rule_text(entry["spec"]) if name == "rules" else entry["spec"].get("name", "(unnamed)")
            typer.echo(f"  {i}. {what}    {entry['source']}")


def _known_keys() -> list[str]:
    keys = [s[0] for s in SETTINGS] + list(core.CONFIG_LISTS)
    return keys + sorted({k.split(".")[0] for k in keys if "." in k})


def _unknown(verb: str, key: str):
    import difflib

    close = difflib.get_close_matches(key, _known_keys(), n=3)
    hint = f" (did you mean {', '.join(close)}?)" if close else " (every key: sqz config show)"
    _fail(f"sqz config {verb}: unknown key {key!r}{hint}", 2)


@config_app.command("get")
def get(key: str = typer.Argument(..., help="A dotted key: time_budget_ms, proxy.port, plugins, rules."),
        as_json: bool = typer.Option(False, "--json", help=_JSON_HELP)):
    """One setting's effective value (or a group's: `proxy`, `plugins`; or `rules`, `formatters`)."""
    cfg = _cfg()
    if key in _BY_KEY:
        value, source = setting_value(key)
        payload = {"key": key, "value": value, "source": source}
    elif key in core.CONFIG_LISTS:
        value, source = _lists_view(cfg)[key], "files"
        payload = {"key": key, "value": value, "source": source}
    elif any(s[0].startswith(key + ".") for s in SETTINGS):
        group = {s[0][len(key) + 1:]: setting_value(s[0]) for s in SETTINGS if s[0].startswith(key + ".")}
        value = {k: v for k, (v, _src) in group.items()}
        payload = {"key": key, "value": value, "source": {k: src for k, (_v, src) in group.items()}}
    else:
        _unknown("get", key)
    if as_json:
        typer.echo(json.dumps(payload, ensure_ascii=False))
    else:
        typer.echo(_show_value(value))


# -- editing ---------------------------------------------------------------------------------------
def _yaml_for(text: str):
    from ruamel.yaml.util import load_yaml_guess_indent

    from .files import _yaml

    y = _yaml()
    try:
        _, indent, offset = load_yaml_guess_indent(text) if text.strip() else (None, None, None)
    except Exception:
        indent = offset = None
    y.indent(mapping=2, sequence=indent or 4, offset=offset if offset is not None else 2)
    return y


def _load_tree(path: str, text: str):
    from ruamel.yaml.comments import CommentedMap

    from .files import ConfigError, read_yaml

    try:
        tree = read_yaml(path, text)[0]
    except ConfigError as exc:
        _fail(f"sqz config: {exc} (fix it first: sqz config edit)")
    if not isinstance(tree, dict):
        tree = CommentedMap()
    return tree


def _parse_value(key: str, raw: str):
    """VALUE as YAML (``true``, ``1500``, ``[a, b]``, ``{program: make, passthrough: true}``); a string
    setting keeps the text as it was typed."""
    from ruamel.yaml import YAML
    from ruamel.yaml.error import YAMLError

    setting = _BY_KEY.get(key)
    if setting is not None and setting[2] == "string":
        return raw
    if setting is not None and setting[2] == "list" and not raw.lstrip().startswith("["):
        return [part.strip() for part in raw.split(",") if part.strip()]
    try:
        value = YAML(typ="safe", pure=True).load(raw)
    except YAMLError as exc:
        _fail(f"sqz config set: {key}: cannot read {raw!r} as YAML ({' '.join(str(exc).split())[:120]})", 2)
    return value


def _styled_like(old, new):
    """``new`` in ``old``'s flow or block style (``disable: [a, b]`` stays on one line)."""
    from ruamel.yaml.comments import CommentedMap, CommentedSeq

    flow = getattr(getattr(old, "fa", None), "flow_style", lambda: None)()
    if not flow or not isinstance(new, (list, dict)):
        return new
    styled = CommentedSeq(new) if isinstance(new, list) else CommentedMap(new)
    styled.fa.set_flow_style()
    return styled


def _write_checked(path: str, kind: str, text: str, verb: str) -> None:
    """Write ``text`` to ``path`` if it validates; else say every problem and leave the file as it was."""
    from .files import problems

    if text and not text.endswith("\n"):
        text += "\n"
    found = problems(path, kind, text)
    if found:
        for exc in found:
            typer.echo(f"sqz config {verb}: {exc}", err=True)
        _fail(f"sqz config {verb}: {path} left unchanged")
    _atomic_write(path, text)


def _atomic_write(path: str, text: str) -> None:
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    tmp = f"{path}.sqz-{os.getpid()}.tmp"
    try:
        mode = os.stat(path).st_mode & 0o7777
    except OSError:
        mode = None
    with open(tmp, "w", encoding="utf-8") as fh:
        fh.write(text)
    if mode is not None:
        os.chmod(tmp, mode)
    os.replace(tmp, path)


def _key_path(key: str) -> list:
    return [int(p) if p.isdigit() else p for p in key.split(".")]


def _valid_target_key(verb: str, key: str) -> None:
    head = key.split(".")[0]
    if key in _BY_KEY or head in core.CONFIG_LISTS or any(s[0].startswith(key + ".") for s in SETTINGS):
        return
    _unknown(verb, key)


def _read_text(path: str) -> str:
    try:
        with open(path, encoding="utf-8") as fh:
            return fh.read()
    except FileNotFoundError:
        return ""
    except (OSError, UnicodeDecodeError) as exc:
        _fail(f"sqz config: cannot read {path} ({getattr(exc, 'strerror', None) or exc})")
    return ""


def _refuse_pyproject(kind: str, path: str, verb: str) -> None:
    if kind == "pyproject":
        _fail(f"sqz config {verb}: the project's settings are in {path} [tool.sqz]; edit it there "
              "(sqz config edit --project opens it) or move them to .sqz.yaml", 2)


@config_app.command("set")
def set_(key: str = typer.Argument(..., help="A dotted key: time_budget_ms, proxy.port, rules, rules.0.level."),
         value: str = typer.Argument(..., help="Its value, as YAML: 1500, true, '[git, pytest]', "
                                              "'[{program: make, passthrough: true}]'."),
         user: bool = typer.Option(False, "--user", help=_USER_HELP + " The default."),
         project: bool = typer.Option(False, "--project", help=_PROJECT_HELP),
         as_json: bool = typer.Option(False, "--json", help="Machine-readable output: key, value, path.")):
    """Set a key in the user's file (or the project's), keeping its comments and key order.

    The value is checked against the schema first: a value it rejects is never written.
    """
    from ruamel.yaml.comments import CommentedMap, CommentedSeq

    _valid_target_key("set", key)
    path, kind = _target(user, project, "set")
    _refuse_pyproject(kind, path, "set")
    text = _read_text(path)
    tree = _load_tree(path, text)
    parsed = _parse_value(key, value)
    parts = _key_path(key)
    node = tree
    for i, part in enumerate(parts[:-1]):
        nxt = parts[i + 1]
        try:
            child = node[part]
        except (KeyError, IndexError, TypeError):
            child = None
        if not isinstance(child, (dict, list)):
            if isinstance(part, int):
                _fail(f"sqz config set: {key}: no item {part} in {'.'.join(map(str, parts[:i])) or 'the file'}", 2)
            child = CommentedSeq() if isinstance(nxt, int) else CommentedMap()
            node[part] = child
        node = child
    last = parts[-1]
    try:
        old = node[last]
    except (KeyError, IndexError, TypeError):
        old = None
    parsed = _styled_like(old, parsed)
    if isinstance(node, list):
        if not isinstance(last, int) or last > len(node):
            _fail(f"sqz config set: {key}: no item {last} to set", 2)
        if last == len(node):
            node.append(parsed)
        else:
            node[last] = parsed
    else:
        node[last] = parsed
    import io

    out = io.StringIO()
    if not text.strip() and not os.path.exists(path):
        out.write(_TEMPLATE)
    _yaml_for(text).dump(tree, out)
    _write_checked(path, kind, out.getvalue(), "set")
    if as_json:
        import json

        typer.echo(json.dumps({"key": key, "value": parsed, "path": path}, indent=2, default=str))
    else:
        typer.echo(f"{key} = {_show_value(parsed)} in {path}")
    if _BY_KEY.get(key) and os.environ.get(_BY_KEY[key][1]) is not None:
        typer.echo(f"note: {_BY_KEY[key][1]} is set in this environment and wins over the file", err=True)


@config_app.command("unset")
def unset(key: str = typer.Argument(..., help="A dotted key: time_budget_ms, proxy.port, rules.1."),
          user: bool = typer.Option(False, "--user", help=_USER_HELP + " The default."),
          project: bool = typer.Option(False, "--project", help=_PROJECT_HELP),
          as_json: bool = typer.Option(False, "--json", help="Machine-readable output: key, path, removed.")):
    """Remove a key from the user's file (or the project's), keeping everything else as it was."""
    _valid_target_key("unset", key)
    path, kind = _target(user, project, "unset")
    _refuse_pyproject(kind, path, "unset")
    text = _read_text(path)
    if not text:
        _fail(f"sqz config unset: {key} is not set in {path}")
    tree = _load_tree(path, text)
    parts = _key_path(key)
    trail = [tree]
    node = tree
    try:
        for part in parts[:-1]:
            node = node[part]
            trail.append(node)
        del node[parts[-1]]
    except (KeyError, IndexError, TypeError):
        _fail(f"sqz config unset: {key} is not set in {path}")
    for i in range(len(parts) - 2, -1, -1):  # a mapping left empty goes too
        if isinstance(trail[i + 1], dict) and not trail[i + 1]:
            del trail[i][parts[i]]
    import io

    out = io.StringIO()
    _yaml_for(text).dump(tree, out)
    left = out.getvalue() if tree else "".join(  # nothing left: the file's own comment lines stay
        ln for ln in text.splitlines(keepends=True) if ln.lstrip().startswith("#") or not ln.strip())
    _write_checked(path, kind, left, "unset")
    if as_json:
        import json

        typer.echo(json.dumps({"key": key, "path": path, "removed": True}, indent=2))
    else:
        typer.echo(f"{key} removed from {path}")


@config_app.command("edit")
def edit(user: bool = typer.Option(False, "--user", help=_USER_HELP + " The default."),
         project: bool = typer.Option(False, "--project", help=_PROJECT_HELP)):
    """Open the file in $VISUAL or $EDITOR (else vi), then validate it.

    An edit with problems is not kept: they are listed, and at a terminal you can edit again;
    otherwise the file stays as it was and your edit is saved beside it as FILE.rejected.
    """
    import shlex
    import subprocess

    from .files import problems

    path, kind = _target(user, project, "edit")
    before = _read_text(path) if os.path.exists(path) else None
    start = before if before is not None else _TEMPLATE
    directory = os.path.dirname(path) or "."
    os.makedirs(directory, exist_ok=True)
    base = os.path.basename(path)
    draft = os.path.join(directory, f".{base}.sqz-edit{os.path.splitext(base)[1]}")
    with open(draft, "w", encoding="utf-8") as fh:
        fh.write(start)
    editor = os.environ.get("VISUAL") or os.environ.get("EDITOR") or "vi"
    try:
        while True:
            try:
                status = subprocess.call([*shlex.split(editor), draft])
            except OSError as exc:
                _fail(f"sqz config edit: cannot run the editor {editor!r} ({exc.strerror or exc}); set $EDITOR")
            if status != 0:
                _fail(f"sqz config edit: the editor exited with status {status}; {path} left unchanged")
            text = _read_text(draft)
            if text == start and before is not None:
                typer.echo(f"no change to {path}")
                return
            found = problems(path, kind, text)
            if not found:
                if before is None and text == _TEMPLATE:
                    typer.echo(f"nothing written ({path} not created)")
                    return
                _atomic_write(path, text)
                typer.echo(f"saved {path}")
                return
            for exc in found:
                typer.echo(f"sqz config edit: {exc}", err=True)
            if sys.stdin.isatty() and sys.stderr.isatty():
                answer = typer.prompt("edit again? [Y/n]", default="y", show_default=False, err=True)
                if answer.strip().lower() in ("", "y", "yes"):
                    start = text
                    continue
            rejected = path + ".rejected"
            os.replace(draft, rejected)
            _fail(f"sqz config edit: not saved: {path} left unchanged; your edit is in {rejected}")
    finally:
        if os.path.exists(draft):
            os.unlink(draft)


@config_app.command("validate")
def validate(files: Optional[List[str]] = typer.Argument(None, help="Files to check (default: the ones in use)."),
             as_json: bool = typer.Option(False, "--json", help=_JSON_HELP)):
    """Check config files against the schema; every problem as FILE:LINE: KEY: message. Exit 1 on any."""
    from .files import problems

    if files:
        todo = []
        for f in files:
            name = os.path.basename(f)
            # a project's file by its name; any other file is checked as a user's (every key allowed)
            kind = "pyproject" if name == "pyproject.toml" else "project" if name == ".sqz.yaml" else "user"
            todo.append((f, kind))
    else:
        todo = [(e[0], e[3]) for e in core.config_candidates()]
    report = []
    for path, kind in todo:
        if not os.path.isfile(path):
            report.append({"file": path, "ok": False, "errors": [f"{path}: no such file"]})
            continue
        if kind == "pyproject":
            from .files import ConfigError, read_pyproject

            try:
                if read_pyproject(path) is None:
                    if files:
                        report.append({"file": path, "ok": True, "errors": [], "note": "no [tool.sqz] table"})
                    continue
            except ConfigError:
                pass
        found = problems(path, kind)
        report.append({"file": path, "ok": not found, "errors": [str(e) for e in found]})
    if as_json:
        typer.echo(json.dumps({"ok": all(r["ok"] for r in report), "files": report}, indent=2))
    else:
        if not report:
            typer.echo(f"no config file in use (user: {core.user_config_path()}; project: .sqz.yaml or "
                       "[tool.sqz] in pyproject.toml)")
        for r in report:
            if r["ok"]:
                typer.echo(f"ok: {r['file']}" + (f" ({r['note']})" if r.get("note") else ""))
            for line in r["errors"]:
                typer.echo(line, err=True)
    if not all(r["ok"] for r in report):
        raise typer.Exit(1)


@config_app.command("schema")
def print_schema():
    """Print the JSON Schema the files are validated against (shipped in sqz-core)."""
    from .files import schema

    typer.echo(json.dumps(schema(), indent=2, ensure_ascii=False))
