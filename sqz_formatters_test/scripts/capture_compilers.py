#!/usr/bin/env python3
"""Re-capture the multi-file type checker, linter, compiler and package-manager fixtures.

Small throw-away projects under /tmp/sqz-capture/compilers/ (fixed paths, so the captured
text is stable) with real errors spread over several files: TypeScript (tsc), Python
(mypy, ruff), JavaScript (eslint 9, stylish), C (gcc) and Rust (cargo build), plus npm
and pip installs. Each run is the real tool, stdout and stderr merged as an agent's shell
sees them, saved as ``tests/fixtures/<family>/NAME.txt`` with a ``NAME.json`` sidecar.
The facts below were picked from the raw output of these runs before any formatter saw
it; ``save_checked`` refuses to write a fixture whose output no longer states them.

Tools: a venv /tmp/sqz-compilers-tools/venv (mypy, ruff, pip) and npm packages in
/tmp/sqz-compilers-tools/js (typescript, eslint 9, @eslint/js 9), created when missing;
gcc and cargo from the system. Registry hosts and this machine's index paths pass
through ``sqz_testing.redact_registries`` (→ ``pkgs.example.org``).

Usage: python scripts/capture_compilers.py [family ...]   (tsc mypy ruff eslint cc cargo npm pip pipbuild
rustspans)
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from _capture_common import ANSI_CSI, WORK, run_merged, write_fixture, write_tree
from sqz_testing import missing_facts, redact_registries

ROOT = WORK / "compilers"
TOOLBOX = Path("/tmp/sqz-compilers-tools")
VENV = TOOLBOX / "venv"
JSBOX = TOOLBOX / "js"
_URL_HOST = re.compile(rb"https?://(?!pkgs\.example\.org)[A-Za-z0-9.-]+")


def env() -> dict:
    e = dict(os.environ)
    e["PATH"] = os.pathsep.join([str(VENV / "bin"), str(JSBOX / "node_modules" / ".bin"), e["PATH"]])
    for k in ("CI", "FORCE_COLOR", "NO_COLOR", "VIRTUAL_ENV", "PYTHONPATH"):
        e.pop(k, None)
    e.update(LANG="C.UTF-8", LC_ALL="C.UTF-8", TERM="dumb", COLUMNS="100")
    return e


def run(cmd: str, cwd: Path) -> tuple[bytes, int]:
    return run_merged(cmd, cwd, env(), 900)


def version(cmd: str) -> str:
    out, _ = run(cmd, TOOLBOX)
    return ANSI_CSI.sub("", out.decode()).strip().splitlines()[0]


def redact(raw: bytes, package_manager: bool = False) -> bytes:
    """Registry hosts and index paths → pkgs.example.org (every URL host too, for package managers)."""
    if package_manager:
        raw = _URL_HOST.sub(b"https://pkgs.example.org", raw)
    return redact_registries(raw)


def capture(family: str, name: str, cmd: str, cwd: Path, produced_by: str, facts, *, dropped=(),
            notes: str = "", expect_exit: int | None = None, package_manager: bool = False) -> None:
    """Run ``cmd`` and save it once its facts (and ``dropped`` strings) are found in the output."""
    raw, code = run(cmd, cwd)
    red = redact(raw, package_manager)
    note = f"captured in {cwd} by scripts/capture_compilers.py; stdout+stderr merged"
    if red != raw:
        note += "; registry hosts and index paths replaced by pkgs.example.org (sqz_testing.redact_registries)"
    plain = ANSI_CSI.sub("", red.decode("utf-8"))
    lost = missing_facts(plain, facts)
    if lost:
        raise SystemExit(f"{family}/{name}: facts not in the captured output: {lost}\n{plain[-4000:]}")
    absent = [d for d in dropped if d not in plain]
    if absent:
        raise SystemExit(f"{family}/{name}: 'dropped' strings not in the output: {absent}")
    if expect_exit is not None and code != expect_exit:
        raise SystemExit(f"{family}/{name}: exit {code}, expected {expect_exit}\n{plain[-4000:]}")
    write_fixture(family, name, red, {"command": cmd, "produced_by": produced_by, "exit_code": code,
                                      "facts": list(facts), "dropped": list(dropped),
                                      "notes": note + (f"; {notes}" if notes else "")})
    print(f"captured {family}/{name}: exit {code}, {len(red)} bytes")


def ensure_tools() -> None:
    TOOLBOX.mkdir(parents=True, exist_ok=True)
    if not (VENV / "bin" / "mypy").exists():
        subprocess.run([sys.executable, "-m", "venv", str(VENV)], check=True)
        subprocess.run([str(VENV / "bin" / "pip"), "install", "-q", "mypy", "ruff"], check=True)
    if not (JSBOX / "node_modules" / ".bin" / "tsc").exists():
        JSBOX.mkdir(parents=True, exist_ok=True)
        subprocess.run("npm init -y >/dev/null && npm install --save-dev typescript eslint@9 @eslint/js@9",
                       shell=True, cwd=JSBOX, check=True)


# ---------------------------------------------------------------- TypeScript (tsc)

TS_PROJECT = {
    "tsconfig.json": '{\n  "compilerOptions": {"strict": true, "noEmit": true, "target": "ES2022", "module": "ES2022",'
                     ' "moduleResolution": "bundler", "noUnusedLocals": true},\n  "include": ["src"]\n}\n',
    "src/models/user.ts": '''export interface Address { street: string; city: string; zip: number }

export interface User {
  id: number;
  name: string;
  email: string;
  address?: Address;
  roles: Array<"admin" | "editor" | "viewer">;
}

export function makeUser(id: number, name: string): User {
  return { id, name, roles: ["viewer"] };
}

export const guest: User = { id: 0, name: "guest", email: "", roles: ["owner"] };
''',
    "src/services/userService.ts": '''import { User, makeUser } from "../models/user";
import { formatName } from "../utils/format";
import { sendMail } from "../mail/sender";

export class UserService {
  private users = new Map<number, User>();

  add(name: string): User {
    const user = makeUser(this.users.size + 1, name, "extra");
    this.users.set(user.id, user);
    return user;
  }

  find(id: string): User | undefined {
    return this.users.get(id);
  }

  city(id: number): string {
    const u = this.users.get(id);
    return u.address.city;
  }

  display(id: number): string {
    const u = this.users.get(id)!;
    return formatName(u.name, u.id);
  }

  promote(u: User): void {
    u.roles.push("superuser");
    u.id = "42";
  }
}
''',
    "src/utils/format.ts": '''export function formatName(first: string, last: string): string {
  const unusedLocal = 3;
  return `${first} ${last}`.trim();
}

export function pad(n: number, width: number): string {
  return n.padStart(width, "0");
}

export function total(values: number[]): number {
  return values.reduce((a, b) => a + b, "0");
}
''',
    "src/api/handlers.ts": '''import { UserService } from "../services/userService";

const service = new UserService();

export async function getUser(req: { params: { id: string } }) {
  const user = service.find(Number(req.params.id));
  return { status: 200, body: user.name };
}

export function listUsers(): string[] {
  return service.all();
}

export function createUser(body: unknown) {
  return service.add(body.name);
}
''',
}


def capture_tsc() -> None:
    proj = write_tree(ROOT / "tsproj", TS_PROJECT)
    (proj / "node_modules").symlink_to(JSBOX / "node_modules")
    tv = "tsc " + version("tsc --version") + "; node " + version("node --version")
    capture("tsc", "multi_file", "tsc --noEmit -p .", proj, tv, TSC_FACTS, expect_exit=1)
    capture("tsc", "multi_file_pretty", "tsc --noEmit --pretty -p .", proj, tv, TSC_PRETTY_LOCATED + TSC_PRETTY_FACTS,
            dropped=TSC_PRETTY_DROPPED, expect_exit=1)


TSC_ERRORS = [  # (line, col, code, message) as tsc printed them

    (6, 29, "TS2345", "Argument of type 'number' is not assignable to parameter of type 'string'."),
    (7, 31, "TS18048", "'user' is possibly 'undefined'."),
    (11, 18, "TS2339", "Property 'all' does not exist on type 'UserService'."),
    (15, 22, "TS18046", "'body' is of type 'unknown'."),
    (12, 3, "TS2741", ("Property 'email' is missing in type '{ id: number; name: string; roles: \"viewer\"[]; }'"
     " but required in type 'User'.")),
    (15, 71, "TS2322", "Type '\"owner\"' is not assignable to type '\"admin\" | \"editor\" | \"viewer\"'."),
    (3, 10, "TS6133", "'sendMail' is declared but its value is never read."),
    (3, 26, "TS2307", "Cannot find module '../mail/sender' or its corresponding type declarations."),
    (9, 54, "TS2554", "Expected 2 arguments, but got 3."),
    (15, 27, "TS2345", "Argument of type 'string' is not assignable to parameter of type 'number'."),
    (20, 12, "TS18048", "'u' is possibly 'undefined'."),
    (20, 12, "TS18048", "'u.address' is possibly 'undefined'."),
    (25, 31, "TS2345", "Argument of type 'number' is not assignable to parameter of type 'string'."),
    (29, 18, "TS2345", ("Argument of type '\"superuser\"' is not assignable to parameter of type"
     " '\"admin\" | \"editor\" | \"viewer\"'.")),
    (30, 5, "TS2322", "Type 'string' is not assignable to type 'number'."),
    (2, 9, "TS6133", "'unusedLocal' is declared but its value is never read."),
    (7, 12, "TS2339", "Property 'padStart' does not exist on type 'number'."),
    (11, 3, "TS2322", "Type 'string' is not assignable to type 'number'."),
]
TSC_PATHS = ["src/api/handlers.ts", "src/models/user.ts", "src/services/userService.ts", "src/utils/format.ts"]
# every error: its location as this output format prints it, code and message on one line
TSC_FACTS = TSC_PATHS + [[f"({ln},{col})", f"error {code}", msg] for ln, col, code, msg in TSC_ERRORS]
TSC_PRETTY_LOCATED = TSC_PATHS + [[f"{ln}:{col}", f"error {code}", msg] for ln, col, code, msg in TSC_ERRORS]
TSC_PRETTY_FACTS = [
    ["src/models/user.ts:6:3", "'email' is declared here."],
    "Found 18 errors in 4 files.",
    ["4", "src/api/handlers.ts:6"], ["2", "src/models/user.ts:12"], ["9", "src/services/userService.ts:3"],
    ["3", "src/utils/format.ts:2"],
]
TSC_PRETTY_DROPPED = ["  return n.padStart(width, \"0\");", "~~~~~~~~~~~~~~~~~~~~~"]



# ---------------------------------------------------------------- Python (mypy, ruff)

PY_PROJECT = {
    "inventory/__init__.py": "",
    "inventory/models.py": '''from dataclasses import dataclass
from typing import Optional


@dataclass
class Item:
    sku: str
    name: str
    price: float
    qty: int = 0
    tags: list[str] = None


def restock(item: Item, amount: int) -> Item:
    item.qty += str(amount)
    return item


def find(items: list[Item], sku: str) -> Optional[Item]:
    for it in items:
        if it.sku == sku:
            return it


def label(item: Optional[Item]) -> str:
    return item.name.upper()
''',
    "inventory/pricing.py": '''import os, sys
import json
from decimal import Decimal

from inventory.models import Item
from inventory.currency import convert


def total(items: list[Item]) -> Decimal:
    return sum(i.price * i.qty for i in items)


def discount(price: float, pct: int = "10") -> float:
    unused = pct / 100
    return price - price * pct / 100


def describe(items: list[Item]) -> str:
    names = [i.name for i in items]
    return ", ".join(names) + f"total"


def rate(code):
    try:
        return convert(code)
    except:
        pass
''',
    "inventory/report.py": '''from typing import Any

from inventory.models import Item, find
from inventory.pricing import total


def render(items: list[Item], fmt: str = "text") -> str:
    if fmt == None:
        fmt = "text"
    lines: list[str] = []
    for item in items:
        lines.append(item.sku, item.name)
    lines.append(total(items))
    return "\\n".join(lines)


def first_name(items: list[Item]) -> str:
    return find(items, "A1").name


def summary(data: dict[str, Any]) -> int:
    count: int = data.get("count", "0")
    return count + 1
''',
}


def capture_mypy() -> None:
    proj = write_tree(ROOT / "pyproj", PY_PROJECT)
    shutil.rmtree(proj / ".mypy_cache", ignore_errors=True)
    mv = version("mypy --version") + "; Python " + version("python -c 'import platform;print(platform.python_version())'")
    capture("mypy", "multi_file", "mypy inventory", proj, mv, MYPY_FACTS, expect_exit=1)


def capture_ruff() -> None:
    proj = write_tree(ROOT / "pyproj", PY_PROJECT)
    rv = version("ruff --version")
    capture("ruff", "multi_file_full", "ruff check --select E,F,B,UP,SIM inventory", proj, rv, RUFF_FULL_FACTS,
            dropped=RUFF_DROPPED, expect_exit=1)
    capture("ruff", "multi_file_concise", "ruff check --output-format=concise --select E,F,B,UP,SIM inventory", proj,
            rv, RUFF_FACTS, expect_exit=1)


MYPY_ERRORS = [  # (path, line, message, code) as mypy printed them
    ("inventory/models.py", 11, ('Incompatible types in assignment (expression has type "None", variable has type '
     '"list[str]")'), "assignment"),
    ("inventory/models.py", 15, 'Unsupported operand types for + ("int" and "str")', "operator"),
    ("inventory/models.py", 19, "Missing return statement", "return"),
    ("inventory/models.py", 26, 'Item "None" of "Item | None" has no attribute "name"', "union-attr"),
    ("inventory/pricing.py", 6, 'Cannot find implementation or library stub for module named "inventory.currency"',
     "import-not-found"),
    ("inventory/pricing.py", 10, 'Incompatible return value type (got "int", expected "Decimal")', "return-value"),
    ("inventory/pricing.py", 10, 'Generator has incompatible item type "float"; expected "bool"', "misc"),
    ("inventory/pricing.py", 13, ('Incompatible default for parameter "pct" (default has type "str", parameter has '
     'type "int")'), "assignment"),
    ("inventory/report.py", 12, 'Too many arguments for "append" of "list"', "call-arg"),
    ("inventory/report.py", 13, 'Argument 1 to "append" of "list" has incompatible type "Decimal"; expected "str"',
     "arg-type"),
    ("inventory/report.py", 18, 'Item "None" of "Item | None" has no attribute "name"', "union-attr"),
]
MYPY_FACTS = ["inventory/models.py", "inventory/pricing.py", "inventory/report.py",
              ["6: note: See https://mypy.readthedocs.io/en/stable/running_mypy.html#missing-imports"],
              "Found 11 errors in 3 files (checked 4 source files)"] + [
    [f"{ln}: error: {msg}", f"[{code}]"] for _, ln, msg, code in MYPY_ERRORS]

RUFF_DIAGS = [  # (path, line:col, code, message) as ruff printed them
    ("inventory/models.py", "19:42", "UP045", "[*] Use `X | None` for type annotations"),
    ("inventory/models.py", "25:17", "UP045", "[*] Use `X | None` for type annotations"),
    ("inventory/pricing.py", "1:1", "E401", "[*] Multiple imports on one line"),
    ("inventory/pricing.py", "1:8", "F401", "[*] `os` imported but unused"),
    ("inventory/pricing.py", "1:12", "F401", "[*] `sys` imported but unused"),
    ("inventory/pricing.py", "2:8", "F401", "[*] `json` imported but unused"),
    ("inventory/pricing.py", "14:5", "F841", "Local variable `unused` is assigned to but never used"),
    ("inventory/pricing.py", "20:31", "F541", "[*] f-string without any placeholders"),
    ("inventory/pricing.py", "26:5", "E722", "Do not use bare `except`"),
    ("inventory/report.py", "8:15", "E711", "Comparison to `None` should be `cond is None`"),
]
RUFF_SUMMARY = ["Found 10 errors.", "[*] 7 fixable with `--fix` (2 unsafe fixes available with `--fix --unsafe-fixes`)."]
# concise: path, location, code and message on one line
RUFF_FACTS = ["inventory/models.py", "inventory/pricing.py", "inventory/report.py", *RUFF_SUMMARY] + [
    [loc, code, msg] for _, loc, code, msg in RUFF_DIAGS]
# full: ruff prints `CODE message` above its ` --> path:line:col` line
RUFF_FULL_FACTS = RUFF_SUMMARY + [f"{path}:{loc}" for path, loc, _, _ in RUFF_DIAGS] + list(dict.fromkeys(
    f"{code} {msg}" for _, _, code, msg in RUFF_DIAGS))
RUFF_DROPPED = ["help: Convert to `X | None`", "   - def find(items: list[Item], sku: str) -> Optional[Item]:"]


# ---------------------------------------------------------------- JavaScript (eslint, stylish)

ESLINT_PROJECT = {
    "eslint.config.mjs": '''import js from "@eslint/js";

export default [
  js.configs.recommended,
  {
    files: ["src/**/*.js"],
    languageOptions: { sourceType: "module", globals: { console: "readonly", process: "readonly" } },
    rules: { "no-console": "warn", "prefer-const": "error", eqeqeq: "warn", "no-var": "error", curly: "warn" },
  },
];
''',
    "src/server.js": '''import http from "http";
import path from "path";
import { route } from "./router.js";

var port = process.env.PORT || 3000;
let started = false;

const server = http.createServer((req, res) => {
  if (req.url == "/health") return res.end("ok");
  console.log("request", req.url);
  route(req, res);
});

server.listen(port);
''',
    "src/router.js": '''import { users } from "./store.js";

export function route(req, res) {
  let body = "";
  const unused = 1;
  switch (req.method) {
    case "GET":
      body = JSON.stringify(users);
    case "POST":
      body = "created";
      break;
  }
  if (req.url != "/") res.statusCode = 404;
  return res.end(body);
}
''',
    "src/store.js": '''export const users = [];

export function add(user, user) {
  debugger;
  users.push(usr);
  return users.length;
}

export function clear() {
  var n = users.length;
  users.length = 0;
  return n;
}
''',
}


def capture_eslint() -> None:
    proj = write_tree(ROOT / "eslintproj", ESLINT_PROJECT)
    (proj / "node_modules").symlink_to(JSBOX / "node_modules")
    ev = "eslint " + version("eslint --version") + "; node " + version("node --version")
    capture("eslint", "multi_file", "eslint src", proj, ev, ESLINT_FACTS, expect_exit=1)


ESLINT_PROBLEMS = [  # (file, line:col, severity, message, rule) as eslint's stylish formatter printed them
    ("router.js", "5:9", "error", "'unused' is assigned a value but never used", "no-unused-vars"),
    ("router.js", "9:5", "error", "Expected a 'break' statement before 'case'", "no-fallthrough"),
    ("router.js", "13:15", "warning", "Expected '!==' and instead saw '!='", "eqeqeq"),
    ("router.js", "13:23", "warning", "Expected { after 'if' condition", "curly"),
    ("server.js", "2:8", "error", "'path' is defined but never used", "no-unused-vars"),
    ("server.js", "5:1", "error", "Unexpected var, use let or const instead", "no-var"),
    ("server.js", "6:5", "error", "'started' is assigned a value but never used", "no-unused-vars"),
    ("server.js", "6:5", "error", "'started' is never reassigned. Use 'const' instead", "prefer-const"),
    ("server.js", "9:15", "warning", "Expected '===' and instead saw '=='", "eqeqeq"),
    ("server.js", "9:29", "warning", "Expected { after 'if' condition", "curly"),
    ("server.js", "10:3", "warning", "Unexpected console statement", "no-console"),
]
ESLINT_FACTS = [
    "/tmp/sqz-capture/compilers/eslintproj/src/router.js", "/tmp/sqz-capture/compilers/eslintproj/src/server.js",
    "/tmp/sqz-capture/compilers/eslintproj/src/store.js", ["3:27", "error", "Parsing error: Argument name clash"],
    "✖ 12 problems (7 errors, 5 warnings)", "2 errors and 2 warnings potentially fixable with the `--fix` option.",
] + [[loc, sev, msg, rule] for _, loc, sev, msg, rule in ESLINT_PROBLEMS]


# ---------------------------------------------------------------- C (gcc)

C_PROJECT = {
    "src/list.h": "#ifndef LIST_H\n#define LIST_H\nstruct node { int value; struct node *next; };\n"
                  "struct node *push(struct node *head, int value);\nint length(const struct node *head);\n#endif\n",
    "src/list.c": '''#include <stdlib.h>
#include "list.h"

struct node *push(struct node *head, int value) {
    struct node *n = malloc(sizeof *n);
    n->value = value;
    n->nxt = head;
    return n;
}

int length(const struct node *head) {
    int count;
    while (head) { count++; head = head->next; }
}
''',
    "src/main.c": '''#include <stdio.h>
#include "list.h"

int main(int argc, char **argv) {
    struct node *list = NULL;
    for (int i = 0; i < 3; i++)
        list = push(list, i);
    printf("%d items, first %s\\n", length(list), list->value);
    unsigned int n = -1;
    if (n < 0) puts("negative");
    char buf[4];
    sprintf(buf, "%d", 12345);
    return free_list(list)
}
''',
    "src/stats.c": '''#include "list.h"

double mean(const struct node *head) {
    int sum = 0, n = 0, unused;
    for (; head; head = head->next) { sum += head->value; n++; }
    return sum / n;
}

int max(const struct node *head) {
    int best;
    for (; head; head = head->next)
        if (head->value > best) best = head->value;
    return best;
}
''',
}


def capture_cc() -> None:
    proj = write_tree(ROOT / "cproj", C_PROJECT)
    gv = version("gcc --version")
    capture("cc", "multi_file", "gcc -Wall -Wextra -O2 -c src/list.c src/main.c src/stats.c", proj, gv, CC_FACTS,
            dropped=CC_DROPPED, expect_exit=1)


CC_DIAGS = [  # (file, line:col, severity, message) as gcc printed them
    ("src/list.c", "7:8", "error", "‘struct node’ has no member named ‘nxt’; did you mean ‘next’?"),
    ("src/list.c", "14:1", "warning", "control reaches end of non-void function [-Wreturn-type]"),
    ("src/main.c", "8:30", "warning", ("format ‘%s’ expects argument of type ‘char *’, but argument 3 has type ‘int’"
     " [-Wformat=]")),
    ("src/main.c", "10:11", "warning", "comparison of unsigned expression in ‘< 0’ is always false [-Wtype-limits]"),
    ("src/main.c", "13:12", "warning", "implicit declaration of function ‘free_list’ [-Wimplicit-function-declaration]"),
    ("src/main.c", "13:27", "error", "expected ‘;’ before ‘}’ token"),
    ("src/main.c", "4:14", "warning", "unused parameter ‘argc’ [-Wunused-parameter]"),
    ("src/main.c", "4:27", "warning", "unused parameter ‘argv’ [-Wunused-parameter]"),
    ("src/stats.c", "4:25", "warning", "unused variable ‘unused’ [-Wunused-variable]"),
    ("src/stats.c", "13:12", "warning", "‘best’ may be used uninitialized [-Wmaybe-uninitialized]"),
    ("src/stats.c", "10:9", "note", "‘best’ was declared here"),
]
CC_FACTS = ["src/list.c", "src/main.c", "src/stats.c", "In function ‘push’", "In function ‘length’",
            "In function ‘main’", "In function ‘mean’", "In function ‘max’"] + [
    f"{loc}: {sev}: {msg}" for _, loc, sev, msg in CC_DIAGS]
CC_DROPPED = ["    4 |     int sum = 0, n = 0, unused;", "      |                         ^~~~~~"]


# ---------------------------------------------------------------- Rust (cargo build)

RUST_PROJECT = {
    "Cargo.toml": '[package]\nname = "ledger"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n',
    "src/main.rs": '''mod account;
mod parse;

use account::Account;

fn main() {
    let mut acct = Account::new("alice");
    acct.deposit("100");
    let total: i32 = parse::amounts("1,2,3").iter().sum();
    println!("{} {}", acct.name, totl);
}
''',
    "src/account.rs": '''pub struct Account {
    pub name: String,
    balance: u64,
}

impl Account {
    pub fn new(name: &str) -> Account {
        Account { name, balance: 0 }
    }

    pub fn deposit(&mut self, amount: u64) {
        let fee = 1;
        self.balance += amount;
    }

    pub fn withdraw(&self, amount: u64) -> Result<u64, String> {
        self.balance -= amount;
        Ok(self.balance)
    }
}
''',
    "src/parse.rs": '''pub fn amounts(text: &str) -> Vec<u64> {
    text.split(',').map(|s| s.parse().unwrap()).collect::<Vec<i64>>()
}

pub fn unused_helper(x: u32) -> u32 {
    let y = x;
    x
}
''',
}


def capture_cargo() -> None:
    proj = write_tree(ROOT / "rustproj", RUST_PROJECT)
    cv = version("cargo --version") + "; " + version("rustc --version")
    capture("cargo", "build_multi_file", "cargo build", proj, cv, CARGO_FACTS, dropped=CARGO_DROPPED, expect_exit=101)
    rv = version("rustc --version")
    capture("rustc", "multi_file", "rustc --edition 2021 --crate-type bin -o /tmp/sqz-capture/ledger src/main.rs", proj,
            rv, RUSTC_FACTS, dropped=RUSTC_DROPPED, expect_exit=1)


RUST_SPANS = {"spans.rs": """fn label(n: u32) -> &'static str {
    match n {
        0 => "zero",
        1 => 1,
        _ => "many",
    }
}

