"""End-to-end cost of `sqz compress` and `sqz hook` (a new process per call, as an agent's hook runs it),
against RTK and the floor, on real non-repeating outputs of 1 KB to 10 MB.

Inputs are real outputs of real programs, captured on this machine (``--capture``, once; each
size is the first N bytes of one output, cut on a line boundary, so nothing repeats; a JSON
input is a whole document: the first entries of a real one):

* ``git-log``  ``git log --stat --format=fuller`` of the repositories given with ``--git-repo``
  (default: this checkout), one after the other;
* ``pytest``   a real ``pytest -v`` run: ``--pytest-log FILE`` (a saved run), else
  ``pytest -v`` of this repository's core tests is run;
* ``json``     ``pip inspect`` of the running interpreter (``--json-file FILE --json-command CMD``:
  another real JSON document and the command that printed it, e.g. a ``jq -s …`` over API
  models), its longest list's first entries;
* ``log``      ``--log-file FILE --log-command CMD`` (an application log and what printed it), else
  the access log of a local ``python -m http.server`` asked for every file of the interpreter's
  library;
* ``grep``     ``grep -rn import`` over the interpreter's library.

A size the real output does not reach is left out (never padded). Every case runs in one
interleaved loop (sqz, RTK's ``rtk pipe -f FILTER``, and the floor — ``python -S``
reading stdin and opening SQLite — take turns), so load moves all of them together. Per
case: CPU time (user+sys of the process, ``wait4``) and wall time p50/p90, peak RSS, and the
ratio of sqz's CPU p50 to the floor's and to RTK's. ``hook`` rows time ``sqz hook
claude-code --post`` on a Bash PostToolUse payload; ``ref`` rows an exact repeat (answered
with a ``§ref``). Each sqz call gets a fresh store unless it is a repeat.

    python benchmarks/latency.py --capture DIR [--git-repo PATH …] [--pytest-log F] [--log-file F]
    python benchmarks/latency.py --inputs DIR [--runs 9] [--sizes 1KB,10KB] [--shape git-log] [--json]

``sample_inputs``/``worst_inputs`` (for ``latency_ab.py``): cuts of the repository's fixtures
(no repetition: a size past a fixture's length is left out) and adversarial inputs.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SIZES = {"1KB": 1024, "10KB": 10 * 1024, "100KB": 100 * 1024, "1MB": 1024 * 1024, "10MB": 10 * 1024 * 1024}
SHAPES = {  # shape -> (command an agent ran, RTK filter)
    "git-log": ("git log --stat --format=fuller", "git-log"),
    "pytest": ("pytest -v", "pytest"),
    "json": ("pip inspect", None),
    "log": ("python -m http.server", "log"),  # what printed the default capture (a file read would be `cat`)
    "grep": ("grep -rn import .", "grep"),
}
FLOOR = ("import sys, _sqlite3\nsys.stdin.buffer.read()\n"
         "_sqlite3.connect(sys.argv[1]).execute('pragma journal_mode').fetchall()\n")


def sqz_exe() -> list[str]:
    exe = shutil.which("sqz", path=str(Path(sys.executable).parent)) or shutil.which("sqz")
    return [exe] if exe else [sys.executable, "-m", "sqz_core"]


def rtk_exe() -> str | None:
    for cand in (ROOT / "benchmarks" / ".peers-venv" / "bin" / "rtk", Path(sys.executable).parent / "rtk"):
        if cand.exists():
            return str(cand)
    return shutil.which("rtk")


# -- capture: real outputs of real commands -----------------------------------------------------------
def _run(cmd: list[str], **kw) -> bytes:
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, check=False, **kw).stdout


def capture(out: Path, git_repos: list[str], pytest_log: str | None, json_file: str | None,
            log_file: str | None, json_command: str = "jq .", log_command: str = "journalctl --no-pager") -> None:
    out.mkdir(parents=True, exist_ok=True)
    biggest = max(SIZES.values()) + 65536
    lib = sysconfig.get_paths()["stdlib"]
    log = b""
    for repo in git_repos or [str(ROOT)]:
        log += _run(["git", "--git-dir", repo if repo.endswith(".git") or Path(repo, "HEAD").exists()
                     else str(Path(repo, ".git")), "log", "--stat", "--format=fuller"])
        if len(log) >= biggest:
            break
    (out / "git-log.txt").write_bytes(log)
    if pytest_log:
        shutil.copyfile(pytest_log, out / "pytest.txt")
    else:
        (out / "pytest.txt").write_bytes(_run([sys.executable, "-m", "pytest", "-v", "-p", "no:cacheprovider",
                                               str(ROOT / "sqz_core" / "tests")], cwd=ROOT, timeout=3600))
    if json_file:
        shutil.copyfile(json_file, out / "json.json")
        (out / "json.cmd").write_text(json_command + "\n")
    else:
        (out / "json.json").write_bytes(subprocess.run([sys.executable, "-m", "pip", "inspect"],
                                                       capture_output=True, check=False).stdout)
    if log_file:
        shutil.copyfile(log_file, out / "log.txt")
        (out / "log.cmd").write_text(log_command + "\n")
    else:
        (out / "log.txt").write_bytes(_http_server_log(lib, biggest))
    (out / "grep.txt").write_bytes(_head(["grep", "-rn", "import", lib], biggest))


def _head(cmd: list[str], size: int) -> bytes:
    """The first ``size`` bytes ``cmd`` prints (it is stopped then, as ``| head -c`` would)."""
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    out = proc.stdout.read(size)
    proc.kill()
    proc.wait()
    return out


def _http_server_log(root: str, size: int) -> bytes:
    """The access log ``python -m http.server`` writes while asked for every file under ``root`` (and some
    that are not there), one keep-alive connection at a time."""
    import http.client
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    # the server's log goes to a file: an unread pipe fills at 64 KB and stalls the server (every
    # later request then waits out the client's timeout)
    err = tempfile.TemporaryFile()
    proc = subprocess.Popen([sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1",
                             "--directory", root], stdout=subprocess.DEVNULL, stderr=err)
    try:
        time.sleep(1.0)
        files = sorted(str(p.relative_to(root)) for p in Path(root).rglob("*") if p.is_file())
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        sent = 0
        for i, rel in enumerate(files):
            for path in ("/" + rel, "/" + rel + ".orig") if i % 7 == 0 else ("/" + rel,):
                try:
                    conn.request("HEAD", path)
                    conn.getresponse().read()
                except (OSError, http.client.HTTPException):
                    conn.close()
                    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
                sent += 1
            if sent * 80 > size * 1.2:
                break
        conn.close()
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    err.seek(0)
    return err.read()


def _cut(data: bytes, size: int) -> bytes | None:
    """The first ``size`` bytes of ``data`` cut on a line boundary; None when ``data`` is shorter."""
    if len(data) < size:
        return None
    cut = data[:size]
    return cut[: cut.rfind(b"\n") + 1] or cut


def _json_of_size(doc, size: int) -> bytes | None:
    """A whole JSON document of about ``size`` bytes: the first entries of ``doc``'s longest list."""
    def longest(node, path=()):
        best = (len(node), path) if isinstance(node, list) else (0, path)
        children = node.items() if isinstance(node, dict) else ()
        for key, value in children:
            if isinstance(value, (list, dict)):
                cand = longest(value, path + (key,))
                best = max(best, cand, key=lambda b: b[0])
        return best

    n, path = longest(doc)
    if not n:
        return None

    def render(k: int) -> bytes:
        import copy

        d = copy.copy(doc)
        node = d
        for key in path[:-1]:
            node[key] = copy.copy(node[key])
            node = node[key]
        if path:
            node[path[-1]] = node[path[-1]][:k]
        else:
            d = d[:k]
        return (json.dumps(d, indent=2, ensure_ascii=False) + "\n").encode()

    if len(render(n)) < size:
        return None
    lo, hi = 0, n
    while lo < hi:  # the most entries that stay within the size
        mid = (lo + hi + 1) // 2
        if len(render(mid)) <= size:
            lo = mid
        else:
            hi = mid - 1
    return render(lo) if lo else None


