"""Held-out pass #2 for dense diagnostics: type checkers, linters and compilers on real package sources.

Captures ``h2_*`` fixtures of mypy, ruff, tsc, eslint, pylint, flake8, gcc and clang run over the
sources of real packages (click 7.1.2, sortedcontainers, colorama, cachetools, iniconfig, tomli_w from
PyPI; rxjs 7, zod 3, async, underscore from npm; the C extensions of simplejson and bitarray from their
PyPI sdists), copied into /tmp/sqz-capture/h2diag so every path in the output is short and stable; and
rustc / clippy-driver on crates Debian ships as source (/usr/share/cargo/registry: humantime, memchr, either).

Tools: mypy and ruff from the venv of ``capture_python_js.py`` (/tmp/sqz-pyjs-tools/venv), tsc and
eslint from its npm tools (/tmp/sqz-pyjs-tools/js); pylint and flake8 in /tmp/sqz-h2diag-tools/venv;
the npm and C sources are fetched into /tmp/sqz-h2diag-tools. gcc/clang are the system's.

Facts are picked from the RAW output by :func:`pick_facts`, a parser of each tool's own line shape
written here (not sqz's): an even sample of at most ``SAMPLE`` diagnostics spread over the output, each
as its file with the location, severity or code and message (``{"under": path, "line": [...]}``),
plus every summary count line. Each fact is checked against the raw text before the fixture is saved.

Run: ``python scripts/capture_diagnostics_h2.py [family ...]`` (families: mypy ruff tsc eslint pylint
flake8 cc rustc).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tarfile
from pathlib import Path

from _capture_common import ANSI_CSI, run_families, run_merged, write_fixture

from sqz_testing import fact_kept, redact_registries

ROOT = Path("/tmp/sqz-capture/h2diag")
TOOLBOX = Path("/tmp/sqz-h2diag-tools")
PYJS = Path("/tmp/sqz-pyjs-tools")
HELDOUT_SITE = PYJS / "venv-heldout" / "lib" / "python3.11" / "site-packages"
CLICK_SDIST = Path("/tmp/sqz-capture/sdists/click-7.1.2.tar.gz")
SAMPLE = 24

ESLINT_CONFIG = """import js from "@eslint/js";
export default [
  js.configs.recommended,
  { files: ["asyncjs/**/*.js"], languageOptions: { sourceType: "commonjs", ecmaVersion: 2022 } },
  { files: ["underscore/**/*.js"], languageOptions: { sourceType: "module", ecmaVersion: 2022 } },
];
"""


def sh(cmd: str, cwd: Path = TOOLBOX) -> None:
    subprocess.run(["bash", "-c", cmd], cwd=cwd, check=True)


def ensure_sources() -> None:
    """The tools and the real sources, fetched once; the project tree laid anew each run."""
    TOOLBOX.mkdir(parents=True, exist_ok=True)
    if not (TOOLBOX / "venv" / "bin" / "pylint").exists():
        sh(f"{sys.executable} -m venv venv && venv/bin/pip install -q pylint flake8")
    if not (TOOLBOX / "js" / "node_modules" / "rxjs").exists():
        (TOOLBOX / "js").mkdir(exist_ok=True)
        sh("npm init -y >/dev/null && npm install --no-audit --no-fund rxjs@7 zod@3 underscore async", TOOLBOX / "js")
    sd = TOOLBOX / "sdist"
    if not any(sd.glob("bitarray-*.tar.gz")):
        sd.mkdir(exist_ok=True)
        sh("../venv/bin/pip download -q --no-deps --no-binary :all: simplejson bitarray", sd)
    if ROOT.exists():
        shutil.rmtree(ROOT)
    ROOT.mkdir(parents=True)
    nm = TOOLBOX / "js" / "node_modules"
    shutil.copytree(nm / "rxjs" / "src", ROOT / "rxjs")
    shutil.copytree(nm / "zod" / "src" / "v3", ROOT / "zod")
    shutil.copytree(nm / "underscore" / "modules", ROOT / "underscore")
    (ROOT / "asyncjs").mkdir()
    for f in (nm / "async").glob("*.js"):
        shutil.copy(f, ROOT / "asyncjs" / f.name)
    shutil.copytree(nm / "async" / "internal", ROOT / "asyncjs" / "internal")
    with tarfile.open(CLICK_SDIST) as t:
        t.extractall(ROOT / "_click", filter="data")
    shutil.move(ROOT / "_click" / "click-7.1.2" / "src" / "click", ROOT / "click7")
    shutil.rmtree(ROOT / "_click")
    for pkg in ("sortedcontainers", "cachetools", "colorama", "iniconfig", "tomli_w"):
        shutil.copytree(HELDOUT_SITE / pkg, ROOT / pkg, ignore=shutil.ignore_patterns("__pycache__"))
    for name, dest, sub in (("simplejson", "csimplejson", "simplejson"), ("bitarray", "cbitarray", "bitarray")):
        tgz = max(sd.glob(f"{name}-*.tar.gz"))
        with tarfile.open(tgz) as t:
            t.extractall(ROOT / "_c", filter="data")
        top = next((ROOT / "_c").iterdir())
        shutil.move(top / sub, ROOT / dest)
        shutil.rmtree(ROOT / "_c")
    (ROOT / "pyinclude").symlink_to(sysconfig.get_paths()["include"])
    (ROOT / "node_modules").symlink_to(PYJS / "js" / "node_modules")
    (ROOT / "eslint.config.mjs").write_text(ESLINT_CONFIG)


def env() -> dict:
    e = dict(os.environ)
    e["PATH"] = os.pathsep.join([str(PYJS / "venv" / "bin"), str(TOOLBOX / "venv" / "bin"),
                                 str(PYJS / "js" / "node_modules" / ".bin"), e["PATH"]])
    for k in ("CI", "FORCE_COLOR", "NO_COLOR", "VIRTUAL_ENV", "MYPY_FORCE_COLOR"):
        e.pop(k, None)
    e.update(LANG="C.UTF-8", LC_ALL="C.UTF-8", TERM="dumb", COLUMNS="100")
    e["XDG_CACHE_HOME"] = str(ROOT / ".cache")  # pylint keeps no stats of a previous run (laid anew each run)
    return e


def version(cmd: str) -> str:
    out, _ = run_merged(cmd, ROOT, env(), 120)
    return out.decode().strip().splitlines()[0]


# ---- fact pickers: each tool's own line shape, independent of sqz's parsers -------------------

_MYPY = re.compile(r"^(?P<path>[^\s:]+\.pyi?):(?P<loc>\d+(?::\d+)?): (?P<sev>error|note): (?P<msg>.*?)"
                   r"(?:  (?P<code>\[[a-z-]+\]))?$")
_MYPY_SUM = re.compile(r"^(?:Found \d+ errors? in \d+ files? \(checked \d+ source files?\)|Success: .*)$")
_TSC = re.compile(r"^(?P<path>\S+?)\((?P<loc>\d+,\d+)\): (?P<sev>error|warning) (?P<code>TS\d+): (?P<msg>.*)$")
_TSC_PRETTY = re.compile(r"^(?P<path>\S+?):(?P<loc>\d+:\d+) - (?P<sev>error|warning) (?P<code>TS\d+): (?P<msg>.*)$")
_TSC_SUM = re.compile(r"^Found \d+ errors?.*$")
_CONCISE = re.compile(r"^(?P<path>[^\s:]+):(?P<loc>\d+:\d+): (?P<code>[A-Z]+\d+) (?P<msg>.*)$")
_RUFF_HEAD = re.compile(r"^(?P<code>[A-Z]+\d+) (?P<msg>.*)$")
_RUFF_ARROW = re.compile(r"^ *--> (?P<loc>\S+:\d+:\d+)$")
_RUFF_SUM = re.compile(r"^(?:Found \d+ errors?\.|\[\*\] \d+ fixable.*|No fixes available.*|\d+ hidden fix.*)$")
_ESLINT_FILE = re.compile(r"^/\S+$")
_ESLINT = re.compile(r"^\s+(?P<loc>\d+:\d+)\s+(?P<sev>error|warning)\s+(?P<msg>.*?)\s{2,}(?P<code>\S+)$")
_ESLINT_SUM = re.compile(r"^(?:✖ \d+ problems? .*|\s+\d+ errors? and \d+ warnings? potentially fixable.*)$")
_PYLINT = re.compile(r"^(?P<path>[^\s:]+\.py):(?P<loc>\d+:\d+): (?P<code>[CRWEFI]\d{4}): (?P<msg>.*) "
                     r"(?P<sym>\([a-z0-9-]+\))$")
_PYLINT_SUM = re.compile(r"^(?:Your code has been rated at .*|\*{13} Module \S+)$")
_CC = re.compile(r"^(?P<path>[^\s:]+\.[ch]):(?P<loc>\d+:\d+): (?P<sev>warning|error|note): (?P<msg>.*?)"
                 r"(?: (?P<code>\[-W[^\]]+\]))?$")
_CC_CONTEXT = re.compile(r"^(?P<path>[^\s:]+\.[ch]): (?P<msg>In (?:function|member function) .*:)$")
_CC_SUM = re.compile(r"^\d+ (?:warnings?|errors?)(?: and \d+ errors?)? generated\.$")


def _diag_facts(plain: str, head: re.Pattern, summary: re.Pattern | None, sample: int, *,
                eslint: bool = False, ruff_full: bool = False, extra: re.Pattern | None = None) -> list:
    lines = plain.splitlines()
    diags: list = []
    sums: list[str] = []
    path = None
    for i, line in enumerate(lines):
        if summary is not None and summary.match(line):
            sums.append(line.strip())
            continue
        if eslint and _ESLINT_FILE.match(line):
            path = line
            continue
        if ruff_full:
            m = _RUFF_HEAD.match(line)
            a = _RUFF_ARROW.match(lines[i + 1]) if m and i + 1 < len(lines) else None
            if a:
                diags.append({"under": line, "line": a.group("loc")})
            continue
        m = head.match(line)
        if m:
            g = m.groupdict()
            loc = f"({g['loc']})" if head is _TSC else g["loc"]
            sev_msg = f"{g['sev']}: {g['msg']}" if g.get("sev") and head in (_MYPY, _CC) else g["msg"]
            parts = [loc] + ([g["sev"]] if eslint else []) + [sev_msg]
            if g.get("code"):
                parts.append(g["code"])
            if g.get("sym"):
                parts.append(g["sym"])
            diags.append({"under": path if eslint else g["path"], "line": parts})
        elif extra is not None and extra.match(line):
            m = extra.match(line)
            diags.append({"under": m.group("path"), "line": m.group("msg")})
    if len(diags) > sample:
        step = (len(diags) - 1) / (sample - 1)
        diags = [diags[round(k * step)] for k in range(sample)]
    out: list = []
    for f in diags + sums:
        if f not in out:
            out.append(f)
    return out


def _tsc_more(plain: str, n: int = 4) -> list:
    """A few of tsc's elaboration lines (indented under a diagnostic), spread over the output."""
    more = [x.strip() for x in plain.splitlines() if x.startswith("  ") and x.strip() and not x.lstrip()[:1].isdigit()]
    if len(more) > n:
        more = [more[round(k * (len(more) - 1) / (n - 1))] for k in range(n)]
    return list(dict.fromkeys(more))


