"""mvn / mvnw lifecycle builds (compile, test, package, verify, install …): keep failures, drop chatter.

Why: a Maven build is mostly ``[INFO]`` bookkeeping — download lines and their
progress redraws, plugin banners, "Compiling N source files", one ``Running``/``Tests
run`` pair per passing test class, and a fixed help trailer after a failure. What the
agent acts on is each compiler ``[ERROR]``/``[WARNING]`` with its ``file:[line,col]``,
each failing test with its assertion message and stack trace, Surefire's
``Tests run:`` summary, the ``Failures:``/``Errors:`` lists, ``BUILD SUCCESS|FAILURE``,
the ``Failed to execute goal`` line and the reactor summary.

What is dropped (counted in one ``[dropped: …]`` line): the lines named above, the
timing footer (``Total time``/``Finished at``), and the second copy of compiler errors
that Maven repeats under ``Failed to execute goal … Compilation failure``. Every line
the formatter does not know is kept verbatim (test output, unknown ``[INFO]`` lines, stack
traces: exception line, every frame, ``Caused by:`` and ``... N more``).
"""

from __future__ import annotations

import re

from sqz_core.api import FormatRequest, hookimpl

from ._common import DropCounter, has_option, join_output, words_after_options

commands = ("mvn", "mvnw")
# a test's stack trace is part of Surefire's failure report: kept here line for line while the build
# chatter around it goes, the whole log recoverable with `sqz expand` (see the core's safety routing)
reports_traces = True

_PHASES = frozenset({
    "clean", "validate", "initialize", "generate-sources", "process-sources", "generate-resources",
    "process-resources", "compile", "process-classes", "generate-test-sources", "process-test-sources",
    "generate-test-resources", "process-test-resources", "test-compile", "process-test-classes", "test",
    "prepare-package", "package", "pre-integration-test", "integration-test", "post-integration-test",
    "verify", "install", "deploy",
    "surefire:test", "failsafe:integration-test", "failsafe:verify", "compiler:compile",
    "compiler:testCompile", "clean:clean", "jar:jar", "install:install",
})
# Options that take the next word as their value.
_VALUE_OPTIONS = frozenset({
    "-f", "--file", "-s", "--settings", "-gs", "--global-settings", "-t", "--toolchains", "-pl",
    "--projects", "-rf", "--resume-from", "-P", "--activate-profiles", "-T", "--threads", "-l",
    "--log-file", "-D", "--define", "-b", "--builder", "-gt", "--global-toolchains",
})
# Options whose output is not the shape handled here.
_FOREIGN_OPTIONS = frozenset({"-X", "--debug", "-v", "--version", "-h", "--help", "-l", "--log-file"})
_QUIET = frozenset({"-q", "--quiet"})

_LEVEL = re.compile(r"^\[(INFO|WARNING|ERROR|DEBUG)\](?: (.*))?$")
_DOWNLOAD = re.compile(r"^(?:\[INFO\] )?Download(?:ing|ed) from [\w.-]+: \S+")
_PROGRESS = re.compile(r"^Progress \(\d+\): ")
_RULE = re.compile(r"^-{20,}$")
_PROJECT_RULE = re.compile(r"^-+< \S+ >-+$|^-+\[ \S+ \]-+$")
_BANNER = re.compile(r"^--- \S+ \(\S+\) @ \S+ ---$")
_INFO_NOISE = re.compile(
    r"^(Scanning for projects\.\.\.|skip non existing resourceDirectory .*|Using '[^']+' encoding to copy "
    r"filtered resources\.|Copying \d+ resources?|Nothing to compile - all classes are up to date|"
    r"Changes detected - recompiling the module!|Compiling \d+ source files? to .*|T E S T S|Results:|"
    r"No sources to compile|No tests to run\.|"
    r"Total time: .*|Finished at: .*)$")
_RUNNING = re.compile(r"^Running [\w.$]+$")
# a module's start and the reactor's build order (the reactor summary names each module with its outcome)
_BUILDING = re.compile(r"^Building [\w.-]+ [\w.-]+ +\[\d+/\d+\]$")
_REACTOR_ORDER = re.compile(r"^Reactor Build Order:$|^\S+ +\[(?:pom|jar|war|ear|ejb|rar|maven-plugin|bundle)\]$")
_CLASS_RESULT = re.compile(r"^Tests run: \d+, Failures: (\d+), Errors: (\d+), Skipped: (\d+), "
                           r"Time elapsed: [\d.,]+ s(?:ec)?( <<< FAILURE!)? -{1,2} in [\w.$]+$")
_TEST_TIME = re.compile(r"^(\S+\([\w.$]+\)) +Time elapsed: [\d.,]+ s(?:ec)? +( <<< (?:FAILURE|ERROR)!)$")
_CLASS_TIME = re.compile(r"^(Tests run: \d+, Failures: \d+, Errors: \d+, Skipped: \d+), Time elapsed: [\d.,]+ s(?:ec)?"
                         r"( <<< FAILURE! -{1,2} in [\w.$]+)$")
_SUMMARY = re.compile(r"^Tests run: \d+, Failures: \d+, Errors: \d+, Skipped: \d+$")
_BUILD = re.compile(r"^BUILD (SUCCESS|FAILURE)$")
_HELP = re.compile(
    r"^(-> \[Help \d+\]|To see the full stack trace of the errors, re-run Maven with the -e switch\.|"
    r"Re-run Maven using the -X switch to enable full debug logging\.|For more information about the errors "
    r"and possible solutions, please read the following articles:|\[Help \d+\] https?://\S+|"
    r"Please refer to dump files \(if any exist\) .*)$")
