"""The ``go`` command: routes ``go test`` to ``go_test`` and ``go build``/``vet`` to ``go_build``.

One entry point claims the program ``go``; the verb decides which formatter runs.
Other verbs (``go run``, ``go mod``, ``go env`` …) are not ours: None.
"""

from __future__ import annotations

from sqz_core.api import FormatRequest, hookimpl

commands = ("go",)
# a panic inside `go test` is part of the failure report: rendered by go_test (the program's frames
# verbatim, the runtime's named), recoverable with `sqz expand` (see the core's safety routing)
reports_traces = True

# Options of `go test`/`go build` that take a separate value (so the value is not the verb).
_VALUED = frozenset({"-C"})


def go_verb(argv: tuple[str, ...]) -> str | None:
    args = argv[1:]
    i = 0
    while i < len(args):
        a = args[i]
        if a in _VALUED:
            i += 2
            continue
        if a.startswith("-"):
            i += 1
            continue
        return a
    return None


def has_unknown_shape(argv: tuple[str, ...]) -> bool:
    """Options that change the output into something this formatter does not parse."""
    for a in argv:
        if a in ("-x", "-n", "-list", "-test.list", "-json=false") or a.startswith(("-list=", "-coverprofile", "-trace")):
            return True
    return False


@hookimpl
def sqz_format(request: FormatRequest) -> str | None:
    if request.is_file_content() or request.program != "go":
        return None
    verb = go_verb(request.argv)
    if verb not in ("test", "build", "vet", "install"):
        return None
    if has_unknown_shape(request.argv):
        return None
    if verb == "test":
        from .go_test import format_go_test

        json_mode = "-json" in request.argv or "-json=true" in request.argv
        return format_go_test(request.text, request.exit_code, json_mode)
    from .go_build import format_go_build

    return format_go_build(request.text, request.exit_code)
