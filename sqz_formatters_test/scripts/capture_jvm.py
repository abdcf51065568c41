#!/usr/bin/env python3
"""Re-capture the Maven and Gradle fixtures of this pack from real tool runs.

Each fixture comes from a small throw-away Java project written under
/tmp/sqz-capture/jvm-<name> (fixed directories, so paths in the output are stable),
run with stdout and stderr merged as an agent's shell sees them, and saved as
tests/fixtures/{maven,gradle}/NAME.txt with its NAME.json sidecar.

Offline set-up (no Maven repository host is reachable here):
- Maven 3.8.7 resolves plugins and JUnit from Debian's /usr/share/maven-repo through a
  mirror in /tmp/sqz-capture/jvm-maven-settings.xml, named by each project's
  ``.mvn/maven.config`` (so the command stays ``mvn test``). Local repository:
  /tmp/sqz-capture/jvm-m2 (warm) or an emptied one (cold-cache fixture).
- Gradle 4.4.1 (Debian) takes junit4/hamcrest jars from /usr/share/java with flatDir.
The repository path is replaced by ``/pkgs.example.org/maven-repo`` in the output.

Usage: [SQZ_CAPTURE_ONLY=name,...] scripts/capture_jvm.py [maven] [gradle]
"""

from __future__ import annotations

import os
import re
import shutil
import sys
from pathlib import Path

from sqz_testing import redact_registries

from _capture_common import WORK, run_families, run_merged, save_checked, substitute, tool_env, write_project

ONLY = set(filter(None, os.environ.get("SQZ_CAPTURE_ONLY", "").split(",")))  # re-capture just these names
SETTINGS = WORK / "jvm-maven-settings.xml"
WARM_REPO = WORK / "jvm-m2"
COLD_REPO = WORK / "jvm-m2-cold"

_SANITIZE = [
    (re.compile(rb"/usr/share/maven-repo"), b"/pkgs.example.org/maven-repo"),  # the local mirror's path
]

ENV = tool_env(("JAVA_HOME",))


def sanitize(raw: bytes) -> bytes:
    """Replace the repository path and any registry host with ``pkgs.example.org``."""
    return redact_registries(substitute(raw, _SANITIZE))


def run(cmd: str, cwd: Path, timeout: int = 600) -> tuple[bytes, int]:
    return run_merged(cmd, cwd, ENV, timeout)


def first_line(cmd: str, pattern: str) -> str:
    out, _ = run(cmd, Path("/tmp"))
    for line in re.sub(r"\x1b\[[0-9;]*m", "", out.decode("utf-8", "replace")).splitlines():
        if re.search(pattern, line):
            return line.strip()
    raise SystemExit(f"no version line matching {pattern!r} in `{cmd}`")


def capture(family: str, name: str, cwd: Path, cmd: str, facts: list[str], *, produced_by: str,
            dropped: list[str] = (), notes: str = "", expect_exit: int | None = None) -> None:
    """Run ``cmd`` in ``cwd``; check facts/dropped occur; save fixtures/<family>/<name>.{txt,json}."""
    if ONLY and name not in ONLY:
        return
    raw, code = run(cmd, cwd)
    save_checked(family, name, sanitize(raw), code, command=cmd, facts=facts, produced_by=produced_by,
                 dropped=dropped, expect_exit=expect_exit,
                 notes=(notes + " " if notes else "") + f"Captured by scripts/capture_jvm.py in {cwd} "
                       "with LANG=C.UTF-8, TERM=dumb, stdout and stderr merged.")


# ---------------------------------------------------------------- Java sources

_CALC = """package demo;

public final class Calc {
    private Calc() {}

    public static int add(int a, int b) {
        return a + b;
    }

    public static int divide(int a, int b) {
        return a / b;
    }

    public static int parsePort(String text) {
        int port = Integer.parseInt(text.trim());
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("port out of range: " + port);
        }
        return port;
    }
}
"""

_TEXT = """package demo;

public final class Text {
    private Text() {}

    public static String greet(String name) {
        return "hello " + name + " ";
    }

    public static String slug(String title) {
        return title.toLowerCase().replace(' ', '-');
    }
}
"""

_CALC_TEST = """package demo;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import org.junit.Ignore;
import org.junit.Test;

public class CalcTest {
    @Test public void addsSmall() { assertEquals(4, Calc.add(2, 2)); }
    @Test public void addsNegative() { assertEquals(-5, Calc.add(-2, -3)); }
    @Test public void dividesEven() { assertEquals(4, Calc.divide(8, 2)); }
    @Test public void parsesPort() { assertEquals(8080, Calc.parsePort("8080")); }
    @Test public void parsesPortWithSpaces() { assertEquals(443, Calc.parsePort(" 443 ")); }
FAILING
    @Ignore("needs a slow property run")
    @Test public void slowProperty() { assertTrue(Calc.add(1, 1) > 0); }
}
"""

_CALC_FAILING = """    @Test public void wrongSum() { assertEquals("sum of 2 and 3", 6, Calc.add(2, 3)); }
    @Test public void divideByZero() { assertEquals(0, Calc.divide(1, 0)); }
    @Test public void badPort() { assertEquals(80, Calc.parsePort("80a")); }
"""

_TEXT_TEST = """package demo;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import org.junit.Test;

public class TextTest {
    @Test public void slugLowercases() { assertEquals("a-b", Text.slug("A B")); }
    @Test public void slugKeepsDigits() { assertEquals("v2-notes", Text.slug("v2 notes")); }
    @Test public void greetStartsWithHello() { assertTrue(Text.greet("ann").startsWith("hello")); }
FAILING
}
"""

_TEXT_FAILING = """    @Test public void greetIsTrimmed() { assertEquals("hello ann", Text.greet("ann")); }
    @Test public void greetHasNoTrailingSpace() {
        assertTrue("greeting must not end with a space", !Text.greet("bo").endsWith(" "));
    }
"""

_TABLE_TEST = """package demo;

import static org.junit.Assert.assertEquals;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

import org.junit.Test;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

@RunWith(Parameterized.class)
public class AddTableTest {
    @Parameters(name = "case {index}: {0}+{1}")
    public static Collection<Object[]> cases() {
        List<Object[]> rows = new ArrayList<>();
        for (int i = 1; i <= 60; i++) {
            rows.add(new Object[] {i, i, 2 * i});
        }
        return rows;
    }

    private final int a;
    private final int b;
    private final int want;

    public AddTableTest(int a, int b, int want) {
        this.a = a;
        this.b = b;
        this.want = want;
    }

    @Test public void adds() { assertEquals(want, Calc.add(a, b)); }
}
"""

