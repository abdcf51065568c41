"""The sqz-mcp server's tools: their definitions (what tools/list shows) and their implementations.

Descriptions are short and say when the client's built-in tool is the better choice. No tool
declares an ``outputSchema``; every result is ``{"content": [{"type": "text", …}]}``, with
``isError: true`` for failures the agent should read (bad path, missing file…).
"""

from __future__ import annotations

from . import file_tools
from .file_tools import ToolError
from .roots import PathRefused


def _schema(props: dict, required=()) -> dict:
    schema = {"type": "object", "properties": props, "additionalProperties": False}
    if required:
        schema["required"] = list(required)
    return schema


_INT = "integer"
READ_ONLY = {"readOnlyHint": True, "openWorldHint": False}

TOOLS = [
    {
        "name": "sqz_read_file",
        "description": (
            "Read a text file, every line verbatim. An unchanged re-read returns a short §ref:HASH§ "
            "(you already have it; expand shows it again); a re-read after an edit returns the changed lines. "
            "Stops at 256 KB with continue_with_offset in a header (max_bytes=0 lifts the cap). "
            "Prefer the built-in read for tiny files or byte-exact lockfiles."),
        "inputSchema": _schema({
            "path": {"type": "string", "description": "file path (relative to the working directory, or absolute)"},
            "offset": {"type": _INT, "minimum": 1, "description": "first line to return (1-based)"},
            "limit": {"type": _INT, "minimum": 1, "description": "number of lines to return"},
            "max_bytes": {"type": _INT, "minimum": 0, "description": "output cap (default 262144; 0 = up to 16 MB)"},
        }, ["path"]),
        "annotations": READ_ONLY,
    },
    {
        "name": "sqz_grep",
        "description": (
            "Search files for a literal string (regex=true: Python regex); prints path:line:text. "
            "Skips .git, node_modules, target, dist, build, vendor, __pycache__ and binary files. "
            "Caps (200 matches, 100 KB, lines clipped to 400 chars around the hit) are announced in a header. "
            "Prefer the built-in search to look inside skipped directories."),
        "inputSchema": _schema({
            "pattern": {"type": "string"},
            "path": {"type": "string", "description": "file or directory (default: working directory)"},
            "regex": {"type": "boolean", "description": "treat pattern as a regular expression"},
            "ignore_case": {"type": "boolean"},
            "max_matches": {"type": _INT, "minimum": 1, "description": "default 200"},
            "max_bytes": {"type": _INT, "minimum": 1, "description": "default 102400"},
            "max_line_chars": {"type": _INT, "minimum": 20, "description": "default 400"},
        }, ["pattern"]),
        "annotations": READ_ONLY,
    },
    {
        "name": "sqz_list_dir",
        "description": (
            "List a directory: names only, directories end in /, max_depth 1 = immediate children, "
            "at most 1000 entries. Skips .git, node_modules, target, dist, build, vendor, __pycache__ "
            "(named at the end). Prefer the built-in listing for sizes, dates or permissions."),
        "inputSchema": _schema({
            "path": {"type": "string", "description": "directory (default: working directory)"},
            "max_depth": {"type": _INT, "minimum": 1, "description": "default 1"},
            "max_entries": {"type": _INT, "minimum": 1, "description": "default 1000"},
        }),
        "annotations": READ_ONLY,
    },
    {
        "name": "compress",
        "description": ("Shorten text you already hold with sqz's generic stages (repeat folding, log and JSON "
                        "compaction). A shortened result names the prefix to pass to expand."),
        "inputSchema": _schema({"text": {"type": "string"}}, ["text"]),
    },
    {
        "name": "passthrough",
        "description": "Return text unchanged (for clients that cannot use §ref tokens).",
        "inputSchema": _schema({"text": {"type": "string"}}, ["text"]),
        "annotations": READ_ONLY,
    },
    {
        "name": "expand",
        "description": "The original content behind a §ref:HASH§ token, a HASH:L10-20 line range, a recovery "
                       "line's id (n + digits) or a hex prefix named in an sqz note.",
        "inputSchema": _schema({"ref": {"type": "string"}}, ["ref"]),
        "annotations": READ_ONLY,
    },
    {
        "name": "sqz_recall",
        "description": "Full-text search over outputs sqz stored in past sessions; each hit has a ref for expand.",
        "inputSchema": _schema({
            "query": {"type": "string"},
            "limit": {"type": _INT, "minimum": 1, "maximum": 50, "description": "default 10"},
        }, ["query"]),
        "annotations": READ_ONLY,
    },
]
TOOL_NAMES = frozenset(t["name"] for t in TOOLS)

INSTRUCTIONS = ("sqz: lossless file, grep and listing tools with dedup. A result `§ref:HASH§` means this session "
                "was already sent that exact content; call expand with it to see it again.")


class UnknownTool(Exception):
    """tools/call named a tool this server does not have (a JSON-RPC invalid-params error)."""


