"""TOON-style text for JSON values: indentation for objects, one header and a row per item
for arrays of uniform objects, inline lists for arrays of primitives.

Follows the TOON format's syntax (``key[N]{f1,f2}:`` headers, comma rows, quoting only
when needed, escapes ``\\\\ \\" \\n \\r \\t``). One extension keeps it lossless for any
JSON string: other control characters are written ``\\u00XX``. ``decode`` reads back
exactly what ``encode`` writes (``decode(encode(x)) == x``).
"""

from __future__ import annotations

import re
from sqz_core.api import lazy_pattern as lazy

_KEY = lazy(r"[A-Za-z_][A-Za-z0-9_.]*")
_NUMBER = lazy(r"-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?\Z")
_NUMERIC_LIKE = lazy(r"-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?\Z|0\d+\Z")
_NEEDS_QUOTE = lazy(r'[:"\\\[\]{}\x00-\x1f\x7f]')
_ESCAPE = lazy(r'[\\"\x00-\x1f\x7f]')
_ESCAPES = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\r": "\\r", "\t": "\\t"}
_UNESCAPE = lazy(r'\\(u[0-9a-fA-F]{4}|.)', re.S)
_SIMPLE = {"\\": "\\", '"': '"', "n": "\n", "r": "\r", "t": "\t"}
_PRIMITIVES = (str, int, float, bool, type(None))


class ToonError(ValueError):
    """Text that is not in the form ``encode`` writes."""


def _escape_char(m: re.Match) -> str:
    ch = m.group(0)
    return _ESCAPES.get(ch) or "\\u%04x" % ord(ch)


def quote(s: str) -> str:
    return '"' + _ESCAPE.sub(_escape_char, s) + '"'


def format_number(x) -> str:
    """Canonical decimal text (no exponent); floats keep a fraction so they stay floats."""
    if isinstance(x, int):
        return str(x)
    if x != x or x in (float("inf"), float("-inf")):
        raise ToonError("non-finite number")
    r = repr(x)
    if "e" in r or "E" in r:
        from decimal import Decimal

        r = format(Decimal(r), "f")
        if "." not in r:
            r += ".0"
    return r


def format_scalar(v, delim: str = ",") -> str:
    """One primitive as TOON text; strings are quoted only when reading them back bare would differ."""
    if v is None:
        return "null"
    if v is True:
        return "true"
    if v is False:
        return "false"
    if isinstance(v, (int, float)):
        return format_number(v)
    if (not v or v[0] in " -" or v[-1] == " " or v.strip() != v or v in ("true", "false", "null")
            or delim in v or _NEEDS_QUOTE.search(v) or _NUMERIC_LIKE.match(v)):
        return quote(v)
    return v


def format_key(k: str) -> str:
    return k if _KEY.fullmatch(k) else quote(k)


def is_primitive(v) -> bool:
    return isinstance(v, _PRIMITIVES)


def is_tabular(arr: list) -> bool:
    """Two or more objects with the same non-empty key set and only primitive values."""
    if len(arr) < 2 or not isinstance(arr[0], dict) or not arr[0]:
        return False
    keys = arr[0].keys()
    for item in arr:
        if not isinstance(item, dict) or item.keys() != keys:
            return False
        for v in item.values():
            if not isinstance(v, _PRIMITIVES):
                return False
    return True


def encode_table(arr: list, prefix: str = "", depth: int = 0) -> list[str]:
    """Header of keys once, then one comma row per object (``is_tabular(arr)`` must hold)."""
    fields = list(arr[0])
    ind = "  " * depth
    lines = [f"{ind}{prefix}[{len(arr)}]{{{','.join(format_key(f) for f in fields)}}}:"]
    row_ind = "  " * (depth + 1)
    for item in arr:
        lines.append(row_ind + ",".join(format_scalar(item[f]) for f in fields))
    return lines


def encode(value) -> str:
    """The whole value as TOON-style lines."""
    out: list[str] = []
    if isinstance(value, dict):
        _encode_object(value, 0, out)
    elif isinstance(value, list):
        _encode_array("", value, 0, out)
    else:
        out.append(format_scalar(value))
    return "\n".join(out)