def real_inputs(folder: Path, shapes=None, sizes=None) -> dict[str, tuple[bytes, str, str | None]]:
    """``{"git-log 10KB": (bytes, command, rtk filter), …}`` from a ``--capture`` folder."""
    out = {}
    for shape, (command, flt) in SHAPES.items():
        if shapes and shape not in shapes:
            continue
        path = folder / (f"{shape}.json" if shape == "json" else f"{shape}.txt")
        if not path.exists():
            continue
        data = path.read_bytes()
        doc = json.loads(data) if shape == "json" else None
        cmd_file = folder / f"{shape}.cmd"  # the command that printed it, when not the default
        if cmd_file.exists():
            command = cmd_file.read_text().strip()
        for label, size in SIZES.items():
            if sizes and label not in sizes:
                continue
            cut = _json_of_size(doc, size) if doc is not None else _cut(data, size)
            if cut is not None:
                out[f"{shape} {label}"] = (cut, command, flt)
    return out


# -- for latency_ab.py --------------------------------------------------------------------------------
SOURCES = {
    "pytest": "sqz_formatters_test/tests/fixtures/pytest/red_verbose.json",
    "git-log": "sqz_formatters_git/tests/fixtures/log/sqz_repo_stat.json",
    "json": "sqz_formatters_generic/tests/fixtures/kinds/json/pip_inspect.json",
}


