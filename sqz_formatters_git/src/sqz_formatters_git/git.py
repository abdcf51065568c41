"""The ``git`` entry point: one module claiming ``git``, dispatching by subcommand.

Each concern lives in its own module (``git_status``, ``git_diff``, ``git_log``, ``git_refs``,
``git_blame``, ``git_remote_ops``, ``git_local_ops``, ``git_search``), imported only when its subcommand runs.
"""

from __future__ import annotations

from sqz_core.api import hookimpl

commands = ("git",)

# subcommand -> (module, function)
_ROUTES = {
    "status": ("git_status", "format_status"),
    "diff": ("git_diff", "format_diff"),
    "stash": ("git_diff", "format_stash"),
    "show": ("git_log", "format_show"),
    "log": ("git_log", "format_log"),
    "format-patch": ("git_log", "format_format_patch"),
    "bisect": ("git_log", "format_bisect"),
    "branch": ("git_refs", "format_branch"),
    "tag": ("git_refs", "format_tag"),
    "remote": ("git_refs", "format_remote"),
    "blame": ("git_blame", "format_blame"),
    "fetch": ("git_remote_ops", "format_transfer"),
    "pull": ("git_remote_ops", "format_transfer"),
    "push": ("git_remote_ops", "format_transfer"),
    "clone": ("git_remote_ops", "format_transfer"),
    "commit": ("git_local_ops", "format_local"),
    "add": ("git_local_ops", "format_local"),
    "checkout": ("git_local_ops", "format_local"),
    "switch": ("git_local_ops", "format_local"),
    "merge": ("git_local_ops", "format_local"),
    "rebase": ("git_local_ops", "format_local"),
    "cherry-pick": ("git_local_ops", "format_local"),
    "revert": ("git_local_ops", "format_local"),
    "reset": ("git_local_ops", "format_local"),
    "restore": ("git_local_ops", "format_local"),
    "am": ("git_local_ops", "format_local"),
    "grep": ("git_search", "format_grep"),
    "ls-files": ("git_search", "format_ls_files"),
}


# characters str.splitlines() breaks a line at besides \n and \r: a file's text holding one
# (U+2028 in a diff line, a form feed in a commit message) would be cut into lines git never printed
_OTHER_LINE_BREAKS = ("\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029")


def _route(request) -> str | None:
    sub = request.subcommand()
    route = _ROUTES.get(sub or "")
    if route is None:
        return None
    import importlib

    module = importlib.import_module(f"{__package__}.{route[0]}")
    if sub == "commit" and request.exit_code not in (None, 0):
        # `git commit` with nothing staged prints the long status
        from .git_status import format_long

        status = format_long(request.text)
        if status is not None:
            return status
    return getattr(module, route[1])(request)


@hookimpl
def sqz_format(request) -> str | None:
    """Compact git output for the subcommands above; None for anything else."""
    if request.program != "git" or request.is_file_content() or not request.text.strip():
        return None
    if any(c in request.text for c in _OTHER_LINE_BREAKS) or "\r" in request.text:
        # the modules split with str.splitlines(): refuse rather than split inside a line; a carriage
        # return left after terminal clean-up is a file's (a line turned CRLF in a diff) and would be lost
        return None
    out = _route(request)
    if out is None or len(out) >= len(request.text):
        return None  # not recognised, or nothing gained: leave it to the generic stages
    return out
