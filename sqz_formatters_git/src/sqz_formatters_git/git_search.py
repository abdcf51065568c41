"""``git grep`` and ``git ls-files``: the same shapes as ``grep`` and ``find`` print, rendered by
the generic pack's kinds (``sqz_formatters_generic.api``): matches grouped under their file, paths under their
directory. Only the options whose output keeps that shape are taken; any other (``-p``, ``-W``,
``--heading``, context lines, ``-o``, ``--column``, ``-z``, ``ls-files -s``/``--format`` …) → None.
"""

from __future__ import annotations

from ._common import args_after

# git grep options whose output is grep's `path:N:text` / `path:text` / `path` / `path:count`
_GREP_FLAGS = frozenset("niIwEFGPvlLc")
_GREP_LONG = frozenset({"--line-number", "--ignore-case", "--word-regexp", "--extended-regexp", "--fixed-strings",
                        "--basic-regexp", "--perl-regexp", "--invert-match", "--full-name", "--cached", "--untracked",
                        "--no-index", "--recurse-submodules", "--files-with-matches", "--files-without-match",
                        "--count", "--no-color", "--color=never", "--text", "--no-textconv", "--exclude-standard"})
_GREP_AS = {"--name-only": "-l"}  # git's spelling of grep's option
_LS_FILES = frozenset({"-c", "--cached", "-o", "--others", "-m", "--modified", "-d", "--deleted", "-i", "--ignored",
                       "--exclude-standard", "--full-name", "--directory", "--no-empty-directory"})


def _grep_argv(args: list[str]) -> tuple[str, ...] | None:
    """``grep`` and its words for the generic pack's grep kind, or None for an option outside the shape."""
    out = ["grep"]
    i = 0
    while i < len(args):
        a = args[i]
        if a == "--":
            out.extend(args[i:])
            break
        if a in ("-e", "--regexp"):
            if i + 1 >= len(args):
                return None
            out.extend(args[i:i + 2])
            i += 2
            continue
        if a.startswith("--"):
            if a not in _GREP_LONG and a not in _GREP_AS:
                return None
            out.append(_GREP_AS.get(a, a))
        elif a.startswith("-") and len(a) > 1:
            if not set(a[1:]) <= _GREP_FLAGS:
                return None
            out.append(a)
        else:
            out.append(a)
        i += 1
    return tuple(out)


def format_grep(request) -> str | None:
    argv = _grep_argv(args_after(request, "grep"))
    if argv is None or any(x.startswith('"') for x in request.text.splitlines()):
        return None  # (a path git quoted would not read back from the grouped form)
    from sqz_formatters_generic.api import compress_kind
    from sqz_core.api import FormatRequest

    return compress_kind("grep", FormatRequest(request.text, argv=argv, exit_code=request.exit_code))


def format_ls_files(request) -> str | None:
    args = args_after(request, "ls-files")
    words = args[:args.index("--")] if "--" in args else args
    if any(a.startswith("-") and a not in _LS_FILES for a in words):
        return None
    lines = request.text.splitlines()
    if any(x.startswith('"') or x != x.strip() or not x for x in lines):
        return None
    from sqz_formatters_generic.api import group_paths

    return group_paths(request.text)
