"""npm, pnpm, yarn and bun: installs without progress/funding chatter; scripts by their content.

``npm test`` / ``npm run X`` (and the pnpm/yarn/bun equivalents): the ``> pkg@ver
script`` banner goes and the script's output is compacted by the jest, vitest,
node --test, pytest or tsc formatter when it is recognisably theirs; otherwise None.
Installs keep every error and warning, each deprecation message once with every
``package@version`` npm deprecated with it (under one ``npm warn deprecated:`` line), and the ``added N packages`` / audit / ``Done``
results (funding notes and npm audit's generic "Some issues need review…" advice go); a run of five or more ``npm error``/``npm warn``
lines (an ERESOLVE report) prints its prefix once as ``npm error:`` with the lines'
text indented under it, and its empty ``npm error`` lines go. The packages whose install scripts
npm held back (``npm warn install-scripts``) stay; its advice line goes. A successful install's
request log (``--loglevel=http`` / ``--verbose``) becomes one ``npm http:`` line naming each tarball once,
npm's lines about its own invocation go (counted); a failing install keeps its whole log. yarn's
``All dependencies`` tree: up to 20 packages besides the direct ones on one line, more counted. yarn 2+
(berry): its steps' frames and version banner go, every ``YNxxxx`` message and the verdict stay.
``pnpm exec`` / ``pnpm dlx`` / ``npm exec`` / ``bun x`` run a runner with no banner: the same
formatters apply. A script that crashes node (a stack, then ``Node.js vX.Y.Z``) keeps its lines,
node's own frames folded as node --test folds them. Any npm command's ``EUSAGE`` report keeps
its message, help pointer and log line; the usage and option reference goes (counted).
"""

from __future__ import annotations

import re

from sqz_core.api import FormatRequest, hookimpl

from ._common import join_output, plural, shorter_or_none

commands = ("npm", "pnpm", "yarn", "bun")
# `npm test` running jest/vitest/node --test: a stack in their failure report is rendered by that
# runner's formatter, every `at` line kept (see the core's safety routing); anything else returns None
reports_traces = True

_INSTALL = frozenset({"install", "i", "ci", "add", "update", "up", "upgrade", "remove", "rm", "uninstall", "un"})
_RUN = frozenset({"test", "t", "tst", "run", "run-script", "rt", "exec", "x"})
_EXEC = frozenset({"exec", "dlx", "x"})   # a package's binary run directly: no script banner
_BANNER = re.compile(r"^> \S+(?:@\S+)? \S+$")
_BANNER_CMD = re.compile(r"^> \S.*$")
_YARN_BANNER = re.compile(r"^(?:yarn run v\d\S*|\$ \S.*)$")
_YARN_DONE = re.compile(r"^(?:Done in [\d.]+m?s\.|info Visit https://yarnpkg\.com/en/docs/cli/run .*)$")
_BUN_BANNER = re.compile(r"^\$ \S.*$")
_DEPRECATED = re.compile(r"^npm (?:warn|WARN) deprecated (?P<pkg>[^\s:]+): (?P<msg>.*)$")
_NPM_CHATTER = re.compile(
    r"^(?:\d+ packages? (?:is|are) looking for funding|  run `npm fund` for details|"
    r"Some issues need review, and may require choosing|a different dependency\.|"
    r"npm warn install-scripts|npm warn install-scripts Run `npm install-scripts ls` to review.*|)$")
_PNPM_CHATTER = re.compile(
    r"^(?:Progress: resolved \d+.*|Packages are (?:hard linked|copied|cloned) from the content-addressable store.*|"
    r"  Content-addressable store is at: .*|  Virtual store is at: .*|\++-*|-+|Downloading \S+: .*|"
    r"\? Verifying lockfile against supply-chain policies \(\d+/\d+ entries\)\.\.\.|"
    r"Lockfile is up to date, resolution step is skipped|Already up to date)$")
_YARN_CHATTER = re.compile(r"^(?:\[\d/\d\] \S.*|info No lockfile found\.|info Lockfile is up to date.*|"
                           r"yarn (?:add|install|remove|upgrade) v\d\S*)$")
_YARN_TREE = re.compile(r"^[├└]─ \S+$")
_BUN_CHATTER = re.compile(r"^(?:Resolving dependencies|Resolved, downloaded and extracted \[\d+\]|"
                          r"Saved lockfile|bun (?:add|install|remove) v\d\S*(?: \(\w+\))?)$")
