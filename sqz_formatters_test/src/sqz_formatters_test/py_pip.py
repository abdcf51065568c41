"""pip install|download|uninstall|list|check / uv pip install|sync / uv add|remove|sync: drop index, download
and progress chatter.

Kept verbatim: every ERROR/error and warning line (except pip's notes about ignored
index locations), the result lines (``Successfully installed …``, ``Saved …``,
uv's ``+ pkg==ver`` list), what a build made (``Obtaining …``, ``Building wheel for X …: finished
with status …``, ``Created wheel for X: filename=… size=…``, ``Successfully built X``), every
``Requirement already satisfied: … (VERSION)`` line (a dependency's too: its name and version are what
is installed; its ``(from A->B->…->Z)`` chain is cut to ``(from …->Z)``, the requirement it comes
from) and any line not recognised as chatter. A replaced package's ``Successfully uninstalled X-ver``
stays (unindented); the resolver's "looking at multiple versions" note and its generic "To fix this
you could try to" advice go (the conflict's causes stay).

With ``-v`` (pip then opens with ``Using pip X from …``) the ``Downloading NAME (SIZE)`` lines stay too,
and the build steps pip runs in subprocesses (``Running command …`` up to the step's ``finished with
status``) lose setuptools' per-file log (``running …``, ``creating …``, ``writing …``, ``adding '…'``),
counted; their messages, warnings and errors stay.

``pip uninstall`` keeps each ``Successfully uninstalled NAME-VERSION`` line (not the steps before it);
``pip list`` / ``pip check`` / ``pip uninstall`` lose pip's notes about ignored index locations (counted).
"""

from __future__ import annotations

import re

from sqz_core.api import FormatRequest, hookimpl

from ._common import join_output, plural, shorter_or_none

commands = ("pip", "pip3", "uv")

_PIP_CHATTER = re.compile(
    r"^ *(?:Looking in indexes: |Looking in links: |WARNING: Location '.*' is ignored: |"
    r"Collecting |Downloading |Using cached |Processing |"
    r"Installing collected packages: |Attempting uninstall: |"
    r"Found existing installation: |Uninstalling |Building wheels for collected packages: |"
    r"Stored in directory: |File was already downloaded )")
# a build step's progress (`  Preparing metadata (pyproject.toml): started`, `… ... done`); a failed step stays
_STEP_PROGRESS = re.compile(
    r"^ *(?:Installing build dependencies|Checking if build backend supports \w+|Getting requirements to build \w+"
    r"|Preparing (?:editable )?metadata \([\w.]+\)): (?:started|finished with status 'done')$"
    r"|^ *(?:Installing build dependencies|Getting requirements to build \w+"
    r"|Preparing (?:editable )?metadata \([\w.]+\)) \.\.\. done$"
    r"|^ *Building (?:wheel|editable) for \S+ \([\w.]+\): started$")
# pip -v: the subprocess a build step runs, from `  Running command …` to the step's closing status
_RUNNING = re.compile(r"^( *)Running command ")
_STEP_END = re.compile(r": finished with status '\w+'$")
_DOWNLOAD = re.compile(r"^ *Downloading \S+ \(")
_VERBOSE = re.compile(r"-v+")
# the resolver's progress note and the generic advice under a conflict (the conflict's causes are kept)
_RESOLVER_ADVICE = re.compile(
    r"^(?:INFO: pip is looking at multiple versions of \S+ to determine which version is compatible with other "
    r"requirements\. This could take a while\.|To fix this you could try to:|1\. loosen the range of package "
    r"versions you've specified|2\. remove package versions to allow pip (?:to )?attempt to solve the dependency "
    r"conflict)$")
_PROGRESS_BAR = re.compile(r"^\s*[━╸╺─]+ [\d.]+/[\d.]+ [kMG]?B .*eta ")
_PIP_RESULT = re.compile(r"^(?:Successfully installed |Successfully downloaded |Saved |ERROR: |"
                         r"Would install )")
_UV_CHATTER = re.compile(r"^(?:Using Python \S+ environment at: |Resolved \d+ packages? in |"
                         r"Prepared \d+ packages? in |Audited \d+ packages? in |"
                         r" *(?:Downloading|Downloaded|Building|Built) )")
_UV_RESULT = re.compile(r"^(?:Installed \d+ packages? in |Uninstalled \d+ packages? in | [+~-] \S+==\S+|"
                        r"error: |warning: |Audited \d+ packages? in )")