_CALC_BROKEN = """package demo;

import java.util.List;

public final class Calc {
    private Calc() {}

    public static int add(int a, int b) {
        return a + b;
    }

    public static int divide(int a, int b) {
        return a / b;
    }

    public static int parsePort(String text) {
        int port = Integer.parseInt(txt.trim());
        return port;
    }

    public static String total(List<Integer> values) {
        int sum = 0;
        for (int v : values) {
            sum += v;
        }
        return sum;
    }

    public static Integer boxed(int v) {
        return new Integer(v);
    }
}
"""

_TEST_BROKEN = """package demo;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class BrokenTest {
    @Test public void multiplies() { assertEquals(6, Calc.multiply(2, 3)); }
}
"""


def java_sources(failing: bool) -> dict[str, str]:
    return {
        "src/main/java/demo/Calc.java": _CALC,
        "src/main/java/demo/Text.java": _TEXT,
        "src/test/java/demo/CalcTest.java": _CALC_TEST.replace("FAILING\n", _CALC_FAILING if failing else ""),
        "src/test/java/demo/TextTest.java": _TEXT_TEST.replace("FAILING\n", _TEXT_FAILING if failing else ""),
        "src/test/java/demo/AddTableTest.java": _TABLE_TEST,
    }


# ---------------------------------------------------------------- Maven

_SETTINGS = """<settings>
  <localRepository>LOCAL</localRepository>
  <mirrors>
    <mirror><id>central</id><mirrorOf>*</mirrorOf><url>file:///usr/share/maven-repo</url></mirror>
  </mirrors>
  <profiles>
    <profile>
      <id>debian-repo</id>
      <repositories><repository><id>central</id><url>file:///usr/share/maven-repo</url>
        <releases><checksumPolicy>ignore</checksumPolicy></releases><snapshots><enabled>false</enabled></snapshots>
      </repository></repositories>
      <pluginRepositories><pluginRepository><id>central</id><url>file:///usr/share/maven-repo</url>
        <releases><checksumPolicy>ignore</checksumPolicy></releases><snapshots><enabled>false</enabled></snapshots>
      </pluginRepository></pluginRepositories>
    </profile>
  </profiles>
  <activeProfiles><activeProfile>debian-repo</activeProfile></activeProfiles>
</settings>
"""

_PLUGINS = """    <plugins>
      <plugin><groupId>org.apache.maven.plugins</groupId><artifactId>maven-resources-plugin</artifactId><version>3.3.0</version></plugin>
      <plugin><groupId>org.apache.maven.plugins</groupId><artifactId>maven-compiler-plugin</artifactId><version>3.10.1</version>
        <configuration><showWarnings>true</showWarnings><compilerArgs><arg>-Xlint:deprecation</arg></compilerArgs></configuration>
      </plugin>
      <plugin><groupId>org.apache.maven.plugins</groupId><artifactId>maven-surefire-plugin</artifactId><version>2.22.3</version></plugin>
      <plugin><groupId>org.apache.maven.plugins</groupId><artifactId>maven-jar-plugin</artifactId><version>3.3.0</version></plugin>
    </plugins>
"""


def pom(artifact: str, *, pinned: bool = True, packaging: str = "jar", modules: str = "",
        parent: bool = False, deps: str = "") -> str:
    head = "<parent><groupId>demo</groupId><artifactId>parent</artifactId><version>1.0</version></parent>\n" \
        if parent else "<groupId>demo</groupId>\n  <version>1.0</version>\n"
    build = f"  <build>\n{_PLUGINS}  </build>\n" if pinned and not parent else ""
    if pinned and packaging == "pom":
        build = f"  <build><pluginManagement>\n{_PLUGINS}  </pluginManagement></build>\n"
    props = "" if parent else """  <properties>
    <maven.compiler.source>17</maven.compiler.source>
    <maven.compiler.target>17</maven.compiler.target>
    <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
  </properties>
"""
    return f"""<project>
  <modelVersion>4.0.0</modelVersion>
  {head}  <artifactId>{artifact}</artifactId>
  <packaging>{packaging}</packaging>
{modules}{props}  <dependencies>
    <dependency><groupId>junit</groupId><artifactId>junit</artifactId><version>4.13.2</version><scope>test</scope></dependency>
{deps}  </dependencies>
{build}</project>
"""


def maven_project(name: str, files: dict[str, str], local_repo: Path = WARM_REPO) -> Path:
    settings = _SETTINGS.replace("LOCAL", str(local_repo))
    path = WORK / f"{name}-settings.xml"
    files = dict(files)
    files[".mvn/maven.config"] = f"--settings={path}\n"
    root = write_project(name, files)
    path.write_text(settings)
    return root