def text_result(text: str, is_error: bool = False) -> dict:
    res = {"content": [{"type": "text", "text": text}]}
    if is_error:
        res["isError"] = True
    return res


def _string_arg(args: dict, name: str, required: bool = True):
    value = args.get(name)
    if value is None and not required:
        return None
    if not isinstance(value, str):
        raise ToolError(f"{name} must be a string")
    return value


def _command(name: str, args: dict) -> str:
    """A short label of the call for stats and recall (``sqz_read_file src/app.py``)."""
    main = args.get("path") or args.get("pattern") or args.get("query") or ""
    if name == "sqz_grep":
        main = f"{args.get('pattern', '')!s} {args.get('path') or '.'}"
    label = f"{name} {main}".strip()
    return label[:300]


class ToolBox:
    """Runs one tool call: argument checks, root checks, the file tools, then compression."""

    def __init__(self, roots, compressor) -> None:
        self.roots = roots
        self.compressor = compressor

    def call(self, name: str, args, session: str) -> dict:
        """The tools/call result for ``name``; raises ``UnknownTool``; other exceptions are internal errors."""
        if name not in TOOL_NAMES:
            raise UnknownTool(name)
        if args is None:
            args = {}
        if not isinstance(args, dict):
            return text_result("arguments must be an object", is_error=True)
        try:
            return getattr(self, "_" + name)(args, session)
        except (ToolError, PathRefused) as exc:
            return text_result(str(exc), is_error=True)

    # -- file tools ------------------------------------------------------------------------
    def _sqz_read_file(self, args: dict, session: str) -> dict:
        path = _string_arg(args, "path")
        real = self.roots.resolve(path)
        data, header, _whole = file_tools.read_file(real, path, args, self.roots)
        text, note = file_tools.decode_content(data)
        if text == "":
            body = "(empty file)\n" if not header else ""
        else:
            body = self.compressor.compress_text(text, tool="sqz_read_file", session=session,
                                                 command=_command("sqz_read_file", args), file_content=True,
                                                 origin=real)
        head = "".join(h + "\n" for h in (header, note) if h)
        return text_result(head + body)

    def _sqz_grep(self, args: dict, session: str) -> dict:
        base = self.roots.resolve(_string_arg(args, "path", required=False))
        text = file_tools.grep(self.roots, base, args)
        return text_result(self.compressor.dedup_only(text, tool="sqz_grep", session=session,
                                                      command=_command("sqz_grep", args), origin=base))

    def _sqz_list_dir(self, args: dict, session: str) -> dict:
        base = self.roots.resolve(_string_arg(args, "path", required=False))
        text = file_tools.list_dir(self.roots, base, args)
        return text_result(self.compressor.dedup_only(text, tool="sqz_list_dir", session=session,
                                                      command=_command("sqz_list_dir", args), origin=base))

    # -- text tools ---------------------------------------------------------------------------
    def _compress(self, args: dict, session: str) -> dict:
        text = _string_arg(args, "text")
        try:
            return text_result(self.compressor.compress_text(text, tool="compress", session=session,
                                                             command="compress"))
        except Exception as exc:  # the input is always a correct answer
            from .compression import log

            log(f"compress failed, returning its input: {type(exc).__name__}: {exc}")
            return text_result(text)

    def _passthrough(self, args: dict, session: str) -> dict:
        return text_result(_string_arg(args, "text"))

    def _expand(self, args: dict, session: str) -> dict:
        from sqz_core.api import ExpandError

        ref = _string_arg(args, "ref")
        try:
            data = self.compressor.expand(ref, session=session, roots=self.roots)
        except (ExpandError, LookupError) as exc:
            return text_result(str(exc), is_error=True)
        return text_result(data.decode("utf-8", errors="replace"))

    def _sqz_recall(self, args: dict, session: str) -> dict:
        query = _string_arg(args, "query")
        limit = file_tools._int_arg(args, "limit", 10, 1)
        try:
            hits = self.compressor.recall(query, min(limit, 50), session=session, roots=self.roots)
        except LookupError as exc:
            return text_result(str(exc), is_error=True)
        if not hits:
            return text_result(f"nothing stored within this server's roots matches {query!r}\n")
        return text_result(format_recall(hits))


def _age(seconds) -> str:
    try:
        s = max(0, int(seconds))
    except (TypeError, ValueError):
        return "?"
    for unit, size in (("d", 86400), ("h", 3600), ("m", 60)):
        if s >= size:
            return f"{s // size}{unit}"
    return f"{s}s"


def format_recall(hits: list) -> str:
    """One block per hit: the ref, its age and command, then the matching snippet indented."""
    out = []
    for h in hits:
        ref = h.get("ref", "?")
        cmd = h.get("command") or "(no command)"
        out.append(f"{ref} {_age(h.get('age_seconds'))} ago: {cmd}")
        snippet = (h.get("snippet") or "").strip("\n")
        out.extend("  " + line for line in snippet.split("\n") if snippet)
    return "\n".join(out) + "\n"

