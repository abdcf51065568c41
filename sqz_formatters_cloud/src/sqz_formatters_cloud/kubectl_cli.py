"""sqz formatter entry for ``kubectl``.

``get`` and ``events`` tables (default and ``-o wide``) → lossless compact tables;
``describe`` → ``kubectl_describe``; repeated client-go error lines in any verb are
folded (``kubectl_errors``). ``-o yaml``/``-o json``, ``logs`` and anything
unrecognised return None: the generic JSON and log-folding stages handle those.
"""

from __future__ import annotations

from sqz_core.api import FormatRequest, hookimpl

commands = ("kubectl",)

# options that take a separate value, so the verb is not mistaken for it
_VALUE_OPTS = frozenset({"-n", "--namespace", "--context", "--cluster", "--user", "--kubeconfig", "-s", "--server",
                         "-l", "--selector", "-o", "--output", "-f", "--filename", "-c", "--container",
                         "--field-selector", "--sort-by", "--request-timeout", "-L", "--label-columns"})


def verb_and_output(argv: tuple[str, ...]) -> tuple[str | None, str | None]:
    """kubectl's verb and the value of ``-o``/``--output`` (None when absent)."""
    verb = output = None
    i = 1
    while i < len(argv):
        a = argv[i]
        if a in ("-o", "--output") and i + 1 < len(argv):
            output = argv[i + 1]
            i += 2
            continue
        if a.startswith("--output=") or (a.startswith("-o") and len(a) > 2):
            output = a.split("=", 1)[1] if "=" in a else a[2:]
        elif a in _VALUE_OPTS:
            i += 2
            continue
        elif not a.startswith("-") and verb is None:
            verb = a
        i += 1
    return verb, output


@hookimpl
def sqz_format(request: FormatRequest) -> str | None:
    from .kubectl_errors import KLOG, fold_klog_repeats

    lines = request.text.split("\n")
    if any(KLOG.match(l) for l in lines):
        folded, count = fold_klog_repeats(lines)
        return "\n".join(folded) if count else None
    verb, output = verb_and_output(request.argv)
    if verb in ("get", "events") and output in (None, "wide"):
        from sqz_formatters_generic.api import compact_tables

        return compact_tables(request.text)
    if verb == "describe":
        from .kubectl_describe import format_describe

        return format_describe(request.text)
    return None
