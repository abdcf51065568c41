"""In-process against the warm daemon, call by call in one interleaved run (the case for ``SQZ_DAEMON=auto``).

    python benchmarks/daemon_ab.py INPUT [--runs 15] [--command "git log"]

INPUT is a real captured output (e.g. ``git log -n 400 > /tmp/gitlog.txt``, cut with ``head -c 10240``).
Each run calls ``sqz compress --cmd COMMAND --no-cache`` and ``sqz hook claude-code --post`` (the
same output as a PostToolUse payload) once in-process (``SQZ_DAEMON=0``) and once through a daemon
this script starts in a private socket directory, each with a fresh store. Reported: the client's CPU
p50 (user+sys from ``wait4``), the daemon's CPU per call (``/proc/PID/stat``, Linux), wall p50, the
daemon's own start-up CPU and resident size, and whether both sides printed the same bytes (a hook's
ref answers carry "N s ago", which may differ by a second). No time budget: both sides finish.
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


def _cpu_ms(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) * 1000 / os.sysconf("SC_CLK_TCK")


def _rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def _call(argv: list[str], stdin: bytes, env: dict) -> tuple[float, float, bytes]:
    """(CPU ms of the process, wall ms, its stdout); sqz reads all its input before it writes."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
    proc.stdin.write(stdin)
    proc.stdin.close()
    out = proc.stdout.read()
    proc.stdout.close()
    _, _, usage = os.wait4(proc.pid, 0)
    proc.returncode = 0  # reaped here: Popen must not wait for it again
    return (usage.ru_utime + usage.ru_stime) * 1000, (time.perf_counter() - start) * 1000, out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("input", type=Path)
    ap.add_argument("--runs", type=int, default=15)
    ap.add_argument("--command", default="git log")
    args = ap.parse_args()
    data = args.input.read_bytes()
    found = shutil.which("sqz", path=os.path.dirname(sys.executable)) or shutil.which("sqz")
    sqz = [found] if found else [sys.executable, "-m", "sqz_core"]
    tmp = tempfile.mkdtemp(prefix="sqzab-", dir="/tmp")  # short: a Unix socket path is limited
    base = {k: v for k, v in os.environ.items() if not k.startswith(("SQZ_", "XDG_"))}
    base.update(SQZ_CACHE_DIR=f"{tmp}/cache", XDG_RUNTIME_DIR=f"{tmp}/run", SQZ_QUIET="1", SQZ_TIME_BUDGET_MS="0")
    payload = json.dumps({"session_id": "ab", "hook_event_name": "PostToolUse", "tool_name": "Bash", "cwd": tmp,
                          "tool_input": {"command": args.command},
                          "tool_response": {"stdout": data.decode("utf-8", "replace"), "stderr": ""}}).encode()
    subprocess.run(sqz + ["daemon", "start"], env=base, check=True, capture_output=True)
    pid = int(Path(f"{tmp}/run/sqz/daemon.pid").read_text())
    started_cpu, rss = _cpu_ms(pid), _rss_kb(pid)
    results: dict = {}
    try:
        before = _cpu_ms(pid)
        for i in range(args.runs):
            for verb, argv, stdin in (("compress", sqz + ["compress", "--cmd", args.command, "--no-cache"], data),
                                      ("hook", sqz + ["hook", "claude-code", "--post"], payload)):
                for side in ("in-process", "daemon"):
                    env = dict(base, SQZ_DB_PATH=f"{tmp}/db-{side}-{i}.sqlite",
                               SQZ_DAEMON="0" if side == "in-process" else "1")
                    results.setdefault((verb, side), []).append(_call(argv, stdin, env))
        daemon_per_call = (_cpu_ms(pid) - before) / (2 * args.runs)
    finally:
        subprocess.run(sqz + ["daemon", "stop"], env=base, capture_output=True)
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"input {len(data)} bytes; daemon start-up {started_cpu:.0f} ms CPU, {rss / 1024:.0f} MB resident; "
          f"daemon CPU per call {daemon_per_call:.1f} ms")
    for verb in ("compress", "hook"):
        mine, warm = results[(verb, "in-process")], results[(verb, "daemon")]
        same = sum(a[2] == b[2] for a, b in zip(mine, warm))
        print(f"{verb:9} in-process CPU p50 {statistics.median(a[0] for a in mine):6.1f} ms, wall "
              f"{statistics.median(a[1] for a in mine):6.1f} | daemon client CPU p50 "
              f"{statistics.median(b[0] for b in warm):6.1f} ms, wall {statistics.median(b[1] for b in warm):6.1f} "
              f"| same bytes {same}/{len(mine)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
