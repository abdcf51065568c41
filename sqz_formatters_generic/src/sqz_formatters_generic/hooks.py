"""The pack's hooks: what an output no formatter claimed is, and its compact rendering.

A catch-all (``commands = ("*",)``) whose format hook is ``trylast``: every formatter that
claims the program answers first, and the core asks ``sqz_detect`` only when none of them
did. File content is never a kind. The kinds' modules are imported only when their kind
is detected or compressed.
"""

from __future__ import annotations

from sqz_core.api import hookimpl

commands = ("*",)


@hookimpl
def sqz_detect(request):
    """The content kind (``kinds.KINDS``) of ``request.text``, from the program or the text itself."""
    if request.is_file_content():
        return None
    from .kinds import detect_kind

    return detect_kind(request.text, request)


@hookimpl(trylast=True)
def sqz_format(request):
    """``request.text`` rendered compactly as its kind; None leaves the generic clean-up to the pipeline."""
    if request.kind is None or request.is_file_content():
        return None
    from .kinds import compress_kind

    return compress_kind(request.kind, request)