def capture_maven() -> None:
    if not shutil.which("mvn"):
        print("mvn not installed: maven fixtures skipped")
        return
    ver = first_line("mvn -v", r"Apache Maven")
    java = first_line("java -version 2>&1", r"version")
    by = f"{ver}; {java}; maven-surefire-plugin 2.22.3, maven-compiler-plugin 3.10.1 (Debian maven-repo)"
    note = ("Plugins and JUnit resolved offline from Debian's maven-repo via a settings.xml mirror named in "
            ".mvn/maven.config; its path is replaced by /pkgs.example.org/maven-repo.")

    # Cold local repository: the download chatter an agent sees on a first build (green).
    if COLD_REPO.exists():
        shutil.rmtree(COLD_REPO)
    root = maven_project("jvm-maven-cold", {"pom.xml": pom("calc"), **java_sources(False)}, COLD_REPO)
    capture("maven", "package_cold_cache", root, "mvn package", [
        "Tests run: 69, Failures: 0, Errors: 0, Skipped: 1",
        "Building jar: /tmp/sqz-capture/jvm-maven-cold/target/calc-1.0.jar",
        "BUILD SUCCESS",
    ], dropped=["Downloading from central:", "Downloaded from central:", "Progress (1):",
                "Running demo.CalcTest"],
        produced_by=by, expect_exit=0,
        notes=note + " Empty local repository (first build): Maven prints its download lines, progress "
                     "redraws (\\r) and colours (Debian's Maven colours even when stdout is a pipe).")

    # Warm the shared local repository once (output not kept).
    root = maven_project("jvm-maven", {"pom.xml": pom("calc"), **java_sources(False)})
    run("mvn -B -q package", root)

    root = maven_project("jvm-maven", {"pom.xml": pom("calc"), **java_sources(False)})
    capture("maven", "test_green", root, "mvn -B test", [
        "Tests run: 69, Failures: 0, Errors: 0, Skipped: 1",
        "BUILD SUCCESS",
    ], dropped=["Running demo.AddTableTest", "Tests run: 60, Failures: 0, Errors: 0, Skipped: 0, Time elapsed",
                "--- maven-surefire-plugin:2.22.3:test (default-test) @ calc ---",
                "Compiling 2 source files to"],
        produced_by=by, expect_exit=0, notes=note)

    root = maven_project("jvm-maven", {"pom.xml": pom("calc"), **java_sources(True)})
    red_facts = [
        "Tests run: 9, Failures: 1, Errors: 2, Skipped: 1",
        "wrongSum(demo.CalcTest)",
        "java.lang.AssertionError: sum of 2 and 3 expected:<6> but was:<5>",
        "\tat demo.CalcTest.wrongSum(CalcTest.java:15)",
        "java.lang.ArithmeticException: / by zero",
        "\tat demo.CalcTest.divideByZero(CalcTest.java:16)",
        "java.lang.NumberFormatException: For input string: \"80a\"",
        "\tat demo.CalcTest.badPort(CalcTest.java:17)",
        "org.junit.ComparisonFailure: expected:<hello ann[]> but was:<hello ann[ ]>",
        "java.lang.AssertionError: greeting must not end with a space",
        "CalcTest.wrongSum:15 sum of 2 and 3 expected:<6> but was:<5>",
        "TextTest.greetIsTrimmed:12 expected:<hello ann[]> but was:<hello ann[ ]>",
        "CalcTest.badPort:17 » NumberFormat For input string: \"80a\"",
        "CalcTest.divideByZero:16 » Arithmetic / by zero",
        "Tests run: 74, Failures: 3, Errors: 2, Skipped: 1",
        "BUILD FAILURE",
        "Failed to execute goal org.apache.maven.plugins:maven-surefire-plugin:2.22.3:test (default-test) "
        "on project calc: There are test failures.",
        "Please refer to /tmp/sqz-capture/jvm-maven/target/surefire-reports for the individual test results.",
    ]
    capture("maven", "test_fail", root, "mvn test", red_facts,
            dropped=["To see the full stack trace of the errors, re-run Maven with the -e switch.",
                     "[INFO] Total time:",
                     "[ERROR] [Help 1] http://cwiki.apache.org/confluence/display/MAVEN/MojoFailureException"],
            produced_by=by, expect_exit=1,
            notes=note + " Maven's default colours (not forced; Debian's Maven prints them to a pipe).")
    capture("maven", "test_fail_quiet", root, "mvn -q test", [
        f for f in red_facts if f not in ("BUILD FAILURE",)],
        dropped=["To see the full stack trace of the errors, re-run Maven with the -e switch."],
        produced_by=by, expect_exit=1, notes=note)

    files = {"pom.xml": pom("calc"), **java_sources(False)}
    files["src/main/java/demo/Calc.java"] = _CALC_BROKEN
    root = maven_project("jvm-maven", files)
    capture("maven", "compile_error", root, "mvn -B compile", [
        "COMPILATION ERROR :",
        "/tmp/sqz-capture/jvm-maven/src/main/java/demo/Calc.java:[17,37] cannot find symbol",
        "symbol:   variable txt",
        "location: class demo.Calc",
        "/tmp/sqz-capture/jvm-maven/src/main/java/demo/Calc.java:[26,16] incompatible types: "
        "int cannot be converted to java.lang.String",
        "/tmp/sqz-capture/jvm-maven/src/main/java/demo/Calc.java:[30,16] Integer(int) in "
        "java.lang.Integer has been deprecated and marked for removal",
        "2 errors",
        "BUILD FAILURE",
        "Failed to execute goal org.apache.maven.plugins:maven-compiler-plugin:3.10.1:compile (default-compile) "
        "on project calc: Compilation failure: Compilation failure:",
    ], dropped=["--- maven-resources-plugin:3.3.0:resources (default-resources) @ calc ---",
                "Re-run Maven using the -X switch to enable full debug logging."],
        produced_by=by, expect_exit=1, notes=note + " Induced errors: an unknown variable and a wrong "
                                                    "return type; -Xlint:deprecation adds a warning.")

    files = {"pom.xml": pom("calc"), **java_sources(False)}
    files["src/test/java/demo/BrokenTest.java"] = _TEST_BROKEN
    root = maven_project("jvm-maven", files)
    capture("maven", "test_compile_error", root, "mvn -B test", [
        "/tmp/sqz-capture/jvm-maven/src/test/java/demo/BrokenTest.java:[8,58] cannot find symbol",
        "symbol:   method multiply(int,int)",
        "location: class demo.Calc",
        "1 error",
        "BUILD FAILURE",
        "maven-compiler-plugin:3.10.1:testCompile (default-testCompile) on project calc: Compilation failure",
    ], dropped=["Scanning for projects..."], produced_by=by, expect_exit=1, notes=note)

    # A reactor build: core fails its tests, app is skipped.
    parent_modules = "  <modules>\n    <module>core</module>\n    <module>app</module>\n  </modules>\n"
    app_dep = ("    <dependency><groupId>demo</groupId><artifactId>core</artifactId>"
               "<version>1.0</version></dependency>\n")
    files = {"pom.xml": pom("parent", packaging="pom", modules=parent_modules)}
    for rel, text in java_sources(True).items():
        files["core/" + rel] = text
    files["core/pom.xml"] = pom("core", parent=True)
    files["app/pom.xml"] = pom("app", parent=True, deps=app_dep)
    files["app/src/main/java/demo/app/Main.java"] = (
        "package demo.app;\n\npublic class Main {\n    public static void main(String[] args) {\n"
        "        System.out.println(demo.Calc.add(1, 2));\n    }\n}\n")
    root = maven_project("jvm-maven-reactor", files)
    capture("maven", "reactor_fail", root, "mvn -B verify", [
        "Reactor Summary for parent 1.0:",
        "SUCCESS",
        "FAILURE",
        "SKIPPED",
        "Tests run: 74, Failures: 3, Errors: 2, Skipped: 1",
        "CalcTest.wrongSum:15 sum of 2 and 3 expected:<6> but was:<5>",
        "on project core: There are test failures.",
        "mvn <args> -rf :core",
        "BUILD FAILURE",
    ], dropped=["To see the full stack trace of the errors, re-run Maven with the -e switch.", "[INFO] Total time:"],
        produced_by=by, expect_exit=1, notes=note)