_RESULT = re.compile(
    r"^(?:added \d+ packages?|removed \d+ packages?|changed \d+ packages?|up to date|audited \d+ packages?|"
    r"found \d+ vulnerabilit|npm error |npm ERR! |Done in |success |error |ERR_PNPM_\S+|"
    r"\d+ packages? installed|installed \S+@|error: |Packages: [+-]\d+|dependencies:|devDependencies:|"
    r" ?[\u2009 ]*\d+ (?:low|moderate|high|critical) severity)")


# --loglevel=http / --verbose: one line per registry request, and npm's own preamble about itself
_HTTP_FETCH = re.compile(r"^npm http fetch (?P<method>[A-Z]+) (?P<status>\d{3}) (?P<url>\S+) \d+ms(?: \([\w ]+\))?$")
_HTTP_CACHE = re.compile(
    r"^npm http cache (?:@[^\s@/]+/)?[^\s@]+@(?P<url>\S+) \d+ms \(cache (?:hit|revalidated|stale)\)$")
_TARBALL = re.compile(r"^[a-z]+://[^/\s]+/(?P<path>(?:@[^/\s]+/)?[^/\s]+)/-/(?P<file>[^/\s]+\.tgz)$")
_VERBOSE_ENV = re.compile(r"^npm verbose (?:cli|title|argv|logfile logs-max:\S+|cwd|os|node|npm) .*$")


def _tarball(url: str) -> str | None:
    """``express-4.22.3.tgz`` for a registry tarball URL (``@types/node-20.1.0.tgz`` for a scoped one), else None."""
    m = _TARBALL.match(url)
    if not m:
        return None
    scope = m.group("path").split("/")[0] + "/" if m.group("path").startswith("@") else ""
    return scope + m.group("file")


def compact_http_log(lines: list[str]) -> list[str]:
    """A successful install's request log (``--loglevel=http``/``--verbose``) summarised.

    Each tarball npm fetched or took from its cache is named once (``express-4.22.3.tgz``) on one
    ``npm http:`` line, with the count of the successful registry requests it stands for; npm's
    ``verbose`` lines about its own invocation (cli, title, argv, log dir, cwd, os, node and npm
    versions) go, counted. A request answered with anything but 2xx/304 stays verbatim, so does
    every other line. Only called on an install without ``npm error`` lines: a failing one keeps
    its whole log.
    """
    out: list[str] = []
    slot = None
    tarballs: dict[str, None] = {}
    requests = env = 0
    for line in lines:
        if line.startswith("npm "):
            f = _HTTP_FETCH.match(line)
            c = None if f else _HTTP_CACHE.match(line)
            if f and (f.group("status").startswith("2") or f.group("status") == "304") or c:
                name = _tarball((f or c).group("url"))
                if name is not None:
                    tarballs[name] = None
                requests += 1
                if slot is None:
                    slot = len(out)
                    out.append("")
                continue
            if _VERBOSE_ENV.match(line):
                env += 1
                continue
        out.append(line)
    if slot is not None:
        text = f"npm http: {plural(requests, 'request')} answered 2xx/304 or from the cache"
        if tarballs:
            text += f"; {plural(len(tarballs), 'tarball')}: " + ", ".join(tarballs)
        out[slot] = text
    if env:
        out.append(f"({plural(env, 'npm verbose line')} about npm's own invocation dropped)")
    return out


_PREFIXED = re.compile(r"^(?P<prefix>npm (?:error|warn|ERR!|WARN))(?: (?P<text>.*))?$")
PREFIX_RUN = 5   # shorter runs stay as npm printed them
ALL_DEPS_SHOWN = 20   # yarn's `All dependencies` beyond its direct ones: listed up to this many, else counted


def fold_prefix_runs(lines: list[str]) -> list[str]:
    """Runs of ``PREFIX_RUN`` or more lines with one npm prefix: the prefix once, the texts indented under it."""
    out: list[str] = []
    i, n = 0, len(lines)
    while i < n:
        m = _PREFIXED.match(lines[i])
        if not m:
            out.append(lines[i])
            i += 1
            continue
        j = i
        while j < n and (pm := _PREFIXED.match(lines[j])) and pm.group("prefix") == m.group("prefix"):
            j += 1
        if j - i < PREFIX_RUN:
            out.extend(lines[i:j])
        else:
            out.append(m.group("prefix") + ":")
            for line in lines[i:j]:
                text = _PREFIXED.match(line).group("text") or ""
                if text.strip():
                    out.append("  " + text)
        i = j
    return out