def record(family: str, name: str, cmd: str, produced_by: str, pick, notes: str = "", copy=None) -> None:
    if copy is not None:  # a fresh copy of a source tree (``(from, to under ROOT)``) to run in
        dest = ROOT / copy[1]
        if dest.exists():
            shutil.rmtree(dest)
        shutil.copytree(copy[0], dest)
        (ROOT / "_rs").mkdir(exist_ok=True)
    raw, rc = run_merged(cmd, ROOT, env(), 900)
    raw = redact_registries(raw.decode("utf-8", "surrogateescape")).encode("utf-8", "surrogateescape")
    plain = ANSI_CSI.sub("", raw.decode("utf-8", "surrogateescape"))
    facts = pick(plain)
    if not facts:
        raise SystemExit(f"{family}/{name}: no facts picked\n{plain[-3000:]}")
    lost = [f for f in facts if not fact_kept(plain, f)]
    if lost:
        raise SystemExit(f"{family}/{name}: facts not in the raw output: {lost[:5]}")
    write_fixture(family, name, raw, {
        "command": cmd,
        "produced_by": produced_by,
        "exit_code": rc,
        "facts": facts,
        "dropped": [],
        "notes": (f"captured in {ROOT} by scripts/capture_diagnostics_h2.py; stdout+stderr merged; facts: an even "
                  f"sample of at most {SAMPLE} diagnostics (file, location, severity/code, message) and every "
                  "summary line, picked from the raw output by the script's own parser"
                  + (f"; {notes}" if notes else "")),
    })
    print(f"captured {family}/{name}: exit {rc}, {len(raw)} bytes, {len(facts)} facts")


