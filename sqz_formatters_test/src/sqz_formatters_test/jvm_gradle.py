"""gradle / gradlew build, test, check …: keep failing tests, compiler errors and the failure report.

Why: a Gradle run prints one line per task (``:compileJava UP-TO-DATE`` in 4.x plain
console, ``> Task :compileJava`` later), a redrawn status bar on a rich console, and a
fixed ``* Try:``/``* Get more help`` trailer. What the agent acts on is each failing
test (``Class > method FAILED`` with its exception lines), the ``N tests completed, F
failed`` count, javac's ``file:line: error:`` blocks, the ``* What went wrong:``
section (and ``* Exception is:`` traces when asked for), ``BUILD SUCCESSFUL|FAILED``.

What is dropped (counted in one ``[dropped: …]`` line): passing task lines (a task that
FAILED stays), status-bar frames, ``PASSED`` test events, the daemon start-up notice,
the ``java -version`` banner Debian's launcher prints first, the JDK's four-line
SecurityManager deprecation warning that Gradle < 7 triggers on Java 17+, and the
``* Try:``/``* Get more help`` trailer, and with several failures (``--continue``) each report's
``N: Task failed with an exception.`` line and its rules. Everything else is kept verbatim, stack traces line
for line (exception, every frame, ``Caused by:``, ``... N more``) but for a failing test's
runs of JUnit/JDK frames, counted on one line (the test's and the program's frames stay); three or
more failing tests in a row with the same exception lines list their names, then the lines once.
"""

from __future__ import annotations

import re

from sqz_core.api import FormatRequest, hookimpl

from ._common import DropCounter, has_option, join_output, words_after_options

commands = ("gradle", "gradlew")
# a failing test's stack trace is part of Gradle's report: kept here line for line while the noise
# around it goes, the whole log recoverable with `sqz expand` (see the core's safety routing)
reports_traces = True

_TASKS = frozenset({
    "build", "assemble", "check", "test", "clean", "classes", "testClasses", "compileJava", "compileTestJava",
    "compileKotlin", "compileTestKotlin", "compileGroovy", "compileTestGroovy", "jar", "processResources",
    "processTestResources", "integrationTest", "javadoc", "install", "publishToMavenLocal", "testDebugUnitTest",
    "testReleaseUnitTest", "assembleDebug", "assembleRelease", "compileDebugJavaWithJavac",
})
_VALUE_OPTIONS = frozenset({
    "-x", "--exclude-task", "--tests", "-p", "--project-dir", "-b", "--build-file", "-c", "--settings-file",
    "-g", "--gradle-user-home", "-I", "--init-script", "-P", "--project-prop", "-D", "--system-prop",
    "--console", "--warning-mode", "--include-build", "--max-workers", "--priority", "-M",
    "--write-verification-metadata", "--project-cache-dir",
})
# Options whose output is another shape (logging levels, dry runs, help).
_FOREIGN_OPTIONS = frozenset({"-d", "--debug", "-i", "--info", "-m", "--dry-run", "-v", "--version", "-h",
                              "-?", "--help", "--status", "--stop"})
_QUIET = frozenset({"-q", "--quiet"})

_JAVA_BANNER = re.compile(r'^((openjdk|java) version "[^"]+"( \d{4}-\d\d-\d\d)?( LTS)?|OpenJDK Runtime Environment .*|'
                          r"(OpenJDK|Java HotSpot\(TM\)) 64-Bit Server VM .*)$")
_TASK_LINE = re.compile(r"^(?:> Task )?(:[\w.:-]*)( (UP-TO-DATE|NO-SOURCE|SKIPPED|FROM-CACHE))?$")
_TASK_FAILED = re.compile(r"^(?:> Task )?:[\w.:-]* FAILED$")
# Gradle 4.x plain console prints ":task" without a newline, so the task's first output line lands on it.
_GLUED_TASK = re.compile(r"^(:[\w.:-]+?)(WARNING: .*|Note: .*|warning: .*|/\S+:\d+: .*|[A-Z]:\\\S+:\d+: .*)$")
_STATUS_BAR = re.compile(r"^<[-=]*> \d+% (INITIALIZING|CONFIGURING|EXECUTING|WAITING)\b|^> IDLE$|^> :[\w:]+ > ")
_SECURITY_WARNING = re.compile(
    r"^WARNING: (A terminally deprecated method in java\.lang\.System has been called|System::setSecurityManager "
    r"has been called by org\.gradle\.\S+ \(file:\S+\)|Please consider reporting this to the maintainers of "
    r"org\.gradle\.\S+|System::setSecurityManager will be removed in a future release)$")
