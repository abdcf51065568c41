"""What a frozen PostgreSQL team store costs one `sqz compress` call (issue 29.3: ≤ 500 ms).

A throw-away server of its own (``sqz_stores/postgresql/scripts/start_test_server.sh`` on a free
loopback port, a temporary data directory, removed at the end) is stopped with SIGSTOP: it
keeps accepting TCP connections and never answers, which is what a hung host or a paused VM
looks like. Then, interleaved so load moves them together, each round runs one call of

* ``sqlite``  the same input with the default SQLite store (the floor: no team store at all);
* ``direct``  ``SQZ_PG_POOL=0``: this process connects to the frozen server itself;
* ``pooled``  through the pooling process (started while the server was healthy);

and reports wall time p50/p90/max per mode and what each adds to the floor's p50. Every call's
output is checked to be the input's own compression without a store (``compress(store=None)``)
and its exit status 0: the numbers are of calls that fell back cleanly.

    python benchmarks/pg_frozen.py [--runs 15] [--json]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
START = REPO / "sqz_stores" / "postgresql" / "scripts" / "start_test_server.sh"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _server_pids(data_dir: str) -> list[int]:
    with open(os.path.join(data_dir, "postmaster.pid")) as fh:
        root = int(fh.readline())
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as fh:
                    ppid = int(fh.read().rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                continue
            children.setdefault(ppid, []).append(int(entry))
    out, todo = [], [root]
    while todo:
        pid = todo.pop()
        out.append(pid)
        todo.extend(children.get(pid, ()))
    return out


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=15)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()

    from sqz_core.api import compress

    work = tempfile.mkdtemp(prefix="sqz-pg-frozen-")
    os.chmod(work, 0o755)  # the server runs as `postgres` when this runs as root
    server_env = dict(os.environ, SQZ_PG_PORT=str(_free_port()), SQZ_PG_DATA=os.path.join(work, "data"),
                      SQZ_PG_DB="sqz_frozen_bench")
    stopped: list[int] = []
    try:
        url = subprocess.run(["bash", str(START)], capture_output=True, text=True, env=server_env, check=True,
                             timeout=120).stdout.strip()
        url += ("&" if "?" in url else "?") + "schema=frozen_bench"
        base = {k: v for k, v in os.environ.items() if not k.startswith("SQZ_")}
        base.update(HOME=work, SQZ_CACHE_DIR=os.path.join(work, "cache"), SQZ_DB_PATH=os.path.join(work, "sqz.db"),
                    SQZ_QUIET="1", SQZ_PG_POOL_IDLE_SECS="600")
        modes = {"sqlite": dict(base), "direct": dict(base, SQZ_STORE_URL=url, SQZ_PG_POOL="0"),
                 "pooled": dict(base, SQZ_STORE_URL=url)}
        # a real output: this checkout's own history (as the README's quickstart runs)
        payload = subprocess.run(["git", "-C", str(REPO), "log", "--stat", "-n", "15"], capture_output=True,
                                 check=True).stdout
        command = "git log --stat -n 15"
        expected = compress(payload, command=command, store=None).output

        def call(env: dict) -> tuple[float, subprocess.CompletedProcess]:
            t = time.monotonic()
            proc = subprocess.run([sys.executable, "-m", "sqz_core", "compress", "--cmd", command, "--session",
                                   "bench"], input=payload, capture_output=True, env=env, timeout=120)
            return time.monotonic() - t, proc

        healthy = call(modes["pooled"])[1]  # schema created, pooling process started
        if healthy.returncode != 0:
            raise SystemExit(f"healthy call failed: {healthy.stderr.decode()}")
        time.sleep(1.0)
        call(modes["pooled"])
        for pid in _server_pids(server_env["SQZ_PG_DATA"]):
            os.kill(pid, signal.SIGSTOP)
            stopped.append(pid)
        times: dict[str, list[float]] = {m: [] for m in modes}
        bad: list[str] = []
        for i in range(args.runs):
            for mode, env in modes.items():
                took, proc = call(env)
                times[mode].append(took)
                if proc.returncode != 0 or (mode != "sqlite" and proc.stdout != expected):
                    bad.append(f"{mode} #{i}: exit {proc.returncode}, {proc.stderr.decode().strip()[:120]}")
        floor = statistics.median(times["sqlite"])
        rows = {m: {"p50_ms": round(statistics.median(v) * 1000), "p90_ms": round(_pct(v, 0.9) * 1000),
                    "max_ms": round(max(v) * 1000), "added_p50_ms": round((statistics.median(v) - floor) * 1000)}
                for m, v in times.items()}
        load = os.getloadavg()[0]
        if args.json:
            print(json.dumps({"runs": args.runs, "load1": load, "modes": rows, "failures": bad}, indent=2))
        else:
            print(f"frozen PostgreSQL server, {args.runs} interleaved rounds, load {load:.1f}, "
                  f"input {len(payload)} bytes ({hashlib.sha256(payload).hexdigest()[:12]})")
            print(f"{'mode':8} {'p50':>7} {'p90':>7} {'max':>7} {'+floor p50':>11}")
            for m, r in rows.items():
                print(f"{m:8} {r['p50_ms']:>5}ms {r['p90_ms']:>5}ms {r['max_ms']:>5}ms {r['added_p50_ms']:>9}ms")
            print("every call fell back cleanly (output as without a store, exit 0)" if not bad else
                  "FAILURES:\n" + "\n".join(bad))
        return 1 if bad else 0
    finally:
        for pid in stopped:
            try:
                os.kill(pid, signal.SIGCONT)
            except ProcessLookupError:
                pass
        subprocess.run(["bash", str(START), "stop"], capture_output=True, env=server_env, timeout=120)
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    raise SystemExit(main())