def sample_inputs(kinds: list[str] | None = None) -> dict[str, tuple[bytes, str]]:
    """``{"pytest 10KB": (bytes, command), …}``: the first N bytes of real fixtures, never repeated."""
    from sqz_testing import load_fixture

    out = {}
    for kind, rel in SOURCES.items():
        if (kinds and kind not in kinds) or not (ROOT / rel).exists():
            continue
        fx = load_fixture(ROOT / rel)
        for label, size in SIZES.items():
            cut = _cut(fx.raw, size)
            if cut is not None:
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


# -- timing ---------------------------------------------------------------------------------------------
def measure(cmd: list[str], data: bytes | None, env: dict, rss: bool = False) -> tuple[float, float, float]:
    """``(cpu ms, wall ms, peak RSS MiB)`` of one process reading ``data`` on stdin.

    CPU from ``wait4`` (its children included). A spawned process inherits this process's
    peak RSS at its exec, so the peak is read by GNU ``time`` (``%M``, from a process that small)
    when ``rss`` is asked, else reported as 0.
    """
    with tempfile.TemporaryFile() as stdin:
        stdin.write(data or b"")
        stdin.seek(0)
        devnull = os.open(os.devnull, os.O_WRONLY)
        report = tempfile.NamedTemporaryFile(prefix="sqz-rss-", delete=False) if rss else None
        if report is not None:
            report.close()
            cmd = [TIME, "-f", "%M", "-o", report.name] + cmd
        try:
            actions = [(os.POSIX_SPAWN_DUP2, stdin.fileno(), 0), (os.POSIX_SPAWN_DUP2, devnull, 1),
                       (os.POSIX_SPAWN_DUP2, devnull, 2)]
            t = time.perf_counter()
            pid = os.posix_spawnp(cmd[0], cmd, env, file_actions=actions)
            _, _, usage = os.wait4(pid, 0)
            wall = (time.perf_counter() - t) * 1000
        finally:
            os.close(devnull)
    peak = 0.0
    if report is not None:
        with open(report.name) as f:
            peak = int(f.read().split()[-1]) / 1024
        os.unlink(report.name)
    return (usage.ru_utime + usage.ru_stime) * 1000, wall, peak