# ---------------------------------------------------------------- Gradle

_BUILD_GRADLE = """apply plugin: 'java'

sourceCompatibility = 1.8
targetCompatibility = 1.8

repositories {
    flatDir { dirs '/usr/share/java' }
}

dependencies {
    testCompile name: 'junit4'
    testCompile name: 'hamcrest-core'
}
EXTRA"""

_FULL_LOGGING = """
test {
    testLogging {
        events 'failed', 'skipped'
        exceptionFormat 'full'
    }
}
"""


def gradle_project(name: str, failing: bool, extra: str = "", broken: bool = False) -> Path:
    files = {"build.gradle": _BUILD_GRADLE.replace("EXTRA", extra),
             "settings.gradle": f"rootProject.name = '{name.removeprefix('jvm-')}'\n",
             **java_sources(failing)}
    if broken:
        files["src/main/java/demo/Calc.java"] = _CALC_BROKEN
    return write_project(name, files)


def capture_gradle() -> None:
    if not shutil.which("gradle"):
        print("gradle not installed: gradle fixtures skipped")
        return
    ver = first_line("gradle --version 2>&1", r"^Gradle \d")
    java = first_line("java -version 2>&1", r"version")
    by = f"{ver} (Debian bookworm package); {java}"
    note = ("Gradle 4.4.1 is the version Debian ships; its console output differs from Gradle 7/8 "
            "(plain console prints ':task' lines, not '> Task :task'). Debian's launcher prints "
            "`java -version` first. JUnit 4 from /usr/share/java via flatDir.")
    run("gradle --stop", Path("/tmp"))   # the first capture shows the daemon start-up line

    root = gradle_project("jvm-gradle", failing=False)
    capture("gradle", "build_green", root, "gradle build", [
        "BUILD SUCCESSFUL in",
        "actionable tasks:",
    ], dropped=[":compileJava", ":processResources NO-SOURCE", "openjdk version"],
        produced_by=by, expect_exit=0, notes=note)
    capture("gradle", "test_green_rerun", root, "gradle test --rerun-tasks", [
        "BUILD SUCCESSFUL in",
        "actionable tasks:",
    ], dropped=[":compileTestJava", ":testClasses"], produced_by=by, expect_exit=0, notes=note)

    root = gradle_project("jvm-gradle", failing=True)
    fail_facts = [
        "demo.CalcTest > wrongSum FAILED",
        "java.lang.AssertionError at CalcTest.java:15",
        "demo.CalcTest > divideByZero FAILED",
        "java.lang.ArithmeticException at CalcTest.java:16",
        "demo.CalcTest > badPort FAILED",
        "java.lang.NumberFormatException at CalcTest.java:17",
        "demo.TextTest > greetIsTrimmed FAILED",
        "org.junit.ComparisonFailure at TextTest.java:12",
        "demo.TextTest > greetHasNoTrailingSpace FAILED",
        "74 tests completed, 5 failed, 1 skipped",
        "Execution failed for task ':test'.",
        "> There were failing tests. See the report at: "
        "file:///tmp/sqz-capture/jvm-gradle/build/reports/tests/test/index.html",
        "BUILD FAILED in",
    ]
    capture("gradle", "test_fail", root, "gradle test", fail_facts,
            dropped=["Run with --stacktrace option to get the stack trace.",
                     "* Get more help at https://help.gradle.org"],
            produced_by=by, expect_exit=1, notes=note)
    capture("gradle", "build_fail_rich", root, "gradle build --console=rich", fail_facts,
            dropped=["% EXECUTING [", "* Get more help at https://help.gradle.org"],
            produced_by=by, expect_exit=1,
            notes=note + " --console=rich: colours, a status bar redrawn with cursor-up moves (the core's "
                         "ANSI clean-up leaves its frames glued on one line).")

    root = gradle_project("jvm-gradle-full", failing=True, extra=_FULL_LOGGING)
    capture("gradle", "test_fail_full", root, "gradle test", [
        "demo.CalcTest > wrongSum FAILED",
        "java.lang.AssertionError: sum of 2 and 3 expected:<6> but was:<5>",
        "at demo.CalcTest.wrongSum(CalcTest.java:15)",
        "java.lang.ArithmeticException: / by zero",
        "at demo.Calc.divide(Calc.java:11)",
        "java.lang.NumberFormatException: For input string: \"80a\"",
        "at demo.Calc.parsePort(Calc.java:15)",
        "org.junit.ComparisonFailure: expected:<hello ann[]> but was:<hello ann[ ]>",
        "java.lang.AssertionError: greeting must not end with a space",
        "demo.CalcTest > slowProperty SKIPPED",
        "74 tests completed, 5 failed, 1 skipped",
        "Execution failed for task ':test'.",
        "BUILD FAILED in",
    ], dropped=["Run with --stacktrace option to get the stack trace."],
        produced_by=by, expect_exit=1,
        notes=note + " build.gradle sets testLogging { events 'failed', 'skipped'; exceptionFormat 'full' }.")

    root = gradle_project("jvm-gradle-broken", failing=False, broken=True)
    capture("gradle", "compile_error", root, "gradle build", [
        "/tmp/sqz-capture/jvm-gradle-broken/src/main/java/demo/Calc.java:17: error: cannot find symbol",
        "int port = Integer.parseInt(txt.trim());",
        "symbol:   variable txt",
        "location: class Calc",
        "/tmp/sqz-capture/jvm-gradle-broken/src/main/java/demo/Calc.java:26: error: incompatible types: "
        "int cannot be converted to String",
        "2 errors",
        "Calc.java:30: warning: [removal] Integer(int) in Integer has been deprecated and marked for removal",
        "Execution failed for task ':compileJava'.",
        "> Compilation failed; see the compiler error output for details.",
        "BUILD FAILED in",
    ], dropped=["Run with --stacktrace option to get the stack trace."],
        produced_by=by, expect_exit=1, notes=note + " Induced errors: an unknown variable, a wrong return type.")

    root = gradle_project("jvm-gradle", failing=True)
    capture("gradle", "test_fail_quiet", root, "gradle -q test", [
        "74 tests completed, 5 failed, 1 skipped",
        "Execution failed for task ':test'.",
        "> There were failing tests. See the report at: "
        "file:///tmp/sqz-capture/jvm-gradle/build/reports/tests/test/index.html",
    ], dropped=["Run with --stacktrace option to get the stack trace."], produced_by=by, expect_exit=1,
        notes=note + " With -q Gradle 4.4.1 does not print the per-test FAILED events, only the count.")