fn total(items: &[u32]) -> u32 {
    items
        .iter()
        .map(|x| x * 2)
        .collect::<Vec<u32>>()
}

fn main() {
    let names: String = vec![
        label(0),
        label(1),
    ];
    println!("{} {}", names, total(&[1, 2]));
}
"""}


def capture_rustc_spans() -> None:
    """rustc errors whose spans cover several lines (drawn with `/`, `|` and `|____^`)."""
    proj = write_tree(ROOT / "rustspans", RUST_SPANS)
    capture("rustc", "multiline_spans", "rustc --edition 2021 -o /tmp/sqz-capture/spans spans.rs", proj,
            version("rustc --version"), [
                "error[E0308]: `match` arms have incompatible types", " --> spans.rs:4:14",
                "this is found to be of type `&'static str`", "expected `&str`, found integer",
                "`match` arms have incompatible types", "  --> spans.rs:10:5",
                "expected `u32` because of return type", "expected `u32`, found `Vec<u32>`",
                "  --> spans.rs:17:25", "expected due to this", "expected `String`, found `Vec<&str>`",
                "error: aborting due to 3 previous errors",
            ], dropped=["10 | /     items", "   | |_____^"], expect_exit=1)


CARGO_FACTS = [
    "error[E0425]: cannot find value `totl` in this scope", "src/main.rs:10:34",
    "error[E0308]: mismatched types", "src/account.rs:8:19", "expected `String`, found `&str`",
    "src/parse.rs:2:5", "expected `Vec<u64>`, found `Vec<i64>`", "expected `Vec<u64>` because of return type",
    "src/main.rs:8:18", "expected `u64`, found `&str`",
    "error[E0277]: a value of type `i32` cannot be made by summing an iterator over elements of type `&u64`",
    "src/main.rs:9:53", "the trait `Sum<&u64>` is not implemented for `i32`",
    "warning: unused variable: `fee`", "src/account.rs:12:13",
    "error[E0594]: cannot assign to `self.balance`, which is behind a `&` reference", "src/account.rs:17:9",
    "`self` is a `&` reference, so it cannot be written to",
    "warning: unused variable: `y`", "src/parse.rs:6:9",
    "Some errors have detailed explanations: E0277, E0308, E0425, E0594.",
    "warning: `ledger` (bin \"ledger\") generated 2 warnings",
    "error: could not compile `ledger` (bin \"ledger\") due to 6 previous errors; 2 warnings emitted",
]
CARGO_DROPPED = ["   Compiling ledger v0.1.0"]
RUSTC_FACTS = [f for f in CARGO_FACTS if not f.startswith(("warning: `ledger`", "error: could not compile"))] + [
    "error: aborting due to 6 previous errors; 2 warnings emitted",
]
RUSTC_DROPPED = ["10 |     println!(\"{} {}\", acct.name, totl);", "   |                                  ^^^^"]



# ---------------------------------------------------------------- npm install

def capture_npm() -> None:
    proj = ROOT / "npminst"
    shutil.rmtree(proj, ignore_errors=True)
    proj.mkdir(parents=True)
    (proj / "package.json").write_text('{"name": "probe", "version": "1.0.0", "private": true}\n')
    nv = "npm " + version("npm --version") + "; node " + version("node --version")
    note = ("the registry mirror used here sends no deprecation notices or funding data, so no "
            "`npm warn deprecated` or funding lines could be captured")
    capture("npm", "install_eresolve", "npm install react@18 react-dom@17", proj, nv, NPM_ERESOLVE_FACTS,
            notes=note, expect_exit=1, package_manager=True)
    capture("npm", "install_force_peer", "npm install --force react@18 react-dom@17", proj, nv, NPM_FORCE_FACTS,
            notes=note, expect_exit=0, package_manager=True)


NPM_ERESOLVE_FACTS = [
    ["code", "ERESOLVE"], "ERESOLVE unable to resolve dependency tree", "While resolving: probe@1.0.0",
    "Found: react@18.3.1", 'react@"18" from the root project', 'peer react@"17.0.2" from react-dom@17.0.2',
    'react-dom@"17" from the root project',
    ("Fix the upstream dependency conflict, or retry this command with --force or --legacy-peer-deps to accept an "
    "incorrect (and potentially broken) dependency resolution."),
    "For a full report see:", "-eresolve-report.txt", "A complete log of this run can be found in:",
]
NPM_FORCE_FACTS = [
    "using --force Recommended protections disabled.", "ERESOLVE overriding peer dependency",
    "While resolving: react-dom@17.0.2", "Found: react@18.3.1", 'peer react@"17.0.2" from react-dom@17.0.2',
    "Conflicting peer dependency: react@17.0.2", "added 6 packages",
]



# ---------------------------------------------------------------- npm install from a local registry
# The registry mirror of this machine sends no deprecation notices, funding data or audit
# advisories. A small registry on 127.0.0.1 serves packages made here (real tarballs,
# packuments with `deprecated`, package.json with `funding`, one audit advisory), so the real
# npm prints its real deprecation wall, funding notice and audit summary for them.

REGISTRY_PORT = 48731
_DEP = {"inflight": "This module is not supported, and leaks memory. Do not use it. Check out lru-cache if you want a "
                    "good and tested way to coalesce async requests by a key value, which is much more comprehensive "
                    "and powerful.",
        "glob": "Glob versions prior to v9 are no longer supported",
        "rimraf": "Rimraf versions prior to v4 are no longer supported",
        "npmlog": "This package is no longer supported."}
# name: {version: (dependencies, deprecation message or None, funding URL or None)}
REGISTRY = {
    "webkit-app": {"1.0.0": ({"lib-inflight": "^1.0.0", "lib-glob": "^7.0.0", "lib-rimraf": "^3.0.0",
                              "lib-old-cli": "^2.0.0", "lib-fund-a": "^1.0.0", "lib-fund-b": "^1.0.0",
                              "lib-util": "^1.0.0"}, None, None)},
    "lib-inflight": {"1.0.6": ({}, _DEP["inflight"], None)},
    "lib-glob": {"7.2.3": ({"lib-inflight": "^1.0.0"}, _DEP["glob"], None),
                 "6.0.4": ({"lib-inflight": "^1.0.0"}, _DEP["glob"], None)},
    "lib-rimraf": {"3.0.2": ({"lib-glob": "^7.1.3"}, _DEP["rimraf"], None),
                   "2.7.1": ({"lib-glob": "^6.0.1"}, _DEP["rimraf"], None)},
    "lib-old-cli": {"2.0.0": ({"lib-rimraf": "^2.6.0", "lib-glob": "^6.0.0", "lib-npmlog": "^6.0.0"}, None,
                              "https://example.org/sponsor/old-cli")},
    "lib-npmlog": {"6.0.2": ({}, _DEP["npmlog"], None)},
    "lib-fund-a": {"1.0.0": ({}, None, "https://example.org/sponsor/a")},
    "lib-fund-b": {"1.0.0": ({}, None, "https://example.org/sponsor/b")},
    "lib-util": {"1.0.0": ({}, None, None)},
}
ADVISORY = {"lib-glob": [{"id": 1001, "url": "https://example.org/advisories/1001", "severity": "high",
                          "title": "Regular expression denial of service in lib-glob",
                          "vulnerable_versions": "<8.0.0", "cwe": ["CWE-1333"],
                          "cvss": {"score": 7.5, "vectorString": None}}]}


def start_registry():
    """Serve REGISTRY on 127.0.0.1:REGISTRY_PORT in a thread; returns the server (call .shutdown())."""
    import base64
    import hashlib
    import io
    import json
    import tarfile
    import threading
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    base = f"http://127.0.0.1:{REGISTRY_PORT}"
    tars: dict[str, bytes] = {}
    docs: dict[str, dict] = {}
    for name, versions in REGISTRY.items():
        vers = {}
        for ver, (deps, deprecated, funding) in versions.items():
            pj = {"name": name, "version": ver, "dependencies": deps}
            if funding:
                pj["funding"] = funding
            data = json.dumps(pj).encode()
            buf = io.BytesIO()
            with tarfile.open(fileobj=buf, mode="w:gz") as t:
                info = tarfile.TarInfo("package/package.json")
                info.size, info.mtime = len(data), 0
                t.addfile(info, io.BytesIO(data))
            tb = buf.getvalue()
            path = f"/{name}/-/{name}-{ver}.tgz"
            tars[path] = tb
            v = dict(pj, dist={"tarball": base + path, "shasum": hashlib.sha1(tb).hexdigest(),
                               "integrity": "sha512-" + base64.b64encode(hashlib.sha512(tb).digest()).decode()})
            if deprecated:
                v["deprecated"] = deprecated
            vers[ver] = v
        docs[name] = {"name": name, "dist-tags": {"latest": max(vers)}, "versions": vers}

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def reply(self, code: int, body: bytes, ctype: str = "application/json") -> None:
            self.send_response(code)
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def do_GET(self):
            path = self.path.split("?")[0]
            if path in tars:
                return self.reply(200, tars[path], "application/octet-stream")
            name = path.lstrip("/")
            if name in docs:
                return self.reply(200, json.dumps(docs[name]).encode())
            return self.reply(404, b'{"error":"not found"}')

        def do_POST(self):
            self.rfile.read(int(self.headers.get("Content-Length", 0)))
            if "advisories/bulk" in self.path:
                return self.reply(200, json.dumps(ADVISORY).encode())
            return self.reply(404, b"{}")

    server = ThreadingHTTPServer(("127.0.0.1", REGISTRY_PORT), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def capture_npm_registry() -> None:
    proj = ROOT / "npmlocal"
    shutil.rmtree(proj, ignore_errors=True)
    shutil.rmtree(TOOLBOX / "npm-cache", ignore_errors=True)
    proj.mkdir(parents=True)
    (proj / "package.json").write_text('{"name": "demo", "version": "1.0.0", "private": true}\n')
    nv = "npm " + version("npm --version") + "; node " + version("node --version")
    server = start_registry()
    try:
        capture("npm", "install_deprecations_audit",
                f"npm install --audit --fund --registry=http://127.0.0.1:{REGISTRY_PORT}/ "
                f"--cache {TOOLBOX}/npm-cache webkit-app", proj, nv, NPM_LOCAL_FACTS, dropped=NPM_LOCAL_DROPPED,
                expect_exit=0,
                notes=f"packages served by a registry on 127.0.0.1:{REGISTRY_PORT} started by the script (REGISTRY:"
                      " deprecations, funding fields and one audit advisory made here); --audit/--fund passed "
                      "because this machine's npm config turns both off")
    finally:
        server.shutdown()


NPM_LOCAL_FACTS = [
    ["lib-rimraf@3.0.2", "Rimraf versions prior to v4 are no longer supported"],
    ["lib-rimraf@2.7.1", "Rimraf versions prior to v4 are no longer supported"],
    ["lib-glob@7.2.3", "Glob versions prior to v9 are no longer supported"],
    ["lib-glob@6.0.4", "Glob versions prior to v9 are no longer supported"],
    ["lib-npmlog@6.0.2", "This package is no longer supported."],
    ["lib-inflight@1.0.6", _DEP["inflight"]],
    "added 11 packages, and audited 12 packages", "4 high severity vulnerabilities",
    "Run `npm audit` for details.",
]
NPM_LOCAL_DROPPED = ["  run `npm fund` for details"]


# ---------------------------------------------------------------- pip install

def capture_pip() -> None:
    proj = ROOT / "pipinst"
    shutil.rmtree(proj, ignore_errors=True)
    proj.mkdir(parents=True)
    subprocess.run([sys.executable, "-m", "venv", str(proj / "venv")], check=True)
    (proj / "requirements.txt").write_text("requests==2.32.3\nflask\nrich\n")
    pip = "venv/bin/pip"
    pv = run(f"{pip} --version", proj)[0].decode().split(" from ")[0]
    capture("pip", "install_requirements", f"{pip} install -r requirements.txt", proj, pv, PIP_FRESH_FACTS,
            dropped=PIP_FRESH_DROPPED, expect_exit=0, package_manager=True,
            notes="not a terminal: pip 23 draws its download bars anyway")
    (proj / "requirements.txt").write_text("requests==2.32.3\nflask\nrich\nsix\n")
    capture("pip", "install_requirements_again", f"{pip} install -r requirements.txt", proj, pv, PIP_AGAIN_FACTS,
            dropped=PIP_AGAIN_DROPPED, expect_exit=0, package_manager=True,
            notes="the same requirements plus six: every other requirement already satisfied")


FASTCALC_SETUP = """from setuptools import setup, Extension