def mypy() -> None:
    v = version("mypy --version")

    def pick(p):
        return _diag_facts(p, _MYPY, _MYPY_SUM, SAMPLE, extra=re.compile(r"^(?P<path>[^\s:]+\.py): (?P<msg>note: In .*)$"))
    src = "source: click 7.1.2 (PyPI sdist)"
    record("mypy", "h2_strict_click7", "mypy --strict --follow-imports=silent click7", v, pick, src)
    record("mypy", "h2_strict_click7_core", "mypy --strict --follow-imports=silent click7/core.py click7/parser.py "
           "click7/formatting.py click7/utils.py", v, pick, src)
    record("mypy", "h2_strict_sortedcontainers", "mypy --strict sortedcontainers", v, pick,
           "source: sortedcontainers 2.4.0 as installed")
    record("mypy", "h2_context_colorama", "mypy --strict --show-column-numbers --show-error-context colorama", v,
           pick, "source: colorama 0.4.6 as installed")
    record("mypy", "h2_untyped_cachetools", "mypy --check-untyped-defs cachetools", v, pick,
           "source: cachetools 8.0.2 as installed")
    record("mypy", "h2_links_small", "mypy --strict --show-error-code-links --show-column-numbers iniconfig tomli_w",
           v, pick, "source: iniconfig 2.3.1 and tomli_w 1.2.0 as installed")


