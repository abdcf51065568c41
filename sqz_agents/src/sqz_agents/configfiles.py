"""Editing agents' config files without disturbing them: JSON/JSONC, TOML, Markdown blocks.

Every edit here is a *text insertion*: the file is parsed only to find where to insert
(and to refuse a file that is invalid before we touch it), and the inserted text — the
"snippet" — is returned so that ``sqz uninstall`` can remove exactly it later and get
the original bytes back. Comments, key order, indentation and trailing commas of the
user's file are never re-serialised.

* JSON with comments (``//``, ``/* */``) and trailing commas: ``parse_jsonc`` builds a
  tree of spans; ``json_add_array_item`` appends an element to an array at a key path,
  creating missing objects/arrays as one snippet.
* TOML (Codex ``config.toml``): a new table is appended at the end of the file (always
  valid TOML), checked with ``tomllib``.
* Markdown/plain text guidance: a block between ``<!-- sqz:begin -->`` and
  ``<!-- sqz:end -->`` sentinels, replaced in place on re-run.
* YAML is avoided by writing whole files of our own (Continue's ``mcpServers/`` folder).
"""

from __future__ import annotations

import json
import os
import re

BEGIN = "<!-- sqz:begin (managed by `sqz init`; `sqz uninstall` removes it) -->"
END = "<!-- sqz:end -->"
_BLOCK = re.compile(r"\n?<!-- sqz:begin[^\n]*-->\n.*?<!-- sqz:end -->\n?", re.S)
# the block with the blank line ``md_set_block`` put before it (after a file ending in a newline)
_BLOCK_ADDED = re.compile(r"(?:(?<=\n)\n)?<!-- sqz:begin[^\n]*-->\n.*?<!-- sqz:end -->\n?", re.S)


class ConfigError(Exception):
    """A config file we must not edit (invalid before we touched it, or an unexpected shape)."""


# -- JSONC parsing with spans --------------------------------------------------------------------
class Node:
    """A parsed JSON value: ``kind`` (object/array/scalar), ``start``/``end`` offsets, children."""

    __slots__ = ("kind", "start", "end", "members", "key_starts", "items", "value")

    def __init__(self, kind: str, start: int) -> None:
        self.kind, self.start, self.end = kind, start, start
        self.members: list[tuple[str, Node]] = []
        self.key_starts: list[int] = []  # offset of each member's key (to remove a member)
        self.items: list[Node] = []
        self.value = None

    def get(self, key: str):
        for k, v in self.members:
            if k == key:
                return v
        return None


class _Parser:
    def __init__(self, text: str) -> None:
        self.s, self.i = text, 0

    def error(self, msg: str):
        line = self.s.count("\n", 0, self.i) + 1
        col = self.i - (self.s.rfind("\n", 0, self.i) + 1) + 1
        raise ConfigError(f"{msg} at line {line}, column {col}")

    def ws(self) -> None:
        s, n = self.s, len(self.s)
        while self.i < n:
            c = s[self.i]
            if c in " \t\r\n\ufeff":
                self.i += 1
            elif s.startswith("//", self.i):
                j = s.find("\n", self.i)
                self.i = n if j < 0 else j + 1
            elif s.startswith("/*", self.i):
                j = s.find("*/", self.i + 2)
                if j < 0:
                    self.error("unterminated comment")
                self.i = j + 2
            else:
                break

    def value(self) -> Node:
        self.ws()
        if self.i >= len(self.s):
            self.error("unexpected end of file")
        c = self.s[self.i]
        if c == "{":
            return self.obj()
        if c == "[":
            return self.arr()
        node = Node("scalar", self.i)
        if c == '"':
            node.value = self.string()
        else:
            m = re.compile(r"-?\d+(\.\d+)?([eE][+-]?\d+)?|true|false|null").match(self.s, self.i)
            if not m:
                self.error("unexpected character " + repr(c))
            self.i = m.end()
            node.value = json.loads(m.group(0))
        node.end = self.i
        return node

    def string(self) -> str:
        m = re.compile(r'"(?:[^"\\\n]|\\.)*"').match(self.s, self.i)
        if not m:
            self.error("bad string")
        self.i = m.end()
        try:
            return json.loads(m.group(0))
        except ValueError:
            self.error("bad string escape")

    def obj(self) -> Node:
        node = Node("object", self.i)
        self.i += 1
        while True:
            self.ws()
            if self.i < len(self.s) and self.s[self.i] == "}":
                self.i += 1
                break
            if self.i >= len(self.s) or self.s[self.i] != '"':
                self.error("expected a key")
            node.key_starts.append(self.i)
            key = self.string()
            self.ws()
            if self.i >= len(self.s) or self.s[self.i] != ":":
                self.error("expected ':'")
            self.i += 1
            node.members.append((key, self.value()))
            self.separator("}")
        node.end = self.i
        return node

    def arr(self) -> Node:
        node = Node("array", self.i)
        self.i += 1
        while True:
            self.ws()
            if self.i < len(self.s) and self.s[self.i] == "]":
                self.i += 1
                break
            node.items.append(self.value())
            self.separator("]")
        node.end = self.i
        return node

    def separator(self, close: str) -> None:
        """After a member: a comma (consumed) or the closing bracket (left for the loop)."""
        self.ws()
        if self.i < len(self.s) and self.s[self.i] == ",":
            self.i += 1
        elif not (self.i < len(self.s) and self.s[self.i] == close):
            self.error(f"expected ',' or '{close}'")


