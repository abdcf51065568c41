#!/usr/bin/env python3
"""Re-capture the real fixtures of the declarative formatter pack.

Runs the real programs under /tmp/sqz-capture (a fixed path, so the captured text carries no
random temp dirs) and writes ``tests/fixtures/<tool>/NAME.txt`` (the raw bytes, stdout and stderr
merged as a terminal shows them) plus ``NAME.json`` sidecars (command, producer and version, exit
status, facts). Facts are exact substrings of the raw output, checked here against the raw text
before any formatter ran.

- ansible-playbook: ``scripts/playbooks/site.yml`` (one task fails: a missing file) and
  ``site_ok.yml`` (all green) against localhost with ``-c local``; once without colour and once
  with ``ANSIBLE_FORCE_COLOR=1`` (the escape codes kept in the capture).
- pnpm: ``pnpm install`` of ``scripts/pnpm-app`` (three small packages, a fresh store) and
  ``pnpm run test`` of its in-house test runner (one check fails).

Needs: ``ansible-playbook`` (``pip install ansible-core``; captured with ansible-core 2.21.x) and
``pnpm`` (``npm i pnpm@12.4.2``), found on PATH or named by $ANSIBLE_PLAYBOOK / $PNPM; sqz-testing
installed (registry host names in the text become pkgs.example.org, as every capture does).

Usage: python scripts/capture_fixtures.py [ansible|pnpm ...]
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

PACK = Path(__file__).resolve().parent.parent
FIXTURES = PACK / "tests" / "fixtures"
WORK = Path("/tmp/sqz-capture")
REDACT_NOTE = "Registry host names (none were printed) would be replaced by pkgs.example.org by the capture script."


def run(argv: list[str], cwd: Path, env: dict) -> tuple[bytes, int]:
    proc = subprocess.run(argv, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    return proc.stdout, proc.returncode


def first_line(argv: list[str]) -> str:
    return subprocess.run(argv, capture_output=True, text=True).stdout.strip().splitlines()[0]


def write(tool: str, name: str, command: str, data: bytes, exit_code: int, produced_by: str, facts: list,
          dropped: list[str], notes: str) -> None:
    from sqz_testing import fact_kept, redact_registries

    data = redact_registries(data)
    plain = re.sub(r"\x1b\[[0-9;]*m", "", data.decode("utf-8"))
    for fact in facts:
        if not fact_kept(plain, fact):
            raise SystemExit(f"{tool}/{name}: fact not in the captured output: {fact!r}")
    for gone in dropped:
        if gone not in plain:
            raise SystemExit(f"{tool}/{name}: dropped string not in the captured output: {gone!r}")
    out = FIXTURES / tool
    out.mkdir(parents=True, exist_ok=True)
    (out / f"{name}.txt").write_bytes(data)
    meta = {"command": command, "produced_by": produced_by, "exit_code": exit_code, "facts": facts,
            "dropped": dropped, "notes": notes + " " + REDACT_NOTE}
    (out / f"{name}.json").write_text(json.dumps(meta, indent=2, ensure_ascii=False) + "\n")
    print(f"wrote {tool}/{name} (exit {exit_code}, {len(data)} bytes)")


def ansible() -> None:
    exe = os.environ.get("ANSIBLE_PLAYBOOK") or shutil.which("ansible-playbook") or sys.exit("no ansible-playbook")
    version = first_line([exe, "--version"])  # "ansible-playbook [core 2.21.5]"
    python = str(Path(exe).resolve().parent / "python")
    work = WORK / "ansible"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    for book in ("site.yml", "site_ok.yml"):
        shutil.copy(PACK / "scripts" / "playbooks" / book, work / book)
    base = dict(os.environ, CAPTURE_WORK=str(work / "w"), ANSIBLE_NOCOLOR="1")
    base.pop("ANSIBLE_FORCE_COLOR", None)
    produced = f"{version} (PyPI ansible-core), -c local against localhost; Python {sys.version.split()[0]}"
    common = ["-i", "localhost,", "-c", "local", "-e", f"ansible_python_interpreter={python}"]
    failing_facts = [
        "TASK [Read the deploy settings]",
        "[ERROR]: Task failed: Module failed: non-zero return code",
        "Origin: /tmp/sqz-capture/ansible/site.yml:29:7",
        ["fatal: [localhost]: FAILED!", "No such file or directory", "\"rc\": 1"],
        ["localhost", "ok=4", "changed=2", "unreachable=0", "failed=1"],
    ]
    data, status = run([exe, *common, "site.yml"], work, base)
    write("ansible", "playbook_failed", "ansible-playbook -i localhost, -c local site.yml", data, status, produced,
          failing_facts, ["ok: [localhost] => (item=awk)", "changed: [localhost] => (item=7)"],
          "A playbook whose fifth task reads a file that does not exist (scripts/playbooks/site.yml).")
    shutil.rmtree(work / "w", ignore_errors=True)
    colour = dict(base, ANSIBLE_FORCE_COLOR="1")
    colour.pop("ANSIBLE_NOCOLOR")
    data, status = run([exe, *common, "site.yml"], work, colour)
    write("ansible", "playbook_failed_colour", "ansible-playbook -i localhost, -c local site.yml", data, status,
          produced + ", ANSIBLE_FORCE_COLOR=1", failing_facts, ["ok: [localhost] => (item=awk)"],
          "The same failing run with colour forced: the escape codes are in the capture.")
    shutil.rmtree(work / "w", ignore_errors=True)
    data, status = run([exe, *common, "site_ok.yml"], work, base)
    write("ansible", "playbook_ok", "ansible-playbook -i localhost, -c local site_ok.yml", data, status, produced,
          ["TASK [Report the release count]", "\"msg\": \"12 manifests written\"",
           ["localhost", "ok=4", "changed=2", "unreachable=0", "failed=0"]],
          ["ok: [localhost] => (item=grep)"], "The green run (scripts/playbooks/site_ok.yml).")


def pnpm() -> None:
    exe = os.environ.get("PNPM") or shutil.which("pnpm") or sys.exit("no pnpm")
    version = first_line([exe, "--version"])
    node = first_line(["node", "--version"])
    app = WORK / "pnpm-app"
    shutil.rmtree(app, ignore_errors=True)
    shutil.copytree(PACK / "scripts" / "pnpm-app", app)
    env = dict(os.environ)
    produced = f"pnpm {version} (npm registry package pnpm), node {node}"
    data, status = run([exe, "install", "--store-dir", str(WORK / "pnpm-store")], app, env)
    write("pnpm", "install", "pnpm install", data, status, produced + "; an empty store (--store-dir)",
          ["Packages: +3", "+ kleur 4.1.5", "+ ms 2.1.3", "+ semver 7.6.3", "using pnpm v" + version],
          ["Progress: resolved 0, reused 0"], "Three packages into a fresh store (scripts/pnpm-app/package.json).")
    data, status = run([exe, "run", "test"], app, env)
    write("pnpm", "run_test_failed", "pnpm run test", data, status, produced,
          ["not ok - semver.maxSatisfying picks 1.3.0", "error: maxSatisfying(~1.2.0) = 1.2.0, expected 1.3.0",
           "19 passed, 1 failed", "[ELIFECYCLE] Test failed."],
          ["ok - ms parses 1s", "ok - semver orders 1.0.0 < 2.0.0"],
          "An in-house test runner (scripts/pnpm-app/test/run.js) with one failing check.")


if __name__ == "__main__":
    wanted = sys.argv[1:] or ["ansible", "pnpm"]
    for name in wanted:
        {"ansible": ansible, "pnpm": pnpm}[name]()