# ---------------------------------------------------------------- held-out set

def capture_maven_heldout() -> None:
    """``ho_*``: a shape the fixtures above do not cover: one bug failing half of a parameterized
    table (30 of 60 cases), each failure with its own message and stack trace."""
    if not shutil.which("mvn"):
        print("mvn not installed: held-out maven fixtures skipped")
        return
    ver = first_line("mvn -v", r"Apache Maven")
    java = first_line("java -version 2>&1", r"version")
    by = f"{ver}; {java}; maven-surefire-plugin 2.22.3, maven-compiler-plugin 3.10.1 (Debian maven-repo)"
    files = {"pom.xml": pom("calc"), **java_sources(False)}
    files["src/main/java/demo/Calc.java"] = _CALC.replace("return a + b;", "return a > 30 ? a + b + 1 : a + b;")
    root = maven_project("jvm-maven-ho", files)
    run("mvn -B -q package -DskipTests", root)  # warm: compile once, output not kept
    capture("maven", "ho_param_table_fail", root, "mvn -B test", HO_FACTS, produced_by=by, expect_exit=1,
            dropped=["Running demo.CalcTest", "[INFO] Total time:"],
            notes="Plugins and JUnit resolved offline from Debian's maven-repo via a settings.xml mirror named in "
                  ".mvn/maven.config; its path is replaced by /pkgs.example.org/maven-repo. Induced bug: "
                  "Calc.add is off by one when its first operand is over 30, failing cases 31-60 of the "
                  "parameterized AddTableTest.")


def capture_gradle_heldout() -> None:
    """``ho_*``: the same half-failing parameterized table through Gradle's console."""
    if not shutil.which("gradle"):
        print("gradle not installed: held-out gradle fixtures skipped")
        return
    ver = first_line("gradle --version 2>&1", r"^Gradle \d")
    java = first_line("java -version 2>&1", r"version")
    root = gradle_project("jvm-gradle-ho", failing=False)
    calc = root / "src/main/java/demo/Calc.java"
    calc.write_text(_CALC.replace("return a + b;", "return a > 30 ? a + b + 1 : a + b;"))
    run("gradle compileJava", root)  # warm: the daemon and the main classes, output not kept
    capture("gradle", "ho_param_table_fail", root, "gradle test", HO_GRADLE_FACTS,
            produced_by=f"{ver} (Debian bookworm package); {java}", expect_exit=1,
            dropped=["Run with --stacktrace option to get the stack trace."],
            notes="Gradle 4.4.1 (Debian); JUnit 4 from /usr/share/java via flatDir. Induced bug: Calc.add is off by "
                  "one when its first operand is over 30, failing cases 31-60 of the parameterized AddTableTest.")


# Picked from the raw output before looking at any rendering.
HO_GRADLE_FACTS: list = [
    "demo.AddTableTest > adds[case 30: 31+31] FAILED", "demo.AddTableTest > adds[case 44: 45+45] FAILED",
    "demo.AddTableTest > adds[case 59: 60+60] FAILED", "java.lang.AssertionError at AddTableTest.java:35",
    "69 tests completed, 30 failed, 1 skipped", "Execution failed for task ':test'.",
    "> There were failing tests. See the report at: "
    "file:///tmp/sqz-capture/jvm-gradle-ho/build/reports/tests/test/index.html",
    "BUILD FAILED in",
]
HO_FACTS: list = [
    "Tests run: 6, Failures: 0, Errors: 0, Skipped: 1",
    "Tests run: 60, Failures: 30, Errors: 0, Skipped: 0",
    "adds[case 30: 31+31](demo.AddTableTest)", "java.lang.AssertionError: expected:<62> but was:<63>",
    "adds[case 44: 45+45](demo.AddTableTest)", "java.lang.AssertionError: expected:<90> but was:<91>",
    "adds[case 59: 60+60](demo.AddTableTest)", "java.lang.AssertionError: expected:<120> but was:<121>",
    "\tat demo.AddTableTest.adds(AddTableTest.java:35)",
    "AddTableTest.adds:35 expected:<62> but was:<63>", "AddTableTest.adds:35 expected:<120> but was:<121>",
    "Tests run: 69, Failures: 30, Errors: 0, Skipped: 1",
    "BUILD FAILURE",
    "on project calc: There are test failures.",
    "Please refer to /tmp/sqz-capture/jvm-maven-ho/target/surefire-reports for the individual test results.",
]


# ---------------------------------------------------------------- held-out set #2 (h2_*)

_H2_VERSION = """package h2;

import java.util.ArrayList;
import java.util.List;

/** A semantic version: MAJOR.MINOR.PATCH[-PRE]. */
public final class Version implements Comparable<Version> {
    public final int major;
    public final int minor;
    public final int patch;
    public final List<String> pre;

    private Version(int major, int minor, int patch, List<String> pre) {
        this.major = major;
        this.minor = minor;
        this.patch = patch;
        this.pre = pre;
    }

    public static Version parse(String text) {
        String core = text;
        List<String> pre = new ArrayList<>();
        int dash = text.indexOf('-');
        if (dash >= 0) {
            core = text.substring(0, dash);
            for (String p : text.substring(dash + 1).split("\\\\.")) {
                pre.add(p);
            }
        }
        String[] parts = core.split("\\\\.");
        if (parts.length != 3) {
            throw new IllegalArgumentException("expected MAJOR.MINOR.PATCH: " + text);
        }
        return new Version(num(parts[0]), num(parts[1]), num(parts[2]), pre);
    }

    private static int num(String s) {
        if (s.length() > 1 && s.charAt(0) == '0') {
            throw new IllegalArgumentException("leading zero: " + s);
        }
        return Integer.parseInt(s);
    }

    @Override
    public int compareTo(Version o) {
        if (major != o.major) return Integer.compare(major, o.major);
        if (minor != o.minor) return Integer.compare(minor, o.minor);
        if (patch != o.patch) return Integer.compare(patch, o.patch);
        if (pre.isEmpty() != o.pre.isEmpty()) return pre.isEmpty() ? 1 : -1;
        for (int i = 0; i < Math.min(pre.size(), o.pre.size()); i++) {
            String a = pre.get(i);
            String b = o.pre.get(i);
            int c = a.matches("\\\\d+") && b.matches("\\\\d+")
                ? Integer.compare(Integer.parseInt(a), Integer.parseInt(b)) : a.compareTo(b);
            if (c != 0) return c;
        }
        return Integer.compare(pre.size(), o.pre.size());
    }

    public Version bumpMinor() {
        return new Version(major, minor + 1, 0, new ArrayList<>());
    }

    @Override
    public String toString() {
        return major + "." + minor + "." + patch + (pre.isEmpty() ? "" : "-" + String.join(".", pre));
    }
}
"""