def parse_jsonc(text: str) -> Node:
    """Parse JSON with comments and trailing commas; ``ConfigError`` if invalid."""
    p = _Parser(text)
    root = p.value()
    p.ws()
    if p.i != len(text):
        p.error("unexpected text after the value")
    return root


def to_python(node: Node):
    """The plain Python value of a parsed node."""
    if node.kind == "object":
        return {k: to_python(v) for k, v in node.members}
    if node.kind == "array":
        return [to_python(v) for v in node.items]
    return node.value


def _indent_unit(text: str) -> str:
    m = re.search(r"\n([ \t]+)\S", text)
    if not m:
        return "  "
    ws = m.group(1)
    return "\t" if ws.startswith("\t") else " " * min(len(ws), 8)


def _line_indent(text: str, pos: int) -> str:
    start = text.rfind("\n", 0, pos) + 1
    m = re.match(r"[ \t]*", text[start:])
    return m.group(0)


def _dump(value, unit: str, base: str) -> str:
    """``value`` as JSON indented with ``unit``, continuation lines prefixed by ``base``."""
    indent = unit if unit != "\t" else "\t"
    text = json.dumps(value, indent=indent if indent != "\t" else 1, ensure_ascii=False)
    if unit == "\t":
        text = re.sub(r"(?m)^( +)", lambda m: "\t" * len(m.group(1)), text)
    return text.replace("\n", "\n" + base)


def _insert_into(text: str, node: Node, piece_for_indent) -> tuple[str, str, int]:
    """Insert a member/element into container ``node``; returns (new text, snippet, offset)."""
    unit = _indent_unit(text)
    base = _line_indent(text, node.start)
    inner = base + unit
    children = node.members if node.kind == "object" else node.items
    piece = piece_for_indent(unit, inner)
    if children:
        last = children[-1][1] if node.kind == "object" else children[-1]
        snippet = ",\n" + inner + piece
        at = last.end
    else:
        snippet = "\n" + inner + piece + "\n" + base
        at = node.start + 1
    return text[:at] + snippet + text[at:], snippet, at


def contains_text(value, marker: str) -> bool:
    """True if any string (key or value) inside ``value`` contains ``marker``."""
    if isinstance(value, str):
        return marker in value
    if isinstance(value, dict):
        return any(contains_text(k, marker) or contains_text(v, marker) for k, v in value.items())
    if isinstance(value, list):
        return any(contains_text(v, marker) for v in value)
    return False


def json_find(root: Node, path: list[str]) -> tuple[Node | None, int]:
    """The deepest node along ``path`` and how many keys were found."""
    node, depth = root, 0
    for key in path:
        if node.kind != "object":
            break
        child = node.get(key)
        if child is None:
            break
        node, depth = child, depth + 1
    return node, depth


def json_add_array_item(text: str, path: list[str], item, marker: str) -> tuple[str, str | None]:
    """Append ``item`` to the array at ``path`` unless an element already contains ``marker``.

    Missing objects/arrays along the path are created (as part of the one snippet).
    Returns (new text, snippet) — snippet None when nothing changed. ``ConfigError`` if
    the file is invalid or a key on the path holds something else than expected.
    """
    if not text.strip():
        text = "{}\n" if not text else text.rstrip() + "{}\n"
    root = parse_jsonc(text)
    if root.kind != "object":
        raise ConfigError("the top level is not a JSON object")
    node, depth = json_find(root, path)
    if depth == len(path):
        if node.kind != "array":
            raise ConfigError(f"'{'.'.join(path)}' is not a list")
        for el in node.items:
            if contains_text(to_python(el), marker):
                return text, None
        new, snippet, _ = _insert_into(text, node, lambda unit, inner: _dump(item, unit, inner))
        return new, snippet
    if node.kind != "object":
        raise ConfigError(f"'{'.'.join(path[:depth])}' is not an object")
    value = [item]
    for key in reversed(path[depth + 1:]):
        value = {key: value}
    key = path[depth]
    new, snippet, _ = _insert_into(text, node, lambda unit, inner: json.dumps(key) + ": " + _dump(value, unit, inner))
    return new, snippet