setup(
    name="fastcalc",
    version="0.1.0",
    ext_modules=[Extension("fastcalc", sources=["fastcalc.c"])],
)
"""
FASTCALC_C = """#include <Python.h>
#include "missing_header.h"

static PyObject *add(PyObject *self, PyObject *args) {
    long a, b;
    if (!PyArg_ParseTuple(args, "ll", &a, &b)) return NULL;
    return PyLong_FromLong(a + b);
}
"""


def capture_pip_build() -> None:
    """A local package whose C extension does not compile: pip's boxed build-backend output."""
    proj = ROOT / "pipbuild"
    shutil.rmtree(proj, ignore_errors=True)
    (proj / "fastcalc").mkdir(parents=True)
    (proj / "fastcalc" / "setup.py").write_text(FASTCALC_SETUP)
    (proj / "fastcalc" / "fastcalc.c").write_text(FASTCALC_C)
    subprocess.run([sys.executable, "-m", "venv", str(proj / "venv")], check=True)
    subprocess.run([str(proj / "venv" / "bin" / "pip"), "install", "-q", "setuptools", "wheel"], check=True)
    pip = "venv/bin/pip"
    pv = run(f"{pip} --version", proj)[0].decode().split(" from ")[0]
    sv = run("venv/bin/python -c 'import setuptools, wheel; print(setuptools.__version__, wheel.__version__)'",
             proj)[0].decode().split()
    capture("pip", "install_build_error", f"{pip} install --no-build-isolation ./fastcalc", proj,
            f"{pv}; setuptools {sv[0]}; wheel {sv[1]}; {version('gcc --version')}", [
                "fastcalc.c:2:10: fatal error: missing_header.h: No such file or directory",
                "error: command '/usr/bin/gcc' failed with exit code 1",
                "× python setup.py bdist_wheel did not run successfully.", "exit code: 1",
                "ERROR: Failed building wheel for fastcalc", "Failed to build fastcalc",
                "ERROR: Could not build wheels for fastcalc, which is required to install pyproject.toml-based projects",
            ], dropped=["running build_ext", "creating build/temp.linux-x86_64-cpython-311"],
            expect_exit=1, package_manager=True,
            notes="a local package (setup.py with a C extension including a missing header), built without "
                  "isolation: the backend's output sits in pip's box")


