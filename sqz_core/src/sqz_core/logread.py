"""Whether a file read prints a log: a log gets log handling however it was read.

``cat``, ``tail``, ``less``, ``sed -n`` … print file content, which the pipeline keeps byte for
byte: source code, configuration and data are never summarised. A log is read the same way
(``tail -n 200 app.log``) but for its events, not its bytes, so a read whose file is a log by
name (``*.log``, ``*.log.1``, ``nohup.out``, a file under ``log/``, ``logs/`` or ``/var/log/``) and
whose text has log records (a looser bar: three, half the records; or JSON lines) or, when the
name says nothing, whose text is log-shaped (most records start with a timestamp or a level) is
not file content: it reaches the content kinds as ``journalctl`` or
``docker logs`` output does. The name decides first: a source, configuration or data file
(``.py``, ``.rs``, ``.ts``, ``.json``, ``.yaml``, ``.csv``, ``Makefile`` …) stays file content
whatever it holds, and so does a read naming one. A lockfile (``Cargo.lock``, ``package-lock.json``,
``poetry.lock`` …) is not: generated data read for its packages, it reaches the lockfile kind.
Cheap: a few string checks per word and one
anchored regex over at most the first ``SCAN_LINES`` lines.
"""

from __future__ import annotations

from .lazyre import lazy

SCAN_LINES = 60       # lines of the text looked at
MIN_RECORDS = 5       # log records needed among them

# Files whose content is code, configuration, markup or data: kept byte for byte.
_CODE_EXTS = frozenset("""
    py pyi pyx pxd ipynb rs go java kt kts scala groovy gradle clj c h cc cpp cxx hh hpp hxx m mm cs fs
    swift dart rb php pl pm lua r jl ex exs erl hs ml elm zig nim v sv vhd
    js jsx mjs cjs ts tsx mts cts vue svelte astro css scss sass less html htm xhtml xml xsl svg
    sh bash zsh fish ps1 bat cmd awk sed
    json jsonc json5 jsonl ndjson geojson yaml yml toml ini cfg conf cnf env properties plist
    lock sum mod tf tfvars hcl nix bzl bazel cmake mk proto graphql gql sql prisma
    md markdown rst adoc tex txt csv tsv psv patch diff po pot
""".split()) - {"txt"}  # a .txt file may be a captured log: its text decides
_CODE_NAMES = frozenset({"makefile", "gnumakefile", "dockerfile", "containerfile", "jenkinsfile", "vagrantfile",
                         "gemfile", "rakefile", "procfile", "justfile", "cmakelists.txt", "build", "workspace",
                         "license", "readme", "changelog", "authors", "copying", "notice", "codeowners"})
_LOG_NAMES = frozenset({"syslog", "messages", "dmesg", "nohup.out", "auth.log", "kern.log", "daemon.log",
                        "access_log", "error_log", "catalina.out"})
_LOG_DIRS = frozenset({"log", "logs", "var/log"})
_LOG_EXTS = frozenset({"log", "out", "err"})
# Lockfiles: data a package manager writes (name@version, edges, resolved URLs, integrity hashes),
# never edited by hand: read for the packages, not the bytes, so the lockfile kind reads them.
LOCKFILE_NAMES = frozenset({"package-lock.json", "npm-shrinkwrap.json", "yarn.lock", "pnpm-lock.yaml",
                            "cargo.lock", "poetry.lock", "uv.lock", "pdm.lock", "pipfile.lock"})