def _encode_object(obj: dict, depth: int, out: list[str]) -> None:
    for k, v in obj.items():
        _encode_field(format_key(k), v, depth, out)


def _encode_field(key: str, v, depth: int, out: list[str]) -> None:
    ind = "  " * depth
    if isinstance(v, dict):
        out.append(f"{ind}{key}:")
        _encode_object(v, depth + 1, out)
    elif isinstance(v, list):
        _encode_array(key, v, depth, out)
    else:
        out.append(f"{ind}{key}: {format_scalar(v)}")


def _encode_array(prefix: str, arr: list, depth: int, out: list[str]) -> None:
    ind = "  " * depth
    if not arr:
        out.append(f"{ind}{prefix}[0]:")
    elif all(isinstance(v, _PRIMITIVES) for v in arr):
        out.append(f"{ind}{prefix}[{len(arr)}]: " + ",".join(format_scalar(v) for v in arr))
    elif is_tabular(arr):
        out.extend(encode_table(arr, prefix, depth))
    else:
        out.append(f"{ind}{prefix}[{len(arr)}]:")
        for v in arr:
            _encode_item(v, depth + 1, out)


def _encode_item(v, depth: int, out: list[str]) -> None:
    ind = "  " * depth
    if isinstance(v, list):
        start = len(out)
        _encode_array("", v, depth, out)
        out[start] = ind + "- " + out[start][len(ind):]
    elif isinstance(v, dict):
        if not v:
            out.append(ind + "-")
            return
        start = len(out)
        _encode_object(v, depth + 1, out)
        out[start] = ind + "- " + out[start][len(ind) + 2:]
    else:
        out.append(f"{ind}- {format_scalar(v)}")


# ---------------------------------------------------------------- decoding


def _unescape(m: re.Match) -> str:
    e = m.group(1)
    if e in _SIMPLE:
        return _SIMPLE[e]
    if e[0] == "u" and len(e) == 5:
        return chr(int(e[1:], 16))
    raise ToonError(f"bad escape \\{e}")


def _read_quoted(s: str, i: int) -> tuple[str, int]:
    """The quoted string starting at ``s[i] == '"'`` and the index after its closing quote."""
    j = i + 1
    n = len(s)
    while j < n:
        c = s[j]
        if c == "\\":
            j += 2
            continue
        if c == '"':
            return _UNESCAPE.sub(_unescape, s[i + 1:j]), j + 1
        j += 1
    raise ToonError("unterminated string")


def parse_scalar(tok: str):
    tok = tok.strip()
    if tok.startswith('"'):
        s, end = _read_quoted(tok, 0)
        if end != len(tok):
            raise ToonError(f"text after a quoted value: {tok!r}")
        return s
    if tok == "null":
        return None
    if tok == "true":
        return True
    if tok == "false":
        return False
    if _NUMBER.match(tok):
        return float(tok) if any(c in tok for c in ".eE") else int(tok)
    return tok


def split_row(s: str, delim: str = ",") -> list[str]:
    """Split on ``delim`` outside quotes."""
    cells, cur, i, n = [], 0, 0, len(s)
    while i < n:
        c = s[i]
        if c == '"':
            _, i = _read_quoted(s, i)
            continue
        if c == delim:
            cells.append(s[cur:i])
            cur = i + 1
        i += 1
    cells.append(s[cur:])
    return cells


def decode_table(lines: list[str]) -> tuple[str, list[dict]]:
    """Read one ``key[N]{fields}:`` block written by ``encode_table``: (key, rows)."""
    key, i = _read_key(lines[0].strip(), 0)
    n, fields, rest = _read_header(lines[0].strip(), i)
    if fields is None or rest.strip() or len(lines) - 1 != n:
        raise ToonError("not a table block")
    return key, [_row(line, fields) for line in lines[1:]]


def _row(line: str, fields: list[str]) -> dict:
    cells = split_row(line.strip())
    if len(cells) != len(fields):
        raise ToonError(f"row has {len(cells)} cells for {len(fields)} fields")
    return dict(zip(fields, (parse_scalar(c) for c in cells)))