_H2_VERSION_TEST = """package h2;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class VersionTest {
    @Nested
    @DisplayName("parsing")
    class Parsing {
        @Test
        void parsesCore() {
            Version v = Version.parse("1.2.3");
            assertAll("core",
                () -> assertEquals(1, v.major),
                () -> assertEquals(2, v.minor),
                () -> assertEquals(3, v.patch));
        }

        @Test
        void parsesPreRelease() {
            Version v = Version.parse("1.0.0-alpha.1");
            assertAll("pre-release",
                () -> assertEquals(2, v.pre.size(), "pre-release identifiers"),
                () -> assertEquals("alpha", v.pre.get(0)),
                () -> assertEquals("1.0.0-alpha.1", v.toString()));
        }

        @ParameterizedTest(name = "rejects \\"{0}\\"")
        @ValueSource(strings = {"1.2", "1.2.3.4", "01.2.3", "1.02.3", "a.b.c"})
        void rejects(String text) {
            assertThrows(IllegalArgumentException.class, () -> Version.parse(text));
        }
    }

    @Nested
    @DisplayName("ordering")
    class Ordering {
        @ParameterizedTest(name = "{0} < {1}")
        @CsvSource({
            "1.0.0, 2.0.0", "2.0.0, 2.1.0", "2.1.0, 2.1.1", "1.0.0-alpha, 1.0.0",
            "1.0.0-alpha, 1.0.0-alpha.1", "1.0.0-alpha.1, 1.0.0-alpha.beta", "1.0.0-beta.2, 1.0.0-beta.11",
            "1.0.0-rc.1, 1.0.0", "0.9.9, 1.0.0", "1.9.0, 1.10.0"
        })
        void lessThan(String a, String b) {
            assertTrue(Version.parse(a).compareTo(Version.parse(b)) < 0, a + " should sort before " + b);
        }
    }

    @Test
    void bumpMinorResetsPatch() {
        assertEquals("1.3.0", Version.parse("1.2.9").bumpMinor().toString());
    }

    @Test
    @Disabled("waits for build metadata support")
    void buildMetadata() {
        assertEquals("1.0.0+42", Version.parse("1.0.0+42").toString());
    }
}
"""

_H2_JUNIT5_DEPS = """    <dependency><groupId>org.junit.jupiter</groupId><artifactId>junit-jupiter-api</artifactId><version>5.9.2</version><scope>test</scope></dependency>
    <dependency><groupId>org.junit.jupiter</groupId><artifactId>junit-jupiter-params</artifactId><version>5.9.2</version><scope>test</scope></dependency>
    <dependency><groupId>org.junit.jupiter</groupId><artifactId>junit-jupiter-engine</artifactId><version>5.9.2</version><scope>test</scope></dependency>
"""

_H2_BUGS = [  # numeric pre-release identifiers compared as text; the pre-release split on '-'; minor bump keeps patch
    ('int c = a.matches("\\\\d+") && b.matches("\\\\d+")\n                ? Integer.compare(Integer.parseInt(a), Integer.parseInt(b)) : a.compareTo(b);',
     'int c = a.compareTo(b);'),
    ('return new Version(major, minor + 1, 0, new ArrayList<>());', 'return new Version(major, minor + 1, patch, new ArrayList<>());'),
    ('for (String p : text.substring(dash + 1).split("\\\\.")) {', 'for (String p : text.substring(dash + 1).split("-")) {'),
]


def _h2_junit5_pom(artifact: str) -> str:
    return pom(artifact).replace(
        "    <dependency><groupId>junit</groupId><artifactId>junit</artifactId><version>4.13.2</version>"
        "<scope>test</scope></dependency>\n", _H2_JUNIT5_DEPS)


def _h2_patched(text: str, bugs) -> str:
    for old, new in bugs:
        if old not in text:
            raise SystemExit(f"h2: patch target not found: {old!r}")
        text = text.replace(old, new, 1)
    return text