_USAGE = "npm error Usage:"
_HELP_POINTER = re.compile(r'^npm error Run "npm help [\w-]+" for more info$')


def drop_usage(lines: list[str]) -> list[str] | None:
    """An ``npm error code EUSAGE`` report without the command's usage and option reference.

    Kept: the code, the message npm explains the misuse with, the ``Run "npm help X"`` pointer
    and the log line. Dropped (counted): the one-line summary of the command before ``Usage:``,
    the usage, every option and its description, the aliases. None when this is not that report
    (no EUSAGE code, or no ``Usage:`` … ``Run "npm help X"`` block after it).
    """
    if "npm error code EUSAGE" not in lines:
        return None
    start = lines.index("npm error code EUSAGE")
    try:
        usage = lines.index(_USAGE, start)
    except ValueError:
        return None
    end = next((k for k in range(usage + 1, len(lines)) if _HELP_POINTER.match(lines[k])), None)
    if end is None:
        return None
    cut = usage
    if cut - 3 > start and lines[cut - 1] == lines[cut - 3] == "npm error" != lines[cut - 2]:
        cut -= 2  # the command's one-line summary (`npm error Clean install a project`) and its spacer
    return fold_prefix_runs(
        lines[:cut] + [f"npm error ({plural(end - cut, 'line')} of usage and options dropped)"] + lines[end:])


# yarn 2+ (berry): every line is `➤ YNxxxx: …`; YN0000 draws each step's frame and the closing verdict
_BERRY_LINE = re.compile(r"^➤ (?P<code>YN\d{4}): (?P<text>.*)$")
_BERRY_FRAME = re.compile(r"^(?:┌ [\w -]+|└ Completed(?: in (?:\d+m )?\d+s(?: \d+ms)?)?|· Yarn \d+\.\d+\.\d+\S*)$")
_BERRY_VERDICT = re.compile(r"^· (?:Done|Failed)\b")


def compact_berry(lines: list[str]) -> list[str] | None:
    """yarn 2+ (berry) output: each step's frame (``┌ Resolution step``, ``└ Completed in 1s``) and the
    version banner go; every other ``YNxxxx`` message stays, without its ``➤`` and ``│`` marks, and so
    does the closing ``· Done…`` / ``· Failed with errors…`` verdict. None without that verdict, or
    when a line is not berry's."""
    out: list[str] = []
    for line in lines:
        if not line.strip():
            continue
        m = _BERRY_LINE.match(line)
        if m is None:
            return None
        text = m.group("text")
        if m.group("code") == "YN0000" and _BERRY_FRAME.match(text):
            continue
        if text.startswith("│ "):
            text = text[2:]
        out.append(f"{m.group('code')}: {text}")
    if not any(x.startswith("YN0000: ") and _BERRY_VERDICT.match(x[8:]) for x in out):
        return None
    return out


def compact_install(lines: list[str]) -> list[str] | None:
    """An install's output without progress and funding notes, each deprecation message once."""
    first = next((x for x in lines if x.strip()), "")
    if first.startswith("➤ YN"):
        return compact_berry(lines)
    out: list[str] = []
    deprecations: dict[str, list[str]] = {}   # message → the package@versions npm deprecated with it
    deprecation_slot = None
    chatter = 0
    in_all_deps = False
    all_deps: list[str] = []     # yarn's `info All dependencies` tree
    direct: set[str] = set()     # the packages of its `info Direct dependencies` tree
    for line in lines:
        d = _DEPRECATED.match(line)
        if d:
            deprecations.setdefault(d.group("msg"), []).append(d.group("pkg"))
            if deprecation_slot is None:
                deprecation_slot = len(out)
                out.append("")
            continue
        if line == "info All dependencies":
            in_all_deps = True
            continue
        if _YARN_TREE.match(line):
            if in_all_deps:
                all_deps.append(line[3:])
                continue
            direct.add(line[3:])
        if (_NPM_CHATTER.match(line) or _PNPM_CHATTER.match(line) or _YARN_CHATTER.match(line)
                or _BUN_CHATTER.match(line)):
            chatter += 1 if line.strip() else 0
            continue
        in_all_deps = False
        out.append(line)
    if not any(_RESULT.match(x) for x in out):
        return None
    if deprecation_slot is not None:
        texts = [f"{', '.join(dict.fromkeys(pkgs))}: {msg}" for msg, pkgs in deprecations.items()]
        out[deprecation_slot:deprecation_slot + 1] = (
            ["npm warn deprecated " + texts[0]] if len(texts) == 1
            else ["npm warn deprecated:"] + ["  " + t for t in texts])
    if not any(x.startswith(("npm error", "npm ERR!")) for x in out):
        out = compact_http_log(out)
    out = fold_prefix_runs(out)
    if all_deps:
        extra = [x for x in all_deps if x not in direct]
        if len(extra) <= ALL_DEPS_SHOWN:
            if extra:
                out.append("info All dependencies (besides the direct ones): " + ", ".join(extra))
        else:
            out.append(f"({plural(len(all_deps), 'transitive dependency', 'transitive dependencies')} not listed)")
    return out


