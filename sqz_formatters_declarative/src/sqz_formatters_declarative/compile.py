"""YAML specs to the plain data the hot path runs: parsed (ruamel.yaml), validated (jsonschema),
every pattern checked for linear time, and every problem named by file, line and key.

Off the hot path: ``sources`` calls this only when a spec file changed since it was last compiled,
and writes the result to a JSON cache that a warm call reads without ruamel or jsonschema.
"""

from __future__ import annotations

import json
import os

PATTERN_KEYS = ("keep", "drop", "fold")
SCHEMA_FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "schema.json")
_schema: dict | None = None


def schema() -> dict:
    """The JSON Schema of one declarative formatter (``schema.json``, published with the package)."""
    global _schema
    if _schema is None:
        with open(SCHEMA_FILE, encoding="utf-8") as fh:
            _schema = json.load(fh)
    return _schema


def key_path(path) -> str:
    """``formatters[0].on_failure.errors[1]`` for the path ``("formatters", 0, "on_failure", "errors", 1)``."""
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "(top)"


def line_of(root, path) -> int | None:
    """The 1-based line of the node at ``path`` in a ruamel round-trip tree (None for plain data)."""
    node, line = root, None
    for part in path:
        lc = getattr(node, "lc", None)
        try:
            if lc is not None:
                line = (lc.item(part) if isinstance(part, int) else lc.key(part))[0] + 1
            node = node[part]
        except (KeyError, IndexError, TypeError, AttributeError):
            break
    if line is None:
        lc = getattr(root, "lc", None)
        line = (lc.line + 1) if lc is not None and lc.line is not None else None
    return line


def _where(source: str, root, path) -> str:
    line = line_of(root, path)
    return f"{source}:{line}" if line is not None else source


def _names(value) -> list[str]:
    return [value] if isinstance(value, str) else [str(v) for v in value]


def _plain(node):
    """ruamel's commented containers as plain dicts and lists (what the cache stores)."""
    if isinstance(node, dict):
        return {str(k): _plain(v) for k, v in node.items()}
    if isinstance(node, list):
        return [_plain(v) for v in node]
    return node


def compile_items(items, source: str, origin: str, root=None, base=(), lines=None) -> tuple[list[dict], list[str]]:
    """Compile a list of spec mappings found at ``base`` in ``root``; ``(specs, errors)``.

    A spec with any error is left out whole (a half-applied filter could hide what its author
    meant to keep); the others are compiled. ``lines``: each item's line, for plain data without
    positions (a ``[tool.sqz]`` table).
    """
    from jsonschema import Draft202012Validator

    from .linear import PatternError, check

    validator = Draft202012Validator(schema())
    root = root if root is not None else items
    specs, errors = [], []
    if not isinstance(items, list):
        return [], [f"{_where(source, root, base)}: {key_path(base)}: a list of formatters is expected, "
                    f"not {type(items).__name__}"]
    seen: dict[str, str] = {}
    for i, item in enumerate(items):
        at = (*base, i)
        problems = []
        fallback = lines[i] if lines is not None and i < len(lines) else None

        def where(path, fallback=fallback) -> str:
            if fallback and getattr(root, "lc", None) is None:  # plain data: the item's own line
                return f"{source}:{fallback}"
            return _where(source, root, path)

        plain = _plain(item)
        for err in sorted(validator.iter_errors(plain), key=lambda e: list(map(str, e.absolute_path))):
            path = (*at, *err.absolute_path)
            if err.validator == "additionalProperties" and isinstance(err.instance, dict):
                unknown = sorted(k for k in err.instance if k not in err.schema.get("properties", {}))
                path = (*path, unknown[0]) if unknown else path
            problems.append(f"{where(path)}: {key_path(path)}: {_message(err)}")
        match = plain.get("match") if isinstance(plain, dict) else None
        failure = plain.get("on_failure") if isinstance(plain, dict) else None
        failure = failure if isinstance(failure, dict) else {}
        fields = [(("match", "argv"), "argv", match.get("argv") if isinstance(match, dict) else None)]
        fields += [((key,), key, plain.get(key) if isinstance(plain, dict) else None) for key in PATTERN_KEYS]
        fields.append((("on_failure", "errors"), "errors", failure.get("errors")))
        checked: dict[str, object] = {}
        for keys, name, patterns in fields:
            if name == "argv":
                if isinstance(patterns, str):
                    try:
                        checked[name] = [patterns, check(patterns)]
                    except PatternError as exc:
                        path = (*at, *keys)
                        problems.append(f"{where(path)}: {key_path(path)}: {patterns!r}: {exc}")
                continue
            out = []
            for j, pattern in enumerate(patterns if isinstance(patterns, list) else []):
                if not isinstance(pattern, str):
                    continue  # the schema said so
                try:
                    out.append([pattern, check(pattern)])
                except PatternError as exc:
                    path = (*at, *keys, j)
                    problems.append(f"{where(path)}: {key_path(path)}: {pattern!r}: {exc}")
            checked[name] = out
        if not problems:
            if plain["name"] in seen:
                problems.append(f"{where((*at, 'name'))}: {key_path((*at, 'name'))}: "
                                f"the name {plain['name']!r} is already used at {seen[plain['name']]}")
            compiled = {"name": plain["name"], "source": source, "origin": origin,
                        "programs": _names(match["program"]),
                        "subcommands": _names(match["subcommand"]) if "subcommand" in match else None,
                        "argv": checked.get("argv"), "strip_ansi": plain.get("strip_ansi", True),
                        "keep": checked["keep"], "drop": checked["drop"], "fold": checked["fold"],
                        "fold_min": plain.get("fold_min", 3), "fold_identical": plain.get("fold_identical", True),
                        "fold_similar": plain.get("fold_similar", False),
                        "head": plain.get("head"), "tail": plain.get("tail"),
                        "errors": checked["errors"], "context": failure.get("context", 0),
                        "keep_all": failure.get("keep_all", False)}
        if problems:
            errors.extend(problems)
            continue
        seen[plain["name"]] = where(at)
        specs.append(compiled)
    return specs, errors