_DAEMON = re.compile(r"^Starting a Gradle Daemon( \(subsequent builds will be faster\))?$|"
                     r"^Starting a Gradle Daemon, \d+ (busy|incompatible|stopped).*Daemons? could not be reused.*$")
_PASSED = re.compile(r"^\S+ > .+ PASSED$")
_TRY = "* Try:"
_MORE_HELP = re.compile(r"^\* Get more help at https?://\S+$")
_TRY_BODY = re.compile(r"^(> )?Run with --(stacktrace|info|debug|scan)\b")
_RESULT = re.compile(r"^BUILD (SUCCESSFUL|FAILED) in \d")
# `--continue` with several failures: each report is numbered and boxed; the numbers and rules go
# (``FAILURE: Build completed with N failures.`` counts them, each ``* What went wrong:`` stays)
_NUMBERED_FAILURE = re.compile(r"^\d+: Task failed with an exception\.$")
_REPORT_RULE = re.compile(r"^(-{11}|={78})$")
_FAILURE_HEAD = re.compile(r"^FAILURE: Build (failed with an exception|completed with \d+ failures?)\.$")


def gradle_tasks(argv: tuple[str, ...]) -> list[str] | None:
    """The task names on the command line, or None when an option reshapes the output."""
    if has_option(argv, _FOREIGN_OPTIONS):
        return None
    return words_after_options(argv, _VALUE_OPTIONS)


def known_task(task: str) -> bool:
    """``test``, ``:app:test`` → True; ``dependencies``, ``bootRun`` → False."""
    return task.rsplit(":", 1)[-1] in _TASKS


def format_gradle(lines: list[str], quiet: bool) -> list[str] | None:
    """The compact rendering of a Gradle run, or None when it is not one (or was cut short)."""
    out: list[str] = []
    drops = DropCounter()
    finished = False
    in_try = False
    numbered = False         # a numbered failure report was seen: its rules may go
    head = True              # still in the lines before Gradle's own first line
    i = 0
    while i < len(lines):
        line = lines[i]
        i += 1
        if head and _JAVA_BANNER.match(line):
            drops.add("java -version banner lines")
            continue
        if line.strip():
            head = False
        glued = _GLUED_TASK.match(line)
        if glued:
            lines.insert(i, glued.group(2))   # ":test" and the output printed on the same line
            line = glued.group(1)
        if in_try:
            if not line.strip():
                in_try = False
            elif _TRY_BODY.match(line):
                drops.add("help lines")
                continue
            else:
                in_try = False
        if _TASK_LINE.match(line):
            drops.add("task lines")
            continue
        if _STATUS_BAR.match(line):
            drops.add("status-bar frames")
            continue
        if _SECURITY_WARNING.match(line):
            drops.add("JDK SecurityManager warning lines")
            continue
        if _DAEMON.match(line):
            drops.add("daemon notices")
            continue
        if _PASSED.match(line):
            drops.add("PASSED events")
            continue
        if line == _TRY:
            in_try = True
            drops.add("help lines")
            continue
        if _MORE_HELP.match(line):
            drops.add("help lines")
            continue
        if _NUMBERED_FAILURE.match(line) or (_REPORT_RULE.match(line) and numbered):
            numbered = True
            drops.add("failure-report rules")
            continue
        if _RESULT.match(line):
            finished = True
        out.append(line)
    failure = any(_FAILURE_HEAD.match(l) or l == "* What went wrong:" for l in out)
    if not finished and not (quiet and failure):
        return None          # no BUILD SUCCESSFUL/FAILED: cut short, or not Gradle's output
    if not drops.counts and not quiet:
        return None          # nothing Gradle-shaped was seen besides the result line
    return group_same_failures(fold_framework_frames(out)) + drops.summary()