def ruff() -> None:
    v = version("ruff --version")

    def concise(p):
        return _diag_facts(p, _CONCISE, _RUFF_SUM, SAMPLE)

    def full(p):
        return _diag_facts(p, _CONCISE, _RUFF_SUM, SAMPLE, ruff_full=True)
    record("ruff", "h2_all_concise_click7", "ruff check --select ALL --output-format concise click7/core.py "
           "click7/termui.py", v, concise, "source: click 7.1.2 (PyPI sdist)")
    record("ruff", "h2_rules_concise_click7", "ruff check --select E,F,W,B,UP,SIM --output-format concise click7",
           v, concise, "source: click 7.1.2 (PyPI sdist)")
    record("ruff", "h2_all_concise_iniconfig", "ruff check --select ALL --output-format concise iniconfig", v,
           concise, "source: iniconfig 2.3.1 as installed")
    record("ruff", "h2_all_full_sortedset", "ruff check --select ALL sortedcontainers/sortedset.py", v, full,
           "source: sortedcontainers 2.4.0 as installed")
    record("ruff", "h2_default_full", "ruff check cachetools colorama", v, full,
           "source: cachetools 8.0.2 and colorama 0.4.6 as installed")


TSC = "tsc --noEmit --strict --target es2022 --module preserve --moduleResolution bundler"