def _message(err) -> str:
    if err.validator == "additionalProperties":
        allowed = sorted(err.schema.get("properties", {}))
        return f"{err.message} (allowed: {', '.join(allowed)})"
    if err.validator == "oneOf" and err.schema.get("oneOf"):
        return f"{err.instance!r} is neither a name nor a list of names"
    return err.message


def parse(text: str, source: str):
    """``(tree, None)`` for YAML text, or ``(None, error)`` naming the file and line."""
    from ruamel.yaml import YAML
    from ruamel.yaml.error import MarkedYAMLError, YAMLError

    try:
        return YAML(typ="rt").load(text), None
    except MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = f":{mark.line + 1}" if mark is not None else ""
        return None, f"{source}{line}: not valid YAML: {exc.problem or exc.context}"
    except YAMLError as exc:
        return None, f"{source}: not valid YAML: {exc}"


def compile_text(text: str, source: str, origin: str) -> tuple[list[dict], list[str]]:
    """A spec file's text: one formatter (a mapping with ``name``), or ``formatters:`` and a list of them."""
    tree, error = parse(text, source)
    if error is not None:
        return [], [error]
    if tree is None:
        return [], []  # an empty file defines nothing
    if isinstance(tree, dict) and "formatters" in tree:
        extra = sorted(str(k) for k in tree if k != "formatters")
        if extra:
            return [], [f"{_where(source, tree, (extra[0],))}: {extra[0]}: unknown key beside `formatters`"]
        return compile_items(tree["formatters"], source, origin, tree, ("formatters",))
    if isinstance(tree, dict):
        specs, errors = compile_items([tree], source, origin, [tree], ())
        return specs, [e.replace(f"{source}: [0]", f"{source}: (top)").replace(": [0].", ": ", 1) for e in errors]
    return [], [f"{source}:1: a formatter (a mapping with name and match) or `formatters:` and a list is expected"]


def compile_file(path: str, origin: str) -> tuple[list[dict], list[str]]:
    try:
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
    except (OSError, UnicodeDecodeError) as exc:
        return [], [f"{path}: cannot be read: {exc}"]
    return compile_text(text, path, origin)


def programs_of(path: str) -> list[str]:
    """The program names a spec file names under ``match.program``, read even when the file is broken
    (so a note about it is shown for the commands it was meant for only)."""
    try:
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
    except (OSError, UnicodeDecodeError):
        return []
    tree, error = parse(text, path)
    if error is not None or not isinstance(tree, dict):
        return []
    items = tree.get("formatters") if "formatters" in tree else [tree]
    found = []
    for item in items if isinstance(items, list) else []:
        match = item.get("match") if isinstance(item, dict) else None
        program = match.get("program") if isinstance(match, dict) else None
        if isinstance(program, str):
            found.append(program)
        elif isinstance(program, list):
            found.extend(str(p) for p in program if isinstance(p, str))
    return found


def compile_config(path: str, origin: str, specs: list, lines: list) -> tuple[list[dict], list[str]]:
    """A config file's ``formatters:`` list (``specs`` as the config loader read them): from the YAML
    tree itself when the file is YAML, so each error names its key's own line; else (``[tool.sqz]``)
    each spec's line."""
    if path.endswith((".yaml", ".yml")):
        try:
            with open(path, encoding="utf-8") as fh:
                tree, error = parse(fh.read(), path)
        except (OSError, UnicodeDecodeError):
            tree, error = None, "unreadable"
        if error is None and isinstance(tree, dict) and _plain(tree.get("formatters")) == specs:
            return compile_items(tree["formatters"], path, origin, tree, ("formatters",))
    return compile_items(specs, path, origin, None, ("formatters",), lines)