def capture_h2_maven() -> None:
    """``h2_*``: JUnit 5 (Jupiter 5.9.2 from Debian's maven-repo): nested classes, parameterized tests,
    grouped assertions; a reactor build run with --fail-at-end; a quiet run."""
    if not shutil.which("mvn"):
        print("mvn not installed: h2 maven fixtures skipped")
        return
    ver = first_line("mvn -v", r"Apache Maven")
    java = first_line("java -version 2>&1", r"version")
    by = (f"{ver}; {java}; maven-surefire-plugin 2.22.3 (junit-platform provider), JUnit Jupiter 5.9.2 "
          "(Debian maven-repo)")
    note = ("Plugins and JUnit resolved offline from Debian's maven-repo via a settings.xml mirror named in "
            ".mvn/maven.config; its path is replaced by /pkgs.example.org/maven-repo. A small semantic-version "
            "library written for this capture (no Java project sources are installable here).")
    bugs = (" Induced bugs: pre-release identifiers split on '-' instead of '.', numeric identifiers compared "
            "as text, bumpMinor keeps the patch number.")
    src = _h2_patched(_H2_VERSION, _H2_BUGS)
    files = {"pom.xml": _h2_junit5_pom("semver"), "src/main/java/h2/Version.java": src,
             "src/test/java/h2/VersionTest.java": _H2_VERSION_TEST}
    root = maven_project("jvm-h2-junit5", files)
    run("mvn -B -q test-compile", root)  # warm: compile once, output not kept
    capture("maven", "h2_junit5_nested_params_fail", root, "mvn -B test", H2_FACTS.get("h2_junit5_nested_params_fail", []),
            dropped=H2_DROPPED.get("h2_junit5_nested_params_fail", []), produced_by=by, expect_exit=1, notes=note + bugs)
    capture("maven", "h2_junit5_quiet_fail", root, "mvn -q test", H2_FACTS.get("h2_junit5_quiet_fail", []),
            dropped=H2_DROPPED.get("h2_junit5_quiet_fail", []), produced_by=by, expect_exit=1,
            notes=note + bugs + " Quiet, with Debian Maven's colours.")
    # A reactor: 'model' fails its tests, 'cli' does not compile, 'docs' is green; --fail-at-end runs all three.
    modules = "  <modules>\n    <module>model</module>\n    <module>cli</module>\n    <module>docs</module>\n  </modules>\n"
    files = {"pom.xml": pom("parent", packaging="pom", modules=modules),
             "model/pom.xml": _h2_junit5_pom("model").replace("<groupId>demo</groupId>\n  <version>1.0</version>\n",
                                                             "<groupId>demo</groupId>\n  <version>1.0</version>\n", 1),
             "model/src/main/java/h2/Version.java": src, "model/src/test/java/h2/VersionTest.java": _H2_VERSION_TEST,
             "cli/pom.xml": pom("cli"), "docs/pom.xml": pom("docs"),
             "cli/src/main/java/h2/cli/Main.java": (
                 "package h2.cli;\n\nimport java.util.List;\n\npublic class Main {\n"
                 "    public static void main(String[] args) {\n"
                 "        List<String> names = List.of(args);\n"
                 "        int n = names.size;\n"
                 "        String first = names.get(0).lenght();\n"
                 "        System.out.println(n + first);\n    }\n}\n"),
             "docs/src/main/java/h2/docs/Readme.java": "package h2.docs;\n\npublic class Readme {\n"
                                                       "    public static final String TEXT = \"semver\";\n}\n"}
    root = maven_project("jvm-h2-reactor", files)
    capture("maven", "h2_reactor_fail_at_end", root, "mvn -B -fae test", H2_FACTS.get("h2_reactor_fail_at_end", []),
            dropped=H2_DROPPED.get("h2_reactor_fail_at_end", []), produced_by=by, expect_exit=1,
            notes=note + bugs + " A reactor of three independent modules run with --fail-at-end: model fails its "
                                "tests, cli does not compile (a field access on a method, a misspelt method), "
                                "docs builds.")


_H2_GRADLE_SETTINGS = "include 'model', 'cli'\n"
_H2_GRADLE_ROOT = """subprojects {
    apply plugin: 'java'
    sourceCompatibility = 1.8
    targetCompatibility = 1.8
    repositories {
        flatDir { dirs '/usr/share/java' }
    }
    dependencies {
        testCompile name: 'junit4'
        testCompile name: 'hamcrest-core'
    }
}
"""
_H2_J4_VERSION_TEST = """package h2;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import org.junit.Ignore;
import org.junit.Test;

public class VersionTest {
    @Test public void parsesCore() { assertEquals(3, Version.parse("1.2.3").patch); }
    @Test public void parsesPreRelease() { assertEquals(2, Version.parse("1.0.0-alpha.1").pre.size()); }
    @Test public void printsPreRelease() { assertEquals("1.0.0-alpha.1", Version.parse("1.0.0-alpha.1").toString()); }
    @Test(expected = IllegalArgumentException.class) public void rejectsLeadingZero() { Version.parse("01.2.3"); }
    @Test(expected = IllegalArgumentException.class) public void rejectsTwoParts() { Version.parse("1.2"); }
    @Test public void numericPreOrder() {
        assertTrue("beta.2 < beta.11", Version.parse("1.0.0-beta.2").compareTo(Version.parse("1.0.0-beta.11")) < 0);
    }
    @Test public void preBeforeRelease() { assertTrue(Version.parse("1.0.0-rc.1").compareTo(Version.parse("1.0.0")) < 0); }
    @Test public void bumpMinorResetsPatch() { assertEquals("1.3.0", Version.parse("1.2.9").bumpMinor().toString()); }
    @Ignore("build metadata not supported yet") @Test public void buildMetadata() { }
}
"""
_H2_J4_CLI_TEST = """package h2.cli;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class MainTest {
    @Test public void formatsLine() { assertEquals("semver 1.2.3", Main.line("semver", "1.2.3")); }
    @Test public void formatsEmpty() { assertEquals("semver ?", Main.line("semver", "")); }
}
"""
_H2_J4_CLI = """package h2.cli;

public class Main {
    static String line(String name, String version) {
        return name + " " + (version.isEmpty() ? "-" : version);
    }

    public static void main(String[] args) {
        System.out.println(line(args[0], args.length > 1 ? args[1] : ""));
    }
}
"""


def capture_h2_gradle() -> None:
    """``h2_*``: a two-project Gradle build, offline, with --continue past the first failing task."""
    if not shutil.which("gradle"):
        print("gradle not installed: h2 gradle fixtures skipped")
        return
    ver = first_line("gradle --version 2>&1", r"^Gradle \d")
    java = first_line("java -version 2>&1", r"version")
    by = f"{ver} (Debian bookworm package); {java}"
    note = ("Gradle 4.4.1 (Debian); JUnit 4 from /usr/share/java via flatDir. A small semantic-version library "
            "(model) and a command line (cli) written for this capture.")
    bugs = (" Induced bugs: pre-release identifiers split on '-' instead of '.', numeric identifiers compared "
            "as text, bumpMinor keeps the patch number; cli prints '-' for an empty version.")
    files = {"settings.gradle": _H2_GRADLE_SETTINGS, "build.gradle": _H2_GRADLE_ROOT,
             "model/src/main/java/h2/Version.java": _h2_patched(_H2_VERSION, _H2_BUGS),
             "model/src/test/java/h2/VersionTest.java": _H2_J4_VERSION_TEST,
             "cli/src/main/java/h2/cli/Main.java": _H2_J4_CLI, "cli/src/test/java/h2/cli/MainTest.java": _H2_J4_CLI_TEST}
    root = write_project("jvm-h2-gradle", files)
    run("gradle --offline compileJava", root)  # warm: the daemon, output not kept
    capture("gradle", "h2_offline_continue_two_projects", root, "gradle --offline --continue test",
            H2_FACTS.get("h2_offline_continue_two_projects", []),
            dropped=H2_DROPPED.get("h2_offline_continue_two_projects", []), produced_by=by, expect_exit=1,
            notes=note + bugs + " --continue: both projects' test tasks run and fail.")
    files["cli/src/main/java/h2/cli/Main.java"] = _H2_J4_CLI.replace(
        'return name + " " + (version.isEmpty() ? "-" : version);', 'return name + " " + version.orElse("-");')
    root = write_project("jvm-h2-gradle-broken", files)
    capture("gradle", "h2_offline_build_compile_and_test_fail", root, "gradle --offline --continue build",
            H2_FACTS.get("h2_offline_build_compile_and_test_fail", []),
            dropped=H2_DROPPED.get("h2_offline_build_compile_and_test_fail", []), produced_by=by, expect_exit=1,
            notes=note + bugs + " cli does not compile (a String used as an Optional); --continue still runs "
                                "model's tests.")