PIP_FRESH_FACTS = [
    ("Successfully installed blinker-1.9.0 certifi-2026.10.19.post1 charset-normalizer-3.5.3 click-8.5.1 flask-3.1.3 "
    "idna-3.20 itsdangerous-2.2.0 jinja2-3.1.6 markdown-it-py-4.3.0 markupsafe-3.0.4 mdurl-0.1.2 pygments-2.21.0 "
    "requests-2.32.3 rich-15.0.0 urllib3-2.8.0 werkzeug-3.1.9"),
]
PIP_FRESH_DROPPED = ["  Downloading requests-2.32.3-py3-none-any.whl (64 kB)", "━━━━━━━━━━",
                     "WARNING: Location 'file:///pkgs.example.org/simple/flask/' is ignored"]
PIP_AGAIN_FACTS = [
    ["requests==2.32.3", "(2.32.3)"], ["flask", "(3.1.3)"], ["rich", "(15.0.0)"],
    "Successfully installed six-1.17.0",
]
PIP_AGAIN_DROPPED = ["Requirement already satisfied: charset-normalizer<4,>=2 in ./venv/lib/python3.11/site-packages",
                     "Looking in indexes: "]


def main(argv: list[str]) -> int:
    ROOT.mkdir(parents=True, exist_ok=True)
    ensure_tools()
    families = {"tsc": capture_tsc, "mypy": capture_mypy, "ruff": capture_ruff, "eslint": capture_eslint,
                "cc": capture_cc, "cargo": capture_cargo, "rustc": capture_cargo, "npm": capture_npm, "npmreg": capture_npm_registry,
                "pip": capture_pip, "pipbuild": capture_pip_build, "rustspans": capture_rustc_spans}
    for fam in argv or list(families):
        families[fam]()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