def strip_banner(lines: list[str]) -> tuple[list[str], bool]:
    """The script's own output: npm's ``> pkg@ver name`` / ``> cmd`` banner and yarn's frame removed."""
    out = list(lines)
    while out and not out[0].strip():
        out.pop(0)
    found = False
    if len(out) >= 2 and _BANNER.match(out[0]) and _BANNER_CMD.match(out[1]):
        out = out[2:]
        found = True
    elif out and _YARN_BANNER.match(out[0]):
        out = out[1:]
        if out and _BUN_BANNER.match(out[0]):
            out = out[1:]
        found = True
    elif out and _BUN_BANNER.match(out[0]):
        out = out[1:]
        found = True
    while out and not out[0].strip():
        out.pop(0)
    while out and (not out[-1].strip() or _YARN_DONE.match(out[-1])):
        out.pop()
    return out, found


def compact_script(lines: list[str], exit_code: int | None, bare: bool = False) -> list[str] | None:
    """A script's output compacted by the formatter of the tool that printed it, or None.

    ``bare``: the command runs a package's binary directly (``pnpm exec``, ``pnpm dlx``, ``bun x``,
    ``npm exec``), so there is no script banner to find; otherwise a missing banner gives None.
    """
    from . import js_jest, js_node_test, js_tsc, js_vitest

    body, found = strip_banner(lines)
    if not found and not bare:
        return None
    trailer: list[str] = []
    while body and body[-1].startswith(("npm error ", "npm ERR! ", "error Command failed", " ELIFECYCLE ")):
        trailer.insert(0, body.pop())  # the package manager's own failure notice, kept verbatim
    failing = exit_code not in (None, 0)
    out = js_jest.compact_jest(body)
    if out is not None and failing and not js_jest.jest_is_red(body):
        return None  # a failing status the test summary does not explain
    if out is None:
        out = js_vitest.compact_vitest(body)
        if out is not None and failing and not js_vitest.vitest_is_red(body):
            return None
    if out is None and js_node_test.is_node_test_output(body):
        out = js_node_test.compact_node_test(body)
    if out is None and js_tsc.is_tsc_output(body):
        out = js_tsc.group_plain(body) or body  # grouped by file when a file has several errors
    if out is None and is_node_crash(body):
        folded = js_node_test.fold_node_frames(body)
        return folded + trailer if len(folded) < len(body) else None
    if out is None:
        return None
    return out + trailer


_NODE_TRAILER = re.compile(r"^Node\.js v\d+\.\d+\.\d+$")
_AT_FRAME = re.compile(r"^ +at \S")


def is_node_crash(body: list[str]) -> bool:
    """True when the script's output ends as node ends on an uncaught exception: a stack, then ``Node.js vX.Y.Z``."""
    return bool(body) and _NODE_TRAILER.match(body[-1]) is not None and any(_AT_FRAME.match(x) for x in body)


@hookimpl
def sqz_format(request: FormatRequest) -> str | None:
    """Installs and test/run scripts; other subcommands (ls, view, publish…) give None."""
    sub = request.subcommand()
    usage = drop_usage(request.lines)
    if usage is not None:
        return shorter_or_none(join_output(usage), request.text)
    if sub in _INSTALL or (request.program in ("yarn", "pnpm", "bun") and sub is None):
        out = compact_install(request.lines)
    elif sub in _RUN or (request.program in ("yarn", "pnpm", "bun") and sub is not None):
        out = compact_script(request.lines, request.exit_code, bare=sub in _EXEC)
    else:
        return None
    if out is None:
        return None
    return shorter_or_none(join_output(out), request.text)
