"""Latency A/B: sqz of this checkout against another checkout, call by call in one interleaved run.

A busy machine moves every figure of ``latency.py`` between two runs; taking turns call by call
(A, B, B, A, …) on the same inputs cancels most of that, so a regression shows as a ratio:

    git worktree add --detach /tmp/sqz-base <rev>
    python benchmarks/latency_ab.py --base /tmp/sqz-base [--runs 15] [CASE ...]
    python benchmarks/latency_ab.py --base /tmp/sqz-base --inputs DIR [--sizes 1KB,10KB,1MB] [--shape git-log]

Every case the speed issue lists runs by default: ``sqz compress`` of real outputs (git log,
pytest, JSON, an application log, grep) at 1 KB to 10 MB (``--inputs DIR``, a ``latency.py
--capture`` folder; without it the cuts of the repository's fixtures, which stop where a fixture
ends), ``sqz hook claude-code --post`` on the same outputs up to 100 KB (``hook``), an exact repeat
answered with a ``§ref`` (``ref``), and the adversarial inputs of ``latency.py``. Each figure is CPU
time (user+sys of the process and its children, from ``wait4``) with wall time beside it: the ratio
``this/base`` is of CPU p50. ``--rss`` adds each side's peak RSS (one more call under GNU time).

The base runs through the same installed ``sqz`` script with ``PYTHONPATH`` set to the base
checkout's package sources (they shadow the editable installs); each side has its own plugin
cache and a fresh database per call (a ``ref`` row: one database per side, holding the output).
CASE names are rows (``"json 10KB"``, ``"git-log 1MB hook"``, ``"worst token 1MB"``…).
"""

from __future__ import annotations

import argparse
import glob
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
HOOK_MAX = 100 * 1024  # a hook payload past this is not what an agent's PostToolUse carries