def json_set_member(text: str, path: list[str], key: str, value) -> tuple[str, str | None]:
    """Add ``key: value`` to the object at ``path`` (created if missing) unless ``key`` exists there."""
    if not text.strip():
        text = "{}\n" if not text else text.rstrip() + "{}\n"
    root = parse_jsonc(text)
    if root.kind != "object":
        raise ConfigError("the top level is not a JSON object")
    node, depth = json_find(root, path)
    if depth == len(path):
        if node.kind != "object":
            raise ConfigError(f"'{'.'.join(path)}' is not an object")
        if node.get(key) is not None:
            return text, None
        return _as_pair(_insert_into(text, node, lambda unit, inner: json.dumps(key) + ": " + _dump(value, unit, inner)))
    if node.kind != "object":
        raise ConfigError(f"'{'.'.join(path[:depth])}' is not an object")
    nested = {key: value}
    for k in reversed(path[depth + 1:]):
        nested = {k: nested}
    first = path[depth]
    return _as_pair(_insert_into(text, node, lambda unit, inner: json.dumps(first) + ": " + _dump(nested, unit, inner)))


def _as_pair(res: tuple[str, str, int]) -> tuple[str, str]:
    return res[0], res[1]


def remove_snippet(text: str, snippet: str) -> tuple[str, bool]:
    """Remove one exact occurrence of ``snippet``; (text, removed?)."""
    n = text.count(snippet)
    if n != 1:
        return text, False
    return text.replace(snippet, "", 1), True


def json_remove_marked(text: str, path: list[str], marker: str) -> tuple[str, int]:
    """Fallback removal: delete every element of the array at ``path`` containing ``marker``.

    Used when the recorded snippet is no longer present verbatim (the user edited the
    file since). Removes the element and one neighbouring comma; returns (text, count).
    """
    return json_remove_where(text, path, lambda value: contains_text(value, marker))


def json_remove_where(text: str, path: list[str], pred) -> tuple[str, int]:
    """Delete every element of the array at ``path`` whose value satisfies ``pred``; (text, count)."""
    count = 0
    while True:
        root = parse_jsonc(text)
        node, depth = json_find(root, path)
        if depth != len(path) or node.kind != "array":
            return text, count
        idx = next((i for i, el in enumerate(node.items) if pred(to_python(el))), None)
        if idx is None:
            return text, count
        el = node.items[idx]
        if idx > 0:
            start, end = node.items[idx - 1].end, el.end
        elif len(node.items) > 1:
            start, end = el.start, node.items[1].start
        else:
            start, end = node.start + 1, node.end - 1
        text = text[:start] + text[end:]
        count += 1


def json_remove_member(text: str, path: list[str], key: str) -> tuple[str, bool]:
    """Delete member ``key`` of the object at ``path`` with one neighbouring comma; (text, removed?)."""
    root = parse_jsonc(text)
    node, depth = json_find(root, path)
    if depth != len(path) or node.kind != "object":
        return text, False
    idx = next((i for i, (k, _) in enumerate(node.members) if k == key), None)
    if idx is None:
        return text, False
    if idx > 0:
        start, end = node.members[idx - 1][1].end, node.members[idx][1].end
    elif len(node.members) > 1:
        start, end = node.key_starts[0], node.key_starts[1]
    else:
        start, end = node.start + 1, node.end - 1
    return text[:start] + text[end:], True


# -- TOML -------------------------------------------------------------------------------------
def _toml_loads(text: str) -> dict:
    try:
        import tomllib
    except ImportError:  # Python 3.10
        try:
            import tomli as tomllib  # type: ignore[no-redef]
        except ImportError:
            return {}
    try:
        return tomllib.loads(text)
    except Exception as exc:
        raise ConfigError(f"invalid TOML: {exc}") from exc