def tsc() -> None:
    v = version("tsc -v")

    def plain(p):
        return _diag_facts(p, _TSC, _TSC_SUM, SAMPLE) + _tsc_more(p)

    def pretty(p):
        return _diag_facts(p, _TSC_PRETTY, _TSC_SUM, SAMPLE)
    rx = "source: rxjs 7 src/ (npm package)"
    strictest = "--noUnusedLocals --noUnusedParameters --noImplicitReturns --noUncheckedIndexedAccess --exactOptionalPropertyTypes"
    record("tsc", "h2_rxjs_strictest", f"{TSC} --lib es2022,dom {strictest} rxjs/index.ts", v, plain, rx)
    record("tsc", "h2_rxjs_strictest_pretty", f"{TSC} --lib es2022,dom {strictest} --pretty rxjs/index.ts", v,
           pretty, rx)
    record("tsc", "h2_rxjs_override", f"{TSC} --lib es2022,dom --noPropertyAccessFromIndexSignature "
           "--noImplicitOverride rxjs/index.ts", v, plain, rx)
    record("tsc", "h2_rxjs_unchecked_ops", f"{TSC} --lib es2022,dom --noUncheckedIndexedAccess rxjs/operators/index.ts",
           v, plain, rx)
    record("tsc", "h2_zod_nodom", f"{TSC} --lib es2022 --exactOptionalPropertyTypes --noUncheckedIndexedAccess "
           "--noPropertyAccessFromIndexSignature zod/index.ts", v, plain, "source: zod 3 src/v3 (npm package)")


def eslint() -> None:
    v = "eslint " + version("eslint -v")

    def pick(p):
        return _diag_facts(p, _ESLINT, _ESLINT_SUM, SAMPLE, eslint=True)
    cfg = "config: eslint.config.mjs = @eslint/js recommended (commonjs for async, module for underscore)"
    rules = "--rule '{\"no-var\":\"error\",\"eqeqeq\":\"error\",\"prefer-const\":\"error\"}'"
    record("eslint", "h2_async_recommended", "eslint asyncjs", v, pick, f"source: async (npm package); {cfg}")
    record("eslint", "h2_underscore_recommended", "eslint underscore", v, pick,
           f"source: underscore modules/ (npm package); {cfg}")
    record("eslint", "h2_underscore_rules", f"eslint {rules} underscore", v, pick,
           f"source: underscore modules/ (npm package); {cfg}")
    record("eslint", "h2_async_rules", f"eslint {rules} asyncjs", v, pick, f"source: async (npm package); {cfg}")


def pylint() -> None:
    v = " ".join(version("pylint --version").split()[:2])

    def pick(p):
        return _diag_facts(p, _PYLINT, _PYLINT_SUM, SAMPLE)
    record("pylint", "h2_click7_core", "pylint --persistent=n click7/core.py click7/parser.py", v, pick,
           "source: click 7.1.2 (PyPI sdist)")
    record("pylint", "h2_sortedcontainers", "pylint --persistent=n --disable=consider-using-f-string sortedcontainers", v, pick,
           "source: sortedcontainers 2.4.0 as installed; consider-using-f-string disabled: it crashes pylint "
           "4.1.4 on this package")


def flake8() -> None:
    v = "flake8 " + version("flake8 --version").split()[0]

    def pick(p):
        return _diag_facts(p, _CONCISE, None, SAMPLE)
    record("flake8", "h2_click7", "flake8 click7", v, pick, "source: click 7.1.2 (PyPI sdist)")
    record("flake8", "h2_colorama_cachetools", "flake8 --max-line-length 100 colorama cachetools", v, pick,
           "source: colorama 0.4.6 and cachetools 8.0.2 as installed")


def cc() -> None:
    gv = version("gcc --version")
    cv = version("clang --version")

    def pick(p):
        return _diag_facts(p, _CC, _CC_SUM, SAMPLE, extra=_CC_CONTEXT)
    inc = "-Ipyinclude"
    note = "pyinclude is a link to this Python's include directory"
    record("cc", "h2_gcc_simplejson_conv", f"gcc -fsyntax-only -Wall -Wextra -Wconversion {inc} csimplejson/_speedups.c",
           gv, pick, f"source: simplejson 4.3.0 sdist; {note}")
    record("cc", "h2_gcc_bitarray_util", f"gcc -fsyntax-only -Wall -Wextra -Wconversion -Wshadow {inc} -Icbitarray "
           "cbitarray/_util.c", gv, pick, f"source: bitarray 3.12.3 sdist; {note}")
    record("cc", "h2_gcc_bitarray_nocaret", f"gcc -fsyntax-only -Wall -Wextra -Wsign-conversion "
           f"-fno-diagnostics-show-caret {inc} -Icbitarray cbitarray/_bitarray.c", gv, pick,
           f"source: bitarray 3.12.3 sdist; {note}")
    record("cc", "h2_clang_bitarray_util", f"clang -fsyntax-only -Wall -Wextra -Wconversion {inc} -Icbitarray "
           "cbitarray/_util.c", cv, pick, f"source: bitarray 3.12.3 sdist; {note}")


