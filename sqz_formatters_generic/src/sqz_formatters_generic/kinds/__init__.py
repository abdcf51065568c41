"""Content kinds: compact renderings for output that no per-command formatter claimed.

``detect_kind`` names what the text is (from the program that printed it, else from the
text itself); ``compress_kind`` renders it shorter without dropping a fact the reader acts
on, or returns None when nothing safe can be done. File content is never a kind. Each
kind's module is imported only when that kind is compressed (this package sits on the
hot path).
"""

from __future__ import annotations

KINDS = ("json", "jsonl", "yaml", "log", "table", "ls", "find", "tree", "du", "grep",
         "markdown", "html", "deptree", "runs", "columns", "templates", "lockfile")

# kind -> (module, function)
_HANDLERS = {
    "json": ("json_doc", "compress_json"),
    "jsonl": ("json_doc", "compress_jsonl"),
    "yaml": ("yaml_doc", "compress_yaml"),
    "log": ("log_lines", "compress_log"),
    "table": ("aligned_table", "compress_table"),
    "ls": ("listings", "compress_ls"),
    "find": ("listings", "compress_find"),
    "tree": ("listings", "compress_tree"),
    "du": ("listings", "compress_du"),
    "grep": ("grep_matches", "compress_grep"),
    "markdown": ("markdown_doc", "compress_markdown"),
    "html": ("html_page", "compress_html"),
    "deptree": ("dep_tree", "compress_deptree"),
    "runs": ("line_runs", "compress_runs"),
    "columns": ("constant_columns", "compress_columns"),
    "templates": ("templates", "compress_templates"),
    "lockfile": ("lockfile", "compress_lockfile"),
}

_TABLE_PROGRAMS = frozenset({"ps", "df", "free", "lsblk", "netstat", "ss", "psql", "sqlite3", "mysql", "mariadb",
                             "duckdb", "dpkg", "dpkg-query"})
_GREP_PROGRAMS = frozenset({"grep", "egrep", "fgrep", "rg", "ag"})


def _module(name: str):
    import importlib

    return importlib.import_module(f"{__name__}.{name}")


def _output_format(argv: tuple) -> str | None:
    """The value of ``-o``/``--output``/``--format`` (``json``, ``yaml``, ``wide`` …), if given."""
    for i, a in enumerate(argv):
        if a in ("-o", "--output", "--format") and i + 1 < len(argv):
            return argv[i + 1].split("=", 1)[0]
        for opt in ("-o", "--output=", "--format=", "-o="):
            if a.startswith(opt) and len(a) > len(opt):
                return a[len(opt):].lstrip("=").split("=", 1)[0]
        if a == "--json":
            return "json"
    return None


def _kind_by_program(request) -> str | None:
    """What the program's own output is, when the command says so."""
    argv = request.argv
    prog = request.program
    if not prog:
        return None
    if prog == "ls":
        if any(a.startswith("-") and not a.startswith("--") and "l" in a for a in argv[1:]):
            return "ls"
        return None
    if prog in ("find", "tree", "du"):
        return prog
    if prog in _GREP_PROGRAMS:
        if "--json" in argv:
            return "jsonl"
        # ``grep ERROR app.log``: the matching lines of one file, no path in front: a log is still a log
        return "log" if _module("log_lines").looks_like_log(request.text) else "grep"
    sub = request.subcommand()
    fmt = _output_format(argv)
    if fmt == "json" or any(a.startswith("--message-format=json") for a in argv):
        json_doc = _module("json_doc")
        if not json_doc.looks_like_json(request.text) and json_doc.looks_like_jsonl(request.text):
            return "jsonl"
        return "json"
    if fmt == "yaml":
        return "yaml"
    if prog in _TABLE_PROGRAMS:
        return "table"
    if (prog == "npm" and sub in ("ls", "list", "la", "ll")) or (prog == "cargo" and sub == "tree"):
        return "deptree"
    if prog in ("pip", "pip3") and sub == "list":
        return "deptree"
    if prog == "pipdeptree":
        return "deptree"
    if (prog == "docker" and sub in ("ps", "images")) or (prog == "kubectl" and sub in ("get", "top")):
        return "table"
    return None


def detect_kind(text: str, request) -> str | None:
    """The content kind of ``text`` (one of ``KINDS``), or None; always None for file content."""
    if request.is_file_content() or not text.strip():
        return None
    from sqz_core.api import FILE_PROGRAMS

    if request.program in FILE_PROGRAMS:
        # a file read the core let through because it printed a log or a lockfile (``sqz_core.logread``):
        # the log kind (or JSON lines), or the lockfile kind, reads it; no other kind's summary is
        # applied to a file's content
        from sqz_core.api import reads_lockfile

        if reads_lockfile(request.argv):
            return "lockfile" if _module("lockfile").syntax_of(text, request.argv) else None
        return _sniff_log_read(text)
    kind = _kind_by_program(request)
    if kind is not None:
        return kind
    return _sniff(text)


def _sniff_log_read(text: str) -> str | None:
    """A file read the core let through as a log: JSON lines, JSON or the log kind, else None."""
    head = text.lstrip()[:1]
    if head in ("{", "["):
        json_doc = _module("json_doc")
        if json_doc.looks_like_json(text):
            return "json"
        if json_doc.looks_like_jsonl(text):
            return "jsonl"
    return "log" if _module("log_lines").looks_like_log(text, read=True) else None


def _sniff(text: str) -> str | None:
    """Kinds that the text shows by itself, cheapest and most certain first."""
    if _module("lockfile").looks_like_lockfile(text):
        return "lockfile"
    head = text.lstrip()[:1]
    if head in ("{", "["):
        json_doc = _module("json_doc")
        if json_doc.looks_like_json(text):
            return "json"
    if "\n{" in text[:65536] or head == "{":
        if _module("json_doc").looks_like_jsonl(text):
            return "jsonl"
    if head == "<" and _module("html_page").looks_like_html(text):
        return "html"
    for kind, module, test in (("yaml", "yaml_doc", "looks_like_yaml"),
                               ("log", "log_lines", "looks_like_log"),
                               ("table", "aligned_table", "looks_like_table"),
                               ("markdown", "markdown_doc", "looks_like_markdown"),
                               ("runs", "line_runs", "looks_like_runs"),
                               ("columns", "constant_columns", "looks_like_columns"),
                               ("templates", "templates", "looks_like_templates")):
        if getattr(_module(module), test)(text):
            return kind
    return None


def compress_kind(kind: str, request) -> str | None:
    """``request.text`` rendered compactly as ``kind``, or None when nothing safe can be done."""
    if kind not in _HANDLERS or request.is_file_content():
        return None
    module, func = _HANDLERS[kind]
    return getattr(_module(module), func)(request)
