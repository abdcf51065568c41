"""sqz formatter entry for ``docker`` (and ``docker-compose``).

``ps``/``container ls``, ``images``/``image ls`` and ``compose ps`` tables → lossless
compact tables (the generic pack's table parser, ``sqz_formatters_generic.api``). ``logs`` (log folding) and ``inspect`` (JSON)
are left to the generic stages; a custom ``--format`` or ``-q`` output is not a
table we know, so it passes through too.
"""

from __future__ import annotations

from sqz_core.api import FormatRequest, hookimpl

commands = ("docker", "docker-compose")

_LISTINGS = {("ps",), ("container", "ls"), ("container", "list"), ("container", "ps"), ("images",),
             ("image", "ls"), ("image", "list"), ("compose", "ps")}
_VALUE_OPTS = frozenset({"-H", "--host", "--context", "-c", "--config", "-l", "--log-level", "-f", "--file",
                         "-p", "--project-name", "--project-directory", "--env-file", "--profile"})


def listing_words(argv: tuple[str, ...]) -> tuple[tuple[str, ...], list[str]]:
    """The (up to two) command words and the remaining options of a docker command line."""
    words: list[str] = []
    opts: list[str] = []
    start = 1
    if argv and argv[0] == "docker-compose":
        words.append("compose")
    i = start
    while i < len(argv):
        a = argv[i]
        if a in _VALUE_OPTS and i + 1 < len(argv) and len(words) < 2:
            i += 2
            continue
        if a.startswith("-"):
            opts.append(a)
        elif len(words) < 2:
            words.append(a)
        i += 1
    return tuple(words), opts


@hookimpl
def sqz_format(request: FormatRequest) -> str | None:
    words, opts = listing_words(request.argv)
    if words[:1] not in {w[:1] for w in _LISTINGS}:
        return None
    if words not in _LISTINGS and words[:1] not in _LISTINGS:
        return None
    if any(o in ("-q", "--quiet") or o.startswith("--format") for o in opts):
        return None
    from sqz_formatters_generic.api import compact_tables

    return compact_tables(request.text)