def _read_key(s: str, i: int) -> tuple[str, int]:
    if i < len(s) and s[i] == '"':
        return _read_quoted(s, i)
    m = _KEY.match(s, i)
    if not m:
        return "", i
    return m.group(0), m.end()


def _read_header(s: str, i: int) -> tuple[int, list[str] | None, str]:
    """``[N]`` then optional ``{f1,f2}`` then ``:``; returns (N, fields or None, text after the colon)."""
    j = s.index("]", i)
    n = int(s[i + 1:j])
    j += 1
    fields = None
    if j < len(s) and s[j] == "{":
        fields = []
        j += 1
        while True:
            k, j = _read_key(s, j)
            fields.append(k)
            if s[j] == ",":
                j += 1
            elif s[j] == "}":
                j += 1
                break
            else:
                raise ToonError("bad field list")
    if j >= len(s) or s[j] != ":":
        raise ToonError("header without colon")
    return n, fields, s[j + 1:]


def decode(text: str):
    """Read back a document written by ``encode``."""
    lines = []
    for raw in text.split("\n"):
        if not raw.strip():
            continue
        body = raw.lstrip(" ")
        lines.append(((len(raw) - len(body)) // 2, body))
    if not lines:
        return {}
    p = _Parser(lines)
    first = lines[0][1]
    if first.startswith("["):
        p.i = 1
        value = p.array_after_header(first, 0, 1)
    elif len(lines) == 1 and not p.is_field(first):
        p.i = 1
        value = parse_scalar(first)
    else:
        value = p.object(0)
    if p.i != len(lines):
        raise ToonError(f"unread line {p.i + 1}")
    return value


class _Parser:
    __slots__ = ("lines", "i")

    def __init__(self, lines: list[tuple[int, str]]) -> None:
        self.lines = lines
        self.i = 0

    @staticmethod
    def is_field(body: str) -> bool:
        try:
            key, j = _read_key(body, 0)
        except ToonError:
            return False
        return j < len(body) and body[j] in ":[" and (bool(key) or body[0] == '"')

    def object(self, depth: int) -> dict:
        obj: dict = {}
        while self.i < len(self.lines):
            d, body = self.lines[self.i]
            if d != depth or body == "-" or body.startswith("- "):
                break
            self.i += 1
            k, v = self.field(body, depth)
            obj[k] = v
        return obj

    def field(self, body: str, depth: int):
        key, j = _read_key(body, 0)
        if j < len(body) and body[j] == "[":
            return key, self.array_after_header(body, j, depth + 1)
        if j >= len(body) or body[j] != ":":
            raise ToonError(f"missing colon: {body!r}")
        rest = body[j + 1:]
        if rest.strip():
            return key, parse_scalar(rest)
        if self.i < len(self.lines) and self.lines[self.i][0] > depth:
            return key, self.object(depth + 1)
        return key, {}

    def array_after_header(self, body: str, j: int, child_depth: int) -> list:
        n, fields, rest = _read_header(body, j)
        if fields is not None:
            rows = [self.take(child_depth) for _ in range(n)]
            return [_row(r, fields) for r in rows]
        if rest.strip():
            vals = [parse_scalar(c) for c in split_row(rest[1:] if rest.startswith(" ") else rest)]
            if len(vals) != n:
                raise ToonError("inline array length mismatch")
            return vals
        return [self.item(child_depth) for _ in range(n)]

    def take(self, depth: int) -> str:
        if self.i >= len(self.lines) or self.lines[self.i][0] != depth:
            raise ToonError(f"expected a line at depth {depth}")
        body = self.lines[self.i][1]
        self.i += 1
        return body

    def item(self, depth: int):
        body = self.take(depth)
        if body == "-":
            return {}
        if not body.startswith("- "):
            raise ToonError(f"expected a list item: {body!r}")
        body = body[2:]
        if body.startswith("["):
            return self.array_after_header(body, 0, depth + 1)
        if self.is_field(body):
            k, v = self.field(body, depth + 1)
            obj = {k: v}
            obj.update(self.object(depth + 1))
            return obj
        return parse_scalar(body)