# A build backend's output that pip shows in a box (`╰─> [N lines of output]` … `[end of output]`).
_BOX_OPEN = re.compile(r"^ *╰─> \[\d+ lines? of output\]$")
_BOX_CLOSE = re.compile(r"^ *\[end of output\]$")
# setuptools' progress inside the box, and the compiler commands it runs (what fails is the diagnostic below)
_BUILD_CHATTER = re.compile(
    r"^(?:running \w+|creating \S.*|copying \S+ -> \S+|writing \S.*|reading manifest \S.*|adding license file \S.*"
    r"|adding '[^']+'|removing \S.*|building '\S+' extension|(?:/usr/bin/)?(?:[\w.-]+-)?(?:gcc|g\+\+|cc|c\+\+|clang|clang\+\+)(?:-\d+)? .*)$")
_C_GUTTER = re.compile(r"^ *(?:\d+ )?\|")
_SUBPROCESS_NOTE = re.compile(r"^ *note: This error originates from a subprocess, and is likely not a problem with pip\.$")
_CLEAN = re.compile(r"^ *Running setup\.py clean for \S+$")


def compact_box(lines: list[str], start: int) -> tuple[list[str], int, int]:
    """The box opening at ``lines[start]``: ``(kept lines, index past the box, lines dropped)``.

    Kept: the box's frame, the backend's warnings and errors, a C compiler's diagnostics
    without the source snippet under them. Dropped: setuptools' progress (``running
    build_ext``, ``creating …``, ``copying …``) and the compiler commands it echoes.
    """
    from .c_diagnostics import diagnostic_severity

    end = start + 1
    while end < len(lines) and not _BOX_CLOSE.match(lines[end]):
        end += 1
    if end == len(lines):
        return [lines[start]], start + 1, 0    # no closing line: not a box this knows, kept line by line
    body = lines[start + 1:end]
    indent = min((len(x) - len(x.lstrip(" ")) for x in body if x.strip()), default=0)
    text = [x[indent:] for x in body]
    kept: list[str] = []
    in_snippet = False        # under a C compiler's diagnostic: its `  2 | code` / `    |  ^~~` lines
    for x in text:
        if in_snippet and _C_GUTTER.match(x) or _BUILD_CHATTER.match(x):
            continue
        sev = diagnostic_severity(x)
        in_snippet = sev is not None and sev != "?" or in_snippet and _C_GUTTER.match(x) is not None
        kept.append(x)
    pad = " " * indent
    return [lines[start]] + [pad + x for x in kept] + [lines[end]], end + 1, len(body) - len(kept)


_SATISFIED = "Requirement already satisfied: "


def shorten_chain(line: str) -> str:
    """A ``Requirement already satisfied`` line whose ``(from A->B->…->Z)`` chain (why a dependency is
    there, link by link) is cut to its origin: ``(from …->Z)``, ``Z`` being the requirement file line or
    the package asked for. The requirement, where it is installed and its version stay as printed; a
    one-link ``(from A)`` stays whole."""
    if not line.startswith(_SATISFIED) or not line.endswith(")"):
        return line
    start = line.find(" (from ")
    end = line.rfind(" (")
    if start < 0 or end <= start or line[end - 1] != ")":
        return line
    chain = line[start + 7:end - 1]
    if "->" not in chain:
        return line
    return f"{line[:start]} (from …->{chain.rsplit('->', 1)[1]}){line[end:]}"


def compact_pip(lines: list[str], verbose: bool = False) -> list[str] | None:
    """pip's install/download output without chatter; None when no result or error line is seen.

    ``verbose`` (pip -v) keeps the ``Downloading NAME (SIZE)`` lines; a build step's subprocess
    output (``Running command …``) loses setuptools' per-file log either way.
    """
    verbose = verbose or bool(lines) and lines[0].startswith("Using pip ")
    out: list[str] = []
    dropped = built = 0
    run_indent = -1               # inside `Running command …`: that line's indent
    i = 0
    while i < len(lines):
        line = lines[i]
        if _BOX_OPEN.match(line):
            kept, i, gone = compact_box(lines, i)
            out.extend(kept)
            built += gone
            continue
        i += 1
        if run_indent >= 0:
            body = line.lstrip(" ")
            if line and len(line) - len(body) < run_indent or _STEP_END.search(line):
                run_indent = -1           # back to pip's own lines, or the step's closing status
            elif _BUILD_CHATTER.match(body):
                built += 1
                continue
        m = _RUNNING.match(line)
        if m:
            run_indent = len(m.group(1))
            if line.endswith(" pip subprocess to install build dependencies"):
                out.append(line)  # what is installed under it goes into the build's own environment
            else:
                dropped += 1
            continue
        if _SUBPROCESS_NOTE.match(line) or _CLEAN.match(line) or line and not line.strip():  # `  `: a spacer
            dropped += 1
            continue
        if line.startswith("      Successfully uninstalled "):
            out.append(line.strip())  # the version an install replaced
        elif line.startswith(_SATISFIED):
            out.append(shorten_chain(line))
        elif verbose and _DOWNLOAD.match(line):
            out.append(line)
        elif (_PIP_CHATTER.match(line) or _STEP_PROGRESS.match(line) or _PROGRESS_BAR.match(line)
              or _RESOLVER_ADVICE.match(line)):
            dropped += 1
        else:
            out.append(line)
    if not any(_PIP_RESULT.match(x) or x.startswith("Requirement already satisfied: ") for x in out):
        return None
    notes = []
    if built:
        notes.append(f"{plural(built, 'line')} of build progress and compiler commands dropped")
    if dropped:
        notes.append(f"{plural(dropped, 'line')} of index/download/progress output dropped")
    return out + [f"({'; '.join(notes)})"] if notes else out