def source_path(checkout: Path) -> str:
    dirs = [d for pat in ("*/src", "sqz_integrations/*/src", "sqz_stores/*/src")
            for d in sorted(glob.glob(str(checkout / pat)))]
    return os.pathsep.join(dirs)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--base", required=True, type=Path, help="a checkout of the revision to compare against")
    ap.add_argument("--runs", type=int, default=15, help="calls per side and case (default 15; 10 MB: a third)")
    ap.add_argument("--inputs", type=Path, help="a `latency.py --capture` folder (default: the fixtures' cuts)")
    ap.add_argument("--sizes", help="comma-separated sizes of --inputs (1KB,10KB,100KB,1MB,10MB)")
    ap.add_argument("--shape", action="append", help="only these shapes (git-log, pytest, json, log, grep)")
    ap.add_argument("--no-hook", action="store_true", help="leave out the hook and ref rows")
    ap.add_argument("--no-worst", action="store_true", help="leave out the adversarial inputs")
    ap.add_argument("--rss", action="store_true", help="one more call per side and case under GNU time: peak RSS")
    ap.add_argument("--json", action="store_true", help="the rows as JSON")
    ap.add_argument("cases", nargs="*", help="row names (default: every case)")
    args = ap.parse_args()
    if not (args.base / "sqz_core" / "src").is_dir():
        print(f"latency_ab: {args.base} is not an sqz checkout (no sqz_core/src)", file=sys.stderr)
        return 2
    sys.path.insert(0, str(HERE))
    import latency

    if args.inputs:
        sizes = args.sizes.split(",") if args.sizes else None
        real = {k: (v[0], v[1]) for k, v in latency.real_inputs(args.inputs, args.shape, sizes).items()}
    else:
        real = latency.sample_inputs(args.shape)
    sqz = latency.sqz_exe()
    tmp = tempfile.mkdtemp(prefix="sqz-ab-")
    envs = {}
    for side, pp in (("base", source_path(args.base)), ("this", None)):
        env = dict(os.environ, SQZ_CACHE_DIR=os.path.join(tmp, side, "cache"), SQZ_QUIET="1", SQZ_DAEMON="0",
                   SQZ_DB_PATH=os.path.join(tmp, side, "index.db"), HOME=os.path.join(tmp, side, "home"))
        env.pop("PYTHONPATH", None)
        env.pop("PYTHONDONTWRITEBYTECODE", None)  # an installed sqz runs from compiled bytecode
        if pp:
            env["PYTHONPATH"] = pp
        os.makedirs(env["HOME"], exist_ok=True)
        subprocess.run(sqz + ["plugins"], env=env, stdout=subprocess.DEVNULL, check=False)  # build the index once
        envs[side] = env
    calls = [0]

    def fresh(side: str) -> dict:
        calls[0] += 1
        return dict(envs[side], SQZ_DB_PATH=os.path.join(tmp, side, f"db{calls[0]}.sqlite"))

    cases = []  # (name, data, argv, env factory per side)
    for name, (data, command) in real.items():
        argv = sqz + ["compress", "--cmd", command]
        cases.append((name, data, argv, fresh))
        if not args.no_hook and len(data) <= HOOK_MAX:
            cases.append((f"{name} hook", latency.hook_payload(data, command, tmp),
                          sqz + ["hook", "claude-code", "--post"], fresh))
            repeat = {}
            for side in ("base", "this"):
                repeat[side] = dict(envs[side], SQZ_DB_PATH=os.path.join(tmp, side, f"ref-{len(cases)}.sqlite"),
                                    SQZ_NO_DEDUP="0")
                subprocess.run(argv, input=data, env=repeat[side], stdout=subprocess.DEVNULL, check=False)
            cases.append((f"{name} ref", data, argv, lambda side, r=repeat: r[side]))
    if not args.no_worst:
        for name, (data, command) in latency.worst_inputs().items():
            cases.append((name, data, sqz + ["compress", "--cmd", command], fresh))
    if args.cases:
        known = {c[0] for c in cases}
        unknown = [c for c in args.cases if c not in known]
        if unknown:
            print(f"latency_ab: unknown case(s) {unknown}; known: {sorted(known)}", file=sys.stderr)
            return 2
        cases = [c for c in cases if c[0] in args.cases]
    for name, data, argv, make_env in cases:  # warm-up: bytecode, page cache
        for side in ("base", "this"):
            latency.measure(argv, data[:20000] if not name.endswith(" ref") else data, make_env(side))
    rows = []
    if not args.json:
        print(f"{'case':28} {'base cpu p50':>13} {'this cpu p50':>13} {'ratio':>6} {'base wall':>10} {'this wall':>10}"
              + (f" {'base RSS MiB':>13} {'this RSS MiB':>13}" if args.rss else ""))
    for name, data, argv, make_env in cases:
        runs = args.runs if len(data) <= 2 * 1024 * 1024 else max(3, args.runs // 3)
        got: dict[str, list[tuple[float, float, float]]] = {"base": [], "this": []}
        for i in range(runs):
            for side in (("base", "this") if i % 2 else ("this", "base")):
                got[side].append(latency.measure(argv, data, make_env(side)))
        b, m = (statistics.median(v[0] for v in got[s]) for s in ("base", "this"))
        bw, mw = (statistics.median(v[1] for v in got[s]) for s in ("base", "this"))
        row = {"case": name, "bytes": len(data), "runs": runs, "base_cpu_p50_ms": round(b, 1),
               "this_cpu_p50_ms": round(m, 1), "ratio": round(m / b, 2) if b else None,
               "base_wall_p50_ms": round(bw, 1), "this_wall_p50_ms": round(mw, 1)}
        peaks = ""
        if args.rss:  # the peak of one more call each (a spawned process inherits the parent's peak: GNU time's %M)
            for side in ("base", "this"):
                row[f"{side}_rss_mib"] = round(latency.measure(argv, data, make_env(side), rss=True)[2], 1)
            peaks = f" {row['base_rss_mib']:13.1f} {row['this_rss_mib']:13.1f}"
        rows.append(row)
        if not args.json:
            print(f"{name:28} {b:13.1f} {m:13.1f} {row['ratio']:6.2f} {bw:10.1f} {mw:10.1f}{peaks}", flush=True)
    if args.json:
        print(json.dumps(rows, indent=2))
    import shutil

    shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
