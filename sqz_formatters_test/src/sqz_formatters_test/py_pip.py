"""pip install / pip download / uv pip install: drop index, download and progress chatter.

Kept verbatim: every ERROR/error and warning line (except pip's notes about ignored
index locations), the result lines (``Successfully installed …``, ``Saved …``,
uv's ``+ pkg==ver`` list) and any line not recognised as chatter. A replaced package's
``Successfully uninstalled X-ver`` stays (unindented); the resolver's "looking at multiple
versions" note and its generic "To fix this you could try to" advice go (the conflict's causes stay).
"""

from __future__ import annotations

import re

from sqz_core import FormatRequest, hookimpl

from ._common import join_output, plural, shorter_or_none

commands = ("pip", "pip3", "uv")

_PIP_CHATTER = re.compile(
    r"^(?:Looking in indexes: |Looking in links: |WARNING: Location '.*' is ignored: |"
    r"Collecting |Obtaining |Downloading |  Downloading |Using cached |  Using cached |Processing |"
    r"Requirement already satisfied: |Installing collected packages: |  Attempting uninstall: |"
    r"    Found existing installation: |    Uninstalling |"
    r"  Preparing metadata |  Installing build dependencies |  Getting requirements to build |"
    r"Building wheels for collected packages: |  Building wheel for |  Created wheel for |"
    r"  Stored in directory: |Successfully built |File was already downloaded )")
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
    r"^(?:running \w+|creating \S+|copying \S+ -> \S+|writing \S.*|reading manifest \S.*|adding license file \S.*"
    r"|building '\S+' extension|(?:/usr/bin/)?(?:[\w.-]+-)?(?:gcc|g\+\+|cc|c\+\+|clang|clang\+\+)(?:-\d+)? .*)$")
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


def compact_pip(lines: list[str]) -> list[str] | None:
    """pip's install/download output without chatter; None when no result or error line is seen."""
    out: list[str] = []
    dropped = already = 0
    built = 0
    i = 0
    while i < len(lines):
        line = lines[i]
        if _BOX_OPEN.match(line):
            kept, i, gone = compact_box(lines, i)
            out.extend(kept)
            built += gone
            continue
        i += 1
        if _SUBPROCESS_NOTE.match(line) or _CLEAN.match(line) or line and not line.strip():  # `  `: a spacer
            dropped += 1
            continue
        if line.startswith("Requirement already satisfied: "):
            if " (from " in line and " (from -r " not in line and " (from -c " not in line:
                already += 1  # a dependency of another requirement
            else:
                out.append(line)  # a requirement the user asked for (argument or -r file): keep its version
        elif line.startswith("      Successfully uninstalled "):
            out.append(line.strip())  # the version an install replaced
        elif _PIP_CHATTER.match(line) or _PROGRESS_BAR.match(line) or _RESOLVER_ADVICE.match(line):
            dropped += 1
        else:
            out.append(line)
    if not any(_PIP_RESULT.match(x) or x.startswith("Requirement already satisfied: ") for x in out):
        return None
    notes = []
    if built:
        notes.append(f"{plural(built, 'line')} of build progress and compiler commands dropped")
    if already:
        notes.append(f"{plural(already, 'dependency', 'dependencies')} already satisfied")
    if dropped:
        notes.append(f"{plural(dropped, 'line')} of index/download/progress output dropped")
    return out + [f"({'; '.join(notes)})"]


def compact_uv(lines: list[str]) -> list[str] | None:
    """uv pip install output without resolver, download and build chatter (every ``+``/``-``/``~`` package
    line stays); None when no result or error line is seen."""
    out = [x for x in lines if not _UV_CHATTER.match(x)]
    if not any(_UV_RESULT.match(x) for x in out):
        return None
    return out


@hookimpl
def sqz_format(request: FormatRequest) -> str | None:
    """Handle ``pip install``, ``pip download`` and ``uv pip install``; None for anything else."""
    words = [w for w in request.argv[1:] if not w.startswith("-")]
    if request.program == "uv":
        if words[:2] != ["pip", "install"]:
            return None
        out = compact_uv(request.lines)
    else:
        if not words or words[0] not in ("install", "download"):
            return None
        out = compact_pip(request.lines)
    if out is None:
        return None
    return shorter_or_none(join_output(out), request.text)