TIME = "/usr/bin/time"  # GNU time, for the peak RSS (%M)


def pct(values: list[float], p: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, int(round(p / 100 * (len(s) - 1))))]


def hook_payload(text: bytes, command: str, cwd: str) -> bytes:
    return json.dumps({"session_id": "bench", "cwd": cwd, "hook_event_name": "PostToolUse", "tool_name": "Bash",
                       "tool_input": {"command": command}, "tool_use_id": "toolu_bench",
                       "tool_response": {"stdout": text.decode("utf-8", "replace"), "stderr": "",
                                         "interrupted": False, "isImage": False}}).encode()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--capture", type=Path, help="capture the real inputs into this folder and stop")
    ap.add_argument("--git-repo", action="append", default=[], help="a repository whose log is an input")
    ap.add_argument("--pytest-log", help="a saved real `pytest -v` run")
    ap.add_argument("--json-file", help="a real JSON document (default: pip inspect)")
    ap.add_argument("--json-command", default="jq .", help="the command that printed --json-file")
    ap.add_argument("--log-file", help="a real application log (default: a local http.server's access log)")
    ap.add_argument("--log-command", default="journalctl --no-pager", help="the command that printed --log-file")
    ap.add_argument("--inputs", type=Path, help="a folder written by --capture")
    ap.add_argument("--runs", type=int, default=9)
    ap.add_argument("--sizes", help="comma-separated (1KB,10KB,100KB,1MB,10MB)")
    ap.add_argument("--shape", action="append", choices=sorted(SHAPES))
    ap.add_argument("--no-hook", action="store_true", help="leave out the hook and ref rows")
    ap.add_argument("--base", type=Path, help="another checkout (e.g. a worktree of main before a change): its "
                    "sqz compress runs as tool 'base' in the same loop, through PYTHONPATH (as latency_ab.py)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    if args.capture:
        capture(args.capture, args.git_repo, args.pytest_log, args.json_file, args.log_file, args.json_command,
                args.log_command)
        return 0
    if not args.inputs:
        ap.error("--inputs DIR (from --capture DIR) is required")
    inputs = real_inputs(args.inputs, args.shape, args.sizes.split(",") if args.sizes else None)
    tmp = tempfile.mkdtemp(prefix="sqz-latency-")
    env = dict(os.environ, SQZ_CACHE_DIR=os.path.join(tmp, "cache"), SQZ_QUIET="1", SQZ_DAEMON="0",
               HOME=os.path.join(tmp, "home"), RTK_TELEMETRY_DISABLED="1", RTK_DB_PATH=os.path.join(tmp, "rtk.db"))
    os.makedirs(env["HOME"], exist_ok=True)
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # an installed sqz runs from compiled bytecode
    sqz, rtk = sqz_exe(), rtk_exe()
    subprocess.run(sqz + ["plugins"], env=dict(env, SQZ_DB_PATH=os.path.join(tmp, "w.db")),
                   stdout=subprocess.DEVNULL, check=False)
    floor = [sys.executable, "-S", "-c", FLOOR, os.path.join(tmp, "floor.db")]
    calls = 0

    def fresh_env() -> dict:
        nonlocal calls
        calls += 1
        return dict(env, SQZ_DB_PATH=os.path.join(tmp, f"db{calls}.sqlite"))

    base_env = None
    if args.base:
        from latency_ab import source_path

        base_env = dict(env, PYTHONPATH=source_path(args.base), SQZ_CACHE_DIR=os.path.join(tmp, "base-cache"))

    def fresh_base_env() -> dict:
        return dict(fresh_env(), PYTHONPATH=base_env["PYTHONPATH"], SQZ_CACHE_DIR=base_env["SQZ_CACHE_DIR"])

    cases = []  # (name, kind, argv, data, env factory)
    for name, (data, command, flt) in inputs.items():
        cases.append((name, "sqz", sqz + ["compress", "--cmd", command], data, fresh_env))
        if base_env is not None:
            cases.append((name, "base", sqz + ["compress", "--cmd", command], data, fresh_base_env))
        if rtk and flt:
            cases.append((name, "rtk", [rtk, "pipe", "-f", flt], data, lambda: env))
        cases.append((name, "floor", floor, data, lambda: env))
        size = len(data)
        if not args.no_hook and size <= 100 * 1024:
            payload = hook_payload(data, command, tmp)
            cases.append((name, "hook", sqz + ["hook", "claude-code", "--post"], payload, fresh_env))
            repeat_env = fresh_env()
            subprocess.run(sqz + ["compress", "--cmd", command], input=data, env=repeat_env,
                           stdout=subprocess.DEVNULL, check=False)
            cases.append((name, "ref", sqz + ["compress", "--cmd", command], data, lambda e=repeat_env: e))
    for _name, _kind, argv, data, make_env in cases:  # warm-up: bytecode, page cache
        measure(argv, data[:20000] if _kind != "ref" else data, make_env())
    samples: dict[tuple[str, str], list[tuple[float, float, float]]] = {}
    for r in range(args.runs):
        for name, kind, argv, data, make_env in cases:
            if len(data) > 2 * 1024 * 1024 and r >= max(3, args.runs // 3):
                continue  # the big inputs: fewer runs
            samples.setdefault((name, kind), []).append(measure(argv, data, make_env()))
    peaks = {}
    if os.path.exists(TIME):
        for name, kind, argv, data, make_env in cases:  # one more run each, under GNU time, for the peak RSS
            peaks[(name, kind)] = measure(argv, data, make_env(), rss=True)[2]
    shutil.rmtree(tmp, ignore_errors=True)
    rows = []
    for (name, kind), values in samples.items():
        cpu, wall = ([v[i] for v in values] for i in range(2))
        rss = [peaks.get((name, kind), 0.0)]
        rows.append({"case": name, "tool": kind, "runs": len(values), "cpu_p50_ms": round(pct(cpu, 50), 1),
                     "cpu_p90_ms": round(pct(cpu, 90), 1), "wall_p50_ms": round(pct(wall, 50), 1),
                     "wall_p90_ms": round(pct(wall, 90), 1), "rss_mib": round(max(rss), 1),
                     "bytes": len(inputs[name][0])})
    by = {(r["case"], r["tool"]): r for r in rows}
    for r in rows:
        base_floor, base_rtk = by.get((r["case"], "floor")), by.get((r["case"], "rtk"))
        before = by.get((r["case"], "base"))
        r["x_base"] = round(r["cpu_p50_ms"] / before["cpu_p50_ms"], 2) if before and r["tool"] == "sqz" else None
        r["x_floor"] = round(r["cpu_p50_ms"] / base_floor["cpu_p50_ms"], 2) if base_floor else None
        r["x_rtk"] = round(r["cpu_p50_ms"] / base_rtk["cpu_p50_ms"], 2) if base_rtk and r["tool"] != "rtk" else None
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    print(f"{'case':<16}{'tool':<7}{'cpu p50':>9}{'p90':>8}{'wall p50':>10}{'p90':>8}{'RSS MiB':>9}"
          f"{'x floor':>9}{'x rtk':>8}{'x base':>8}")
    for r in rows:
        print(f"{r['case']:<16}{r['tool']:<7}{r['cpu_p50_ms']:>9}{r['cpu_p90_ms']:>8}{r['wall_p50_ms']:>10}"
              f"{r['wall_p90_ms']:>8}{r['rss_mib']:>9}{r['x_floor'] if r['x_floor'] is not None else '':>9}"
              f"{r['x_rtk'] if r['x_rtk'] is not None else '':>8}{r['x_base'] if r['x_base'] is not None else '':>8}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