# The start of a log record: a timestamp (ISO 8601, syslog, Apache/CLF, bare clock, glog),
# a level, ``key=value`` logfmt, or a CLF access line's ``host - user [date``.
_RECORD = lazy(
    r"\s{0,3}(?:\[?\d{4}[-/]\d{2}[-/]\d{2}[T ]\d{2}:\d{2}"
    r"|\[?\d{2}:\d{2}:\d{2}\b"
    r"|\[\d{2}/\w{3}/\d{4}[: ]\d{2}:\d{2}:\d{2}"
    r"|(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) [ \d]\d \d{2}:\d{2}:\d{2}"
    r"|\S+ \S+ \S+ \[\d{2}/\w{3}/\d{4}[: ]\d{2}:\d{2}:\d{2}"
    r"|\[?(?:TRACE|DEBUG|INFO|NOTICE|WARN|WARNING|ERROR|FATAL|CRITICAL)\]?[\s:]"
    r"|[IWEF]\d{4} \d{2}:\d{2}:\d{2}"
    r"|(?:ts|time|timestamp|level|lvl)=\S"
    r"|\d+:[XCSM] \d{2} \w{3} \d{4} \d{2}:\d{2}:\d{2})"
)
# Lines that continue a record: indented lines (a trace's frames), a trace's head, its exception.
_CONTINUATION = lazy(r"\s|Traceback \(most recent call last\)|The above exception was |During handling of the above"
                     r"|[\w.]*(?:Error|Exception|Warning|Exit|Interrupt)\b|--$")


def reads_log(argv, text: str) -> bool:
    """True when the file read ``argv`` (its program prints file content) printed a log:
    its file is a log by name, or its name says nothing and ``text`` is log-shaped; or a lockfile
    (``reads_lockfile``)."""
    if reads_lockfile(argv):
        return True
    by_name = _named(argv)
    if by_name is False:
        return False
    if by_name:  # a log by name: a looser bar, and JSON lines count (structured logs)
        return text.lstrip()[:1] == "{" or log_shaped(text, loose=True)
    return log_shaped(text)


_SED_LINES = lazy(r"(?:\d+|\$)(?:,(?:\d+|\$))?p")


def reads_lockfile(argv) -> bool:
    """True when every file the read ``argv`` names is a lockfile by name (``Cargo.lock``,
    ``package-lock.json`` …; see ``LOCKFILE_NAMES``): generated data, not source or configuration.
    ``package.json``, ``Cargo.toml`` or ``pyproject.toml`` beside it stay file content. Options, line
    counts and a ``sed -n 1,80p`` line-range script name no file."""
    names = [w.lower().rsplit("/", 1)[-1] for w in argv[1:] if w and w[0] not in "-+" and not w.isdigit()
             and not (argv[0] == "sed" and _SED_LINES.fullmatch(w))]
    return bool(names) and all(n in LOCKFILE_NAMES for n in names)


def _named(argv) -> bool | None:
    """True: a file read names a log; False: it names a code, configuration or data file (one is
    enough); None: the names say nothing (stdin, ``.txt``, no extension)."""
    verdict = None
    for word in argv[1:]:
        if not word or word[0] in "-+" or word.isdigit():
            continue  # an option, ``+100``, a line count
        path = word.lower()
        base = path.rsplit("/", 1)[-1]
        parts = base.split(".")
        ext = parts[-1] if len(parts) > 1 else ""
        if base in _CODE_NAMES or ext in _CODE_EXTS:
            return False
        if (base in _LOG_NAMES or ext in _LOG_EXTS
                or (len(parts) > 2 and parts[-1].isdigit() and parts[-2] in _LOG_EXTS)  # app.log.1
                or any(f"/{d}/" in f"/{path}" for d in _LOG_DIRS)):
            verdict = True
    return verdict


def log_shaped(text: str, loose: bool = False) -> bool:
    """Most records of the text's first lines start like log records (a timestamp or a level):
    MIN_RECORDS or more, seven in ten of the lines that are not a record's continuation, and
    half of all non-blank lines; ``loose`` (a file that is a log by name): three records, half of
    the lines that are not a continuation."""
    hits = total = lines = 0
    for line in text[:32768].split("\n", SCAN_LINES)[:SCAN_LINES]:
        if not line.strip():
            continue
        lines += 1
        if _RECORD.match(line):
            hits += 1
            total += 1
        elif not _CONTINUATION.match(line):
            total += 1
    if loose:
        return hits >= 3 and hits * 2 >= total
    return hits >= MIN_RECORDS and hits * 10 >= total * 7 and hits * 2 >= lines
