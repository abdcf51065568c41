"""End-to-end latency of `sqz compress` (a new process per call, as an agent's hook runs it).

Inputs of 1 KB, 10 KB, 100 KB and 1 MB are cut from real captured tool outputs in
the repository's fixtures (a failing `pytest -v` run, a `git log --stat`, a JSON
document; repeated to reach the size, cut on a line boundary), and compressed with
`--cmd` naming the tool that produced them, against a fresh database (refs off, so
every call does the full work). Reports p50/p99 per input, plus `sqz --version`
(process start-up floor) and a bare `python -c pass` for reference.

Worst-case rows ("worst …") time adversarial inputs that once took seconds to minutes:
a blank run after a credential-like line, a 200,000-space line, cursor-move escapes
asking for huge widths, a 1 MB single token, JSON nested 100,000 deep and a million
short lines. They run with fewer repetitions; the per-call time budget
(``SQZ_TIME_BUDGET_MS``, 2 s) caps what any of them can cost.

    python benchmarks/latency.py [--runs 30] [--json] [--kind pytest] [--daemon] [--worst]

``--daemon`` runs the same cases with `sqz daemon start` for the run (its own socket directory).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SIZES = {"1KB": 1024, "10KB": 10 * 1024, "100KB": 100 * 1024, "1MB": 1024 * 1024}


def sqz_exe() -> list[str]:
    exe = shutil.which("sqz", path=str(Path(sys.executable).parent)) or shutil.which("sqz")
    return [exe] if exe else [sys.executable, "-m", "sqz_core"]


# Real captured outputs the inputs are cut from (repeated to reach the size, cut on a line boundary).
SOURCES = {
    "pytest": "sqz_formatters_test/tests/fixtures/pytest/red_verbose.json",
    "git-log": "sqz_formatters_git/tests/fixtures/log/sqz_repo_stat.json",
    "json": "sqz_formatters_generic/tests/fixtures/kinds/json/pip_inspect.json",
}


def sample_inputs(kinds: list[str] | None = None) -> dict[str, tuple[bytes, str]]:
    """``{"pytest 10KB": (bytes, command), …}`` for every source and size."""
    from sqz_testing import load_fixture

    out = {}
    for kind, rel in SOURCES.items():
        if kinds and kind not in kinds:
            continue
        fx = load_fixture(ROOT / rel)
        lines = fx.raw.splitlines(keepends=True)
        for label, size in SIZES.items():
            buf, i = bytearray(), 0
            while len(buf) < size:
                buf += lines[i % len(lines)]
                i += 1
            cut = bytes(buf[:size])
            cut = cut[: cut.rfind(b"\n") + 1] or cut
            out[f"{kind} {label}"] = (cut, fx.command or "")
    return out


def worst_inputs() -> dict[str, tuple[bytes, str]]:
    """Adversarial inputs (built here: their shape is the point, not any tool's wording)."""
    bomb = b"".join(b"\x1b[1A\x1b[%dC%s" % (n, t) for n, t in ((100000, b"x"), (10 ** 9, b"y"), (99999999, b"\r")))
    return {
        "worst blank run 40k": (b"token refreshed\n" + b"\n" * 40000 + b"end\n", "cat app.log"),
        "worst space run 200KB": (b" " * 200000 + b"x\n", "python -c 'print(...)'"),
        "worst cursor escapes": (b"a\n" + bomb * 8 + b"\n", "cat tty.log"),
        "worst token 1MB": (b"token=" + b"a" * (1 << 20) + b"\n", "cat token.txt"),
        "worst JSON 100k deep": (b"[" * 100000 + b"]" * 100000 + b"\n", "cat deep.json"),
        "worst 1M short lines": (b"a\n" * 1_000_000, "cat lines.txt"),
    }


def timed(cmd: list[str], data: bytes | None, env: dict, runs: int) -> list[float]:
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        subprocess.run(cmd, input=data, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, check=False)
        times.append((time.perf_counter() - t) * 1000)
    return times


def pct(values: list[float], p: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, int(round(p / 100 * (len(s) - 1))))]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=30)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--kind", action="append", choices=sorted(SOURCES), help="only these inputs (repeatable)")
    ap.add_argument("--daemon", action="store_true", help="with a warm daemon started for the run")
    ap.add_argument("--worst", action="store_true", help="only the worst-case (adversarial) rows")
    args = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="sqz-latency-")
    env = dict(os.environ, SQZ_DB_PATH=os.path.join(tmp, "db.sqlite"), SQZ_CACHE_DIR=os.path.join(tmp, "cache"),
               SQZ_QUIET="1", SQZ_NO_DEDUP="1")
    # an installed sqz runs from compiled bytecode: let the first calls write it, as pip does at install
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    sqz = sqz_exe()
    subprocess.run(sqz + ["plugins"], env=env, stdout=subprocess.DEVNULL, check=False)  # build the index once
    if args.daemon:
        env["XDG_RUNTIME_DIR"] = os.path.join(tmp, "run")
        subprocess.run(sqz + ["daemon", "start"], env=env, stdout=subprocess.DEVNULL, check=True)
    for data, command in sample_inputs(args.kind).values():  # warm-up: bytecode of every module a call uses
        subprocess.run(sqz + ["compress", "--cmd", command], input=data[:20000], env=env,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    rows = []
    rows.append(("python -c pass", timed([sys.executable, "-c", "pass"], None, env, args.runs)))
    rows.append(("sqz --version", timed(sqz + ["--version"], None, env, args.runs)))
    for label, (data, command) in ({} if args.worst else sample_inputs(args.kind)).items():
        runs = args.runs if len(data) < 500_000 else max(5, args.runs // 3)
        rows.append((f"compress {label}", timed(sqz + ["compress", "--cmd", command], data, env, runs)))
    for label, (data, command) in ({} if args.kind else worst_inputs()).items():
        rows.append((label, timed(sqz + ["compress", "--cmd", command], data, env, max(3, args.runs // 6))))
    if args.daemon:
        subprocess.run(sqz + ["daemon", "stop"], env=env, stdout=subprocess.DEVNULL, check=False)
    shutil.rmtree(tmp, ignore_errors=True)
    result = [{"case": name, "p50_ms": round(pct(t, 50), 1), "p99_ms": round(pct(t, 99), 1),
               "mean_ms": round(statistics.mean(t), 1), "runs": len(t)} for name, t in rows]
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        print(f"{'case':<28}{'p50 ms':>9}{'p99 ms':>9}{'mean ms':>9}")
        for r in result:
            print(f"{r['case']:<28}{r['p50_ms']:>9}{r['p99_ms']:>9}{r['mean_ms']:>9}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