_COMPILE_FAILED = re.compile(r"^Failed to execute goal .*: Compilation failure")
_FAILED_GOAL = re.compile(r"^Failed to execute goal ")
_COMPILER_MSG = re.compile(r"^(/|[A-Za-z]:\\)\S+\.(java|kt|groovy|scala):\[\d+,\d+\] ")


_TIMED_TAIL = re.compile(r"^[\d.,]+ s(?:ec)? +( <<< (?:FAILURE|ERROR)!)$")
_TEST_CLASS_END = re.compile(r"\([\w.$]+\)$")


def _untimed_test(body: str, junit5: bool = False) -> str | None:
    """``name(Class)  Time elapsed: 0.01 s  <<< FAILURE!`` → ``name(Class) <<< FAILURE!`` for a test
    name with spaces in it (a parameterized case); with ``junit5`` (inside a class's failure block,
    where the JUnit Platform provider names a test by its method or display name alone:
    ``lessThan{String, String}[7]``) any such name; None for anything else. Split on the literal
    ``  Time elapsed: `` (no pattern scanning a long name)."""
    k = body.find("  Time elapsed: ")
    if k <= 0:
        return None
    name, tail = body[:k].rstrip(), _TIMED_TAIL.match(body[k + 16:])
    if tail is None or not name or name[0].isspace() or not (junit5 or _TEST_CLASS_END.search(name)):
        return None
    return name + tail.group(1)


def maven_goals(argv: tuple[str, ...]) -> list[str] | None:
    """The goals/phases on the command line, or None for options whose output is another shape."""
    if has_option(argv, _FOREIGN_OPTIONS):
        return None
    return words_after_options(argv, _VALUE_OPTIONS)


def is_quiet(argv: tuple[str, ...]) -> bool:
    return has_option(argv, _QUIET)


def format_maven(lines: list[str], quiet: bool) -> list[str] | None:
    """The compact rendering of a Maven build log, or None when it is not one (or was cut short)."""
    out: list[str] = []
    drops = DropCounter()
    seen_compiler: set[str] = set()   # compiler messages already kept (Maven prints them twice)
    in_compile_failure = False
    in_failed_class = False           # inside Surefire's report of a failing class (until the next [INFO])
    after_progress = False
    build_line = False
    levels = 0
    for line in lines:
        if _PROGRESS.match(line):
            drops.add("download/progress lines")
            after_progress = True
            continue
        if not line.strip():
            if after_progress:
                continue        # the blank a progress redraw leaves behind
            out.append(line)
            continue
        after_progress = False
        if _DOWNLOAD.match(line):
            drops.add("download/progress lines")
            continue
        m = _LEVEL.match(line)
        if not m:
            if in_compile_failure and line.strip() in seen_compiler:
                drops.add("repeated compiler messages")
                continue
            if _COMPILER_MSG.match(line) or line.startswith("  symbol:") or line.startswith("  location:"):
                seen_compiler.add(line.strip())
            out.append(line)    # test output, stack traces, compiler detail lines: verbatim
            continue
        levels += 1
        level, body = m.group(1), (m.group(2) or "")
        if level == "INFO":
            in_failed_class = False
        if level == "DEBUG":
            return None         # -X output: not this shape
        if not body.strip():
            drops.add("rule/blank lines")
            continue
        if level == "INFO":
            if _RULE.match(body) or _PROJECT_RULE.match(body):
                drops.add("rule/blank lines")
                continue
            if _BANNER.match(body):
                drops.add("plugin banners")
                continue
            if _INFO_NOISE.match(body.strip()):
                drops.add("[INFO] progress lines")
                continue
            if _RUNNING.match(body) or _BUILDING.match(body) or _REACTOR_ORDER.match(body):
                drops.add("[INFO] progress lines")
                continue
            cm = _CLASS_RESULT.match(body)
            if cm and not cm.group(4) and cm.group(1) == cm.group(2) == cm.group(3) == "0":
                drops.add("passing test-class results")
                continue
            if _BUILD.match(body):
                build_line = True
        if level == "ERROR":
            if _HELP.match(body):
                drops.add("help lines")
                continue
            if in_compile_failure and body.strip() in seen_compiler:
                drops.add("repeated compiler messages")
                continue
            t = _TEST_TIME.match(body) or _CLASS_TIME.match(body)
            if t:  # a failing test or class: its outcome and counts without the timing
                out.append(f"[{level}] {t.group(1)}{t.group(2)}")
                in_failed_class = bool(_CLASS_TIME.match(body))
                continue
            timed = _untimed_test(body, junit5=in_failed_class)
            if timed:  # a parameterized test, its name with spaces: `adds[case 3: 4+4](demo.AddTableTest)`
                out.append(f"[{level}] {timed}")
                continue
            if _FAILED_GOAL.match(body):
                in_compile_failure = bool(_COMPILE_FAILED.match(body))
            elif _COMPILER_MSG.match(body) and not in_compile_failure:
                seen_compiler.add(body.strip())
        out.append(line)
    if not levels:
        return None
    if not build_line and not quiet:
        return None             # no BUILD SUCCESS/FAILURE: cut short, or not a lifecycle run
    if quiet and not any(l.startswith(("[ERROR]", "[WARNING]")) for l in out):
        return None
    return out + drops.summary()


@hookimpl
def sqz_format(request: FormatRequest) -> str | None:
    if request.is_file_content() or request.program not in commands:
        return None
    goals = maven_goals(request.argv)
    if not goals or any(g not in _PHASES for g in goals):
        return None
    out = format_maven(request.text.splitlines(), is_quiet(request.argv))
    if out is None:
        return None
    failed = any(l in ("[INFO] BUILD FAILURE",) or l.startswith("[ERROR]") for l in out)
    if request.exit_code not in (None, 0) and not failed:
        return None             # a failure the log does not explain: let the original through
    return join_output(out)