def compact_uv(lines: list[str]) -> list[str] | None:
    """uv pip install / uv add / uv remove / uv sync output without resolver, download and build chatter
    (every ``+``/``-``/``~`` package line, the interpreter and the venv uv creates stay); None when no
    result or error line is seen."""
    out = [x for x in lines if not _UV_CHATTER.match(x)]
    if not any(_UV_RESULT.match(x) for x in out):
        return None
    return out


_LOCATION_IGNORED = re.compile(r"^WARNING: Location '[^']*' is ignored: it is neither a file nor a directory\.$")
_UNINSTALL_STEP = re.compile(r"^(?:Found existing installation: \S+ \S+|Uninstalling \S+:)$")
_UNINSTALLED = re.compile(r"^ *Successfully uninstalled \S+$")


_LIST_HEADER = re.compile(r"^Package +Version\b")
_CHECK_LINE = re.compile(r"^(?:\S+ \S+ (?:has requirement|requires) \S.*|\S+ \S+ is not supported on this platform"
                         r"|No broken requirements found\.)$")


def _recognised(sub: str, lines: list[str]) -> bool:
    """Whether ``lines`` look like what ``pip SUB`` prints: an uninstall's result, list's table, check's verdict."""
    if sub == "uninstall":
        return any(_UNINSTALLED.match(x) for x in lines)
    if sub == "list":
        return any(_LIST_HEADER.match(x) for x in lines)
    return any(_CHECK_LINE.match(x) for x in lines)


def compact_pip_other(lines: list[str], sub: str) -> list[str] | None:
    """``pip uninstall`` / ``pip list`` / ``pip check``: pip's notes about ignored index locations go
    (counted), and an uninstall keeps only its ``Successfully uninstalled NAME-VERSION`` lines (the
    ``Found existing installation`` / ``Uninstalling`` steps before each say the same). Every other
    line stays (the table of ``pip list``, each conflict of ``pip check``, errors and other warnings).
    None when the output is not that command's shape, or nothing was dropped."""
    if not _recognised(sub, lines):
        return None
    out: list[str] = []
    locations = 0
    steps = 0
    for line in lines:
        if _LOCATION_IGNORED.match(line):
            locations += 1
        elif _UNINSTALL_STEP.match(line):
            steps += 1
        elif _UNINSTALLED.match(line):
            out.append(line.strip())
        else:
            out.append(line)
    if not locations and not steps:
        return None
    if locations:
        out.append(f"({plural(locations, 'WARNING')} that an index location is ignored dropped)")
    return out


@hookimpl
def sqz_format(request: FormatRequest) -> str | None:
    """Handle ``pip install``, ``pip download``, ``uv pip install`` and ``uv add``/``remove``/``sync``;
    None for anything else."""
    words = [w for w in request.argv[1:] if not w.startswith("-")]
    if request.program == "uv":
        if words[:2] not in (["pip", "install"], ["pip", "sync"]) and words[:1] not in (["add"], ["remove"], ["sync"]):
            return None
        out = compact_uv(request.lines)
    else:
        if words and words[0] in ("uninstall", "list", "check"):
            out = compact_pip_other(request.lines, words[0])
        elif not words or words[0] not in ("install", "download"):
            return None
        else:
            out = compact_pip(request.lines, any(w == "--verbose" or _VERBOSE.fullmatch(w) for w in request.argv[1:]))
    if out is None:
        return None
    return shorter_or_none(join_output(out), request.text)