H2_FACTS: dict = {  # picked from the raw outputs before looking at any rendering
    "h2_junit5_nested_params_fail": [
        "Tests run: 19, Failures: 3, Errors: 0, Skipped: 1",
        "bumpMinorResetsPatch", "org.opentest4j.AssertionFailedError: expected: <1.3.0> but was: <1.3.9>",
        "at h2.VersionTest.bumpMinorResetsPatch(VersionTest.java:61)",
        "lessThan{String, String}[7]",
        "1.0.0-beta.2 should sort before 1.0.0-beta.11 ==> expected: <true> but was: <false>",
        "at h2.VersionTest$Ordering.lessThan(VersionTest.java:55)",
        "parsesPreRelease", "pre-release (2 failures)",
        "pre-release identifiers ==> expected: <2> but was: <1>", "expected: <alpha> but was: <alpha.1>",
        "VersionTest$Ordering.lessThan:55", "VersionTest$Parsing.parsesPreRelease:32",
        "VersionTest.bumpMinorResetsPatch:61",
        "BUILD FAILURE", "on project semver: There are test failures.",
        "Please refer to /tmp/sqz-capture/jvm-h2-junit5/target/surefire-reports for the individual test results.",
    ],
    "h2_junit5_quiet_fail": [
        "Tests run: 19, Failures: 3, Errors: 0, Skipped: 1",
        "org.opentest4j.AssertionFailedError: expected: <1.3.0> but was: <1.3.9>",
        "1.0.0-beta.2 should sort before 1.0.0-beta.11 ==> expected: <true> but was: <false>",
        "pre-release (2 failures)", "pre-release identifiers ==> expected: <2> but was: <1>",
        "expected: <alpha> but was: <alpha.1>",
        "VersionTest$Ordering.lessThan:55", "VersionTest$Parsing.parsesPreRelease:32",
        "VersionTest.bumpMinorResetsPatch:61", "on project semver: There are test failures.",
    ],
    "h2_reactor_fail_at_end": [
        "Tests run: 19, Failures: 3, Errors: 0, Skipped: 1",
        "VersionTest$Ordering.lessThan:55", "VersionTest$Parsing.parsesPreRelease:32",
        "VersionTest.bumpMinorResetsPatch:61",
        "org.opentest4j.AssertionFailedError: expected: <1.3.0> but was: <1.3.9>",
        "/tmp/sqz-capture/jvm-h2-reactor/cli/src/main/java/h2/cli/Main.java:[8,22] cannot find symbol",
        "symbol:   variable size", "location: variable names of type java.util.List<java.lang.String>",
        "/tmp/sqz-capture/jvm-h2-reactor/cli/src/main/java/h2/cli/Main.java:[9,36] cannot find symbol",
        "symbol:   method lenght()",
        ["model", "FAILURE ["], ["cli", "FAILURE ["], ["docs", "SUCCESS ["],
        "BUILD FAILURE", "on project model: There are test failures.",
        "on project cli: Compilation failure: Compilation failure:",
    ],
    "h2_offline_continue_two_projects": [
        "h2.cli.MainTest > formatsEmpty FAILED", "org.junit.ComparisonFailure at MainTest.java:9",
        "2 tests completed, 1 failed", ":cli:test FAILED",
        "h2.VersionTest > bumpMinorResetsPatch FAILED", "org.junit.ComparisonFailure at VersionTest.java:19",
        "h2.VersionTest > numericPreOrder FAILED", "java.lang.AssertionError at VersionTest.java:16",
        "h2.VersionTest > parsesPreRelease FAILED", "java.lang.AssertionError at VersionTest.java:11",
        "9 tests completed, 3 failed, 1 skipped", ":model:test FAILED",
        "FAILURE: Build completed with 2 failures.",
        "Execution failed for task ':cli:test'.", "Execution failed for task ':model:test'.",
        "file:///tmp/sqz-capture/jvm-h2-gradle/model/build/reports/tests/test/index.html",
        "BUILD FAILED in",
    ],
    "h2_offline_build_compile_and_test_fail": [
        "/tmp/sqz-capture/jvm-h2-gradle-broken/cli/src/main/java/h2/cli/Main.java:5: error: cannot find symbol",
        "return name + \" \" + version.orElse(\"-\");", "symbol:   method orElse(String)",
        "location: variable version of type String",
        "h2.VersionTest > bumpMinorResetsPatch FAILED", "h2.VersionTest > numericPreOrder FAILED",
        "h2.VersionTest > parsesPreRelease FAILED", "9 tests completed, 3 failed, 1 skipped",
        "FAILURE: Build completed with 2 failures.", "Execution failed for task ':cli:compileJava'.",
        "> Compilation failed; see the compiler error output for details.",
        "Execution failed for task ':model:test'.", "BUILD FAILED in",
    ],
}
H2_DROPPED: dict = {
    "h2_junit5_nested_params_fail": ["Downloading from central:", "[INFO] Total time:"],
    "h2_reactor_fail_at_end": ["--- maven-resources-plugin:3.3.0:resources (default-resources) @ docs ---"],
    "h2_offline_continue_two_projects": ["WARNING: A terminally deprecated method in java.lang.System has been called"],
}


FAMILIES = {"maven": capture_maven, "gradle": capture_gradle,
            "ho_maven": capture_maven_heldout, "ho_gradle": capture_gradle_heldout,
            "h2_maven": capture_h2_maven, "h2_gradle": capture_h2_gradle}


def main(argv: list[str]) -> int:
    return run_families(FAMILIES, argv)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