_RUST_HEAD = re.compile(r"^(?:warning|error)(?:\[E\d+\])?: (?!\d+ warnings? emitted)(?!aborting due).*$")
_RUST_ARROW = re.compile(r"^ *--> (?P<loc>\S+:\d+:\d+)$")
_RUST_SUM = re.compile(r"^(?:warning: \d+ warnings? emitted|error: aborting due to .*)$")
_RUST_LINT = re.compile(r"^ *= note: `-[WD] [\w:-]+` implied by `-[WD] [\w:-]+`$")
RUST_LINTS = ("-W rust_2018_idioms -W unreachable_pub -W missing_debug_implementations -W trivial_casts "
              "-W unused_qualifications")


def rust_facts(plain: str) -> list:
    """Each warning's message over its ``-->`` location (sampled), every lint named once, and the totals."""
    lines = plain.splitlines()
    diags = [{"under": line, "line": a.group("loc")} for i, line in enumerate(lines[:-1])
             if _RUST_HEAD.match(line) and (a := _RUST_ARROW.match(lines[i + 1]))]
    if len(diags) > SAMPLE:
        step = (len(diags) - 1) / (SAMPLE - 1)
        diags = [diags[round(k * step)] for k in range(SAMPLE)]
    lints = [x.strip() for x in lines if _RUST_LINT.match(x)]
    if len(lints) > 8:
        lints = [lints[round(k * (len(lints) - 1) / 7)] for k in range(8)]
    return _dedupe(diags + lints + [x for x in lines if _RUST_SUM.match(x)])


def _dedupe(facts: list) -> list:
    out: list = []
    for f in facts:
        if f not in out:
            out.append(f)
    return out


def rustc() -> None:
    """rustc with the rust-2018 idiom lints, and clippy-driver's pedantic lints, on crates Debian ships as source."""
    rv = version("rustc --version")
    cv = version("clippy-driver --version")
    out = "--emit=metadata -o /tmp/sqz-capture/h2diag/_rs/out.rmeta"
    for crate, name in (("humantime-2.1.0", "humantime"), ("memchr-2.5.0", "memchr"), ("either-1.6.1", "either")):
        src = f"/usr/share/cargo/registry/{crate}"
        note = f"source: {crate} from Debian's packaged crate registry (/usr/share/cargo/registry), run in a copy"
        record("rustc", f"h2_{name}_idioms", f"cd rs/{name} && rustc --crate-type lib --edition 2018 {RUST_LINTS} "
               f"{out} src/lib.rs", rv, rust_facts, note, copy=(src, f"rs/{name}"))
    record("rustc", "h2_humantime_clippy_pedantic", "cd rs/humantime && clippy-driver --crate-type lib --edition 2018 "
           f"-W clippy::pedantic {out} src/lib.rs", cv, rust_facts,
           "source: humantime-2.1.0 from Debian's packaged crate registry (/usr/share/cargo/registry), run in a copy",
           copy=("/usr/share/cargo/registry/humantime-2.1.0", "rs/humantime"))


FAMILIES = {"mypy": mypy, "ruff": ruff, "tsc": tsc, "eslint": eslint, "pylint": pylint, "flake8": flake8, "cc": cc, "rustc": rustc}

if __name__ == "__main__":
    ensure_sources()
    sys.exit(run_families(FAMILIES, sys.argv[1:]))