def toml_value(value) -> str:
    """A TOML literal for a string, number, bool, list of strings or inline table of strings."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)  # a JSON string is a valid TOML basic string
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{_toml_key(k)} = {toml_value(v)}" for k, v in value.items()) + " }"
    raise ConfigError(f"cannot write {type(value).__name__} to TOML")


def _toml_key(key: str) -> str:
    return key if re.fullmatch(r"[A-Za-z0-9_-]+", key) else json.dumps(key)


def toml_add_table(text: str, table: list[str], body: dict) -> tuple[str, str | None]:
    """Append ``[a.b]`` with ``body`` at the end unless that table already exists."""
    data = _toml_loads(text)
    cur = data
    for key in table:
        if not isinstance(cur, dict) or key not in cur:
            cur = None
            break
        cur = cur[key]
    if cur is not None:
        return text, None
    lines = [f"[{'.'.join(_toml_key(k) for k in table)}]"]
    lines += [f"{_toml_key(k)} = {toml_value(v)}" for k, v in body.items()]
    sep = "" if not text else ("\n" if text.endswith("\n") else "\n\n")
    if text and not text.endswith("\n\n") and text.endswith("\n"):
        sep = "\n"
    snippet = sep + "\n".join(lines) + "\n"
    new = text + snippet
    _toml_loads(new)
    return new, snippet


def toml_table(text: str, table: list[str]):
    """The value of table ``[a.b]`` in ``text``, or None when absent."""
    cur = _toml_loads(text)
    for key in table:
        if not isinstance(cur, dict) or key not in cur:
            return None
        cur = cur[key]
    return cur


def toml_remove_table(text: str, table: list[str]) -> tuple[str, bool]:
    """Fallback removal of ``[a.b]``: its header line and the lines up to the next table header."""
    header = re.compile(r"[ \t]*\[\s*" + r"\s*\.\s*".join(re.escape(_toml_key(k)) for k in table) + r"\s*\][ \t]*(#[^\n]*)?")
    lines = text.splitlines(True)
    for i, line in enumerate(lines):
        if header.fullmatch(line.rstrip("\r\n")):
            j = i + 1
            while j < len(lines) and not lines[j].lstrip().startswith("["):
                j += 1
            start = i - 1 if i > 0 and not lines[i - 1].strip() else i
            new = "".join(lines[:start] + lines[j:])
            _toml_loads(new)
            return new, True
    return text, False


# -- Markdown blocks ------------------------------------------------------------------------------
def md_block(body: str) -> str:
    return f"{BEGIN}\n{body.rstrip()}\n{END}\n"


def md_set_block(text: str, body: str) -> tuple[str, str | None]:
    """Append (or leave, when identical) the sentinel-marked block; returns (text, snippet)."""
    block = md_block(body)
    m = _BLOCK.search(text)
    if m:
        if block.rstrip("\n") in m.group(0):
            return text, None
        raise ConfigError("an sqz block with different content is already present; run `sqz uninstall` first")
    sep = "" if not text else ("\n" if text.endswith("\n") else "\n\n")
    snippet = sep + block
    return text + snippet, snippet


def md_remove_block(text: str) -> tuple[str, bool]:
    """Fallback: drop any sentinel-marked sqz block."""
    new, n = _BLOCK_ADDED.subn("", text, count=1)
    return (new if n else text), bool(n)


def read_text(path: str) -> str | None:
    """File content (UTF-8, exact newlines), or None if absent."""
    try:
        with open(path, encoding="utf-8", newline="") as fh:
            return fh.read()
    except FileNotFoundError:
        return None
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{path}: not UTF-8 ({exc})") from exc


def write_text(path: str, text: str) -> None:
    """Write atomically, keeping the file's permissions."""
    d = os.path.dirname(path)
    if d:
        os.makedirs(d, exist_ok=True)
    mode = None
    try:
        mode = os.stat(path).st_mode & 0o7777
    except FileNotFoundError:
        pass
    tmp = f"{path}.sqz-tmp-{os.getpid()}"
    with open(tmp, "w", encoding="utf-8", newline="") as fh:
        fh.write(text)
    if mode is not None:
        os.chmod(tmp, mode)
    os.replace(tmp, path)


def backup(path: str, backup_dir: str) -> str | None:
    """Copy ``path`` into ``backup_dir`` (mirroring its absolute path); returns the copy's path."""
    import shutil

    if not os.path.exists(path):
        return None
    rel = os.path.abspath(path).lstrip(os.sep).replace(":", "")
    dest = os.path.join(backup_dir, rel)
    os.makedirs(os.path.dirname(dest), exist_ok=True)
    shutil.copy2(path, dest)
    return dest
