"""sqz formatter entry for ``terraform`` and ``tofu`` (OpenTofu prints the same shapes).

Dispatches on the subcommand: plan/apply/destroy → ``terraform_plan``; init →
``terraform_init``; ``show -json`` of a state → ``terraform_show``; plan/apply/destroy
``-json`` (the machine-readable UI stream) → ``terraform_ui_json``. A saved plan's JSON,
``output -json`` and anything else go to the generic stages (JSON compaction) by returning None.
"""

from __future__ import annotations

from sqz_core.api import FormatRequest, hookimpl

commands = ("terraform", "tofu")

_PLAN_VERBS = frozenset({"plan", "apply", "destroy"})


def subcommand_after_chdir(request: FormatRequest) -> str | None:
    """The verb after ``-chdir=DIR`` and other global options."""
    for word in request.argv[1:]:
        if not word.startswith("-"):
            return word
    return None


@hookimpl
def sqz_format(request: FormatRequest) -> str | None:
    verb = subcommand_after_chdir(request)
    if verb == "show" and "-json" in request.argv:
        from .terraform_show import format_show_json

        return format_show_json(request.text)
    if verb in _PLAN_VERBS and "-json" in request.argv:
        from .terraform_ui_json import format_ui_stream

        return format_ui_stream(request.text)
    if verb is None or "-json" in request.argv:
        return None
    if verb in _PLAN_VERBS:
        from .terraform_plan import format_plan

        return format_plan(request.text)
    if verb == "init":
        from .terraform_init import format_init

        return format_init(request.text)
    return None