_TEST_FAILED = re.compile(r"^\S+ > .+ FAILED$")
_FRAMEWORK_FRAME = re.compile(r"^\s+at (?:[\w.@-]*//?)?(?:java|javax|jdk|sun|org\.junit|junit\.framework|org\.opentest4j)"
                              r"\.[\w.$<>]+\([\w.$ ]*(?::\d+)?\)$")


def fold_framework_frames(out: list[str]) -> list[str]:
    """A failing test's stack (``exceptionFormat full``) with each run of JUnit/JDK frames counted on one
    line: the test's and the program's frames stay verbatim (Gradle's default short format and Surefire's
    ``trimStackTrace`` keep only the test's frame)."""
    kept: list[str] = []
    run = 0
    in_test = False
    for line in out:
        if in_test and _FRAMEWORK_FRAME.match(line):
            run += 1
            continue
        if run:
            kept.append(f"        [{run} JUnit/JDK frame{'s' if run > 1 else ''}]")
            run = 0
        if _TEST_FAILED.match(line):
            in_test = True
        elif not line.startswith(" "):
            in_test = False
        kept.append(line)
    if run:
        kept.append(f"        [{run} JUnit/JDK frame{'s' if run > 1 else ''}]")
    return kept


def group_same_failures(out: list[str]) -> list[str]:
    """Three or more failing tests in a row with the same exception lines under them (one bug failing a
    parameterized table): their ``Class > test FAILED`` lines one after another, then the shared lines
    once with ``[the same under each of the N tests above]``. An entry is the FAILED line, its indented
    lines and the blank line closing it; entries that differ stay as they are. One pass."""
    entries: list[tuple[int, int, int]] = []   # (head, end of body, end with its blank line)
    i, n = 0, len(out)
    while i < n:
        if not _TEST_FAILED.match(out[i]):
            i += 1
            continue
        j = i + 1
        while j < n and out[j].startswith(" ") and out[j].strip():
            j += 1
        k = j + 1 if j < n and not out[j].strip() else j
        entries.append((i, j, k))
        i = k
    groups: dict[int, tuple[int, list[int], int]] = {}  # first head -> (group end, heads, first body end)
    a = 0
    while a < len(entries):
        b = a
        body = out[entries[a][0] + 1:entries[a][1]]
        while (b + 1 < len(entries) and entries[b + 1][0] == entries[b][2] and body
               and out[entries[b + 1][0] + 1:entries[b + 1][1]] == body):
            b += 1
        if b - a >= 2:
            groups[entries[a][0]] = (entries[b][2], [e[0] for e in entries[a:b + 1]], entries[a][1])
        a = b + 1
    if not groups:
        return out
    kept: list[str] = []
    i = 0
    while i < n:
        if i in groups:
            end, heads, body_end = groups[i]
            kept.extend(out[h] for h in heads)
            kept.extend(out[i + 1:body_end])
            kept.append(f"    [the same under each of the {len(heads)} tests above]")
            if end > 0 and not out[end - 1].strip():
                kept.append("")
            i = end
            continue
        kept.append(out[i])
        i += 1
    return kept


@hookimpl
def sqz_format(request: FormatRequest) -> str | None:
    if request.is_file_content() or request.program not in commands:
        return None
    tasks = gradle_tasks(request.argv)
    if not tasks or not all(known_task(t) for t in tasks):
        return None
    quiet = has_option(request.argv, _QUIET)
    out = format_gradle(request.text.splitlines(), quiet)
    if out is None:
        return None
    failed = any(_FAILURE_HEAD.match(l) or _TASK_FAILED.match(l) or l.startswith("BUILD FAILED") for l in out)
    if request.exit_code not in (None, 0) and not failed:
        return None          # a failure the output does not explain
    return join_output(out)
