"""What the capture scripts of this pack share: throw-away projects, merged-output runs, fixture files.

Imported by ``capture_python_js.py``, ``capture_native.py`` and ``capture_jvm.py`` (run as
scripts, so this directory is on ``sys.path``).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

PACK = Path(__file__).resolve().parents[1]
FIXTURES = PACK / "tests" / "fixtures"
WORK = Path("/tmp/sqz-capture")

ANSI_CSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]")


def tool_env(passthrough=(), **extra: str) -> dict:
    """A small fixed environment (English, dumb terminal) plus ``extra`` and the ``passthrough`` variables set here."""
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": os.environ.get("HOME", "/root"),
        "LANG": "C.UTF-8",
        "LC_ALL": "C.UTF-8",
        "TERM": "dumb",
    }
    env.update(extra)
    for k in passthrough:
        if k in os.environ:
            env[k] = os.environ[k]
    return env


def substitute(raw: bytes, table) -> bytes:
    """Apply each ``(regex, replacement)`` of ``table`` in turn."""
    for rx, rep in table:
        raw = rx.sub(rep, raw)
    return raw


def write_tree(root: Path, files: dict[str, str]) -> Path:
    """A fresh tree at ``root`` (anything there before is removed) holding ``files`` {relative path: text}."""
    if root.exists():
        shutil.rmtree(root)
    for rel, text in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)
    return root


def write_project(name: str, files: dict[str, str]) -> Path:
    """A fresh throw-away project under /tmp/sqz-capture/<name>."""
    return write_tree(WORK / name, files)


def run_merged(cmd: str, cwd: Path, env: dict, timeout: int) -> tuple[bytes, int]:
    """Run ``cmd`` with bash in ``cwd``; stdout and stderr merged as an agent's shell sees them."""
    p = subprocess.run(["bash", "-c", cmd], cwd=cwd, env=env, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, timeout=timeout)
    return p.stdout, p.returncode


def write_fixture(family: str, name: str, raw: bytes, meta: dict) -> None:
    """Save ``fixtures/<family>/<name>.txt`` (the bytes) and its ``<name>.json`` sidecar."""
    out = FIXTURES / family
    out.mkdir(parents=True, exist_ok=True)
    (out / f"{name}.txt").write_bytes(raw)
    (out / f"{name}.json").write_text(json.dumps(meta, indent=2, ensure_ascii=False) + "\n")


def _in_raw(plain: str, fact) -> bool:
    """A fact in the raw output: a string as it stands, a list's parts on one line, an ``under`` fact's
    line on a line that starts with its path (the tool prints the path on every diagnostic)."""
    if isinstance(fact, dict):
        return any(x.startswith(fact["under"]) and fact["line"] in x for x in plain.splitlines())
    if isinstance(fact, list):
        return any(all(part in x for part in fact) for x in plain.splitlines())
    return fact in plain


def save_checked(family: str, name: str, raw: bytes, code: int, *, command: str, facts, produced_by: str,
                 dropped=(), notes: str, expect_exit: int | None = None, ansi: re.Pattern = ANSI_CSI,
                 tail: int = 4000) -> None:
    """Check that ``facts`` and ``dropped`` occur in the output and the exit status is expected, then save it."""
    plain = ansi.sub("", raw.decode("utf-8"))
    lost = [f for f in facts if not _in_raw(plain, f)]
    if lost:
        raise SystemExit(f"{family}/{name}: facts not in the captured output: {lost}\n{plain[-tail:]}")
    absent = [d for d in dropped if d not in plain]
    if absent:
        raise SystemExit(f"{family}/{name}: 'dropped' strings not in the output: {absent}")
    if expect_exit is not None and code != expect_exit:
        raise SystemExit(f"{family}/{name}: exit {code}, expected {expect_exit}\n{plain[-tail:]}")
    write_fixture(family, name, raw, {
        "command": command,
        "produced_by": produced_by,
        "exit_code": code,
        "facts": list(facts),
        "dropped": list(dropped),
        "notes": notes,
    })
    print(f"captured {family}/{name}: exit {code}, {len(raw)} bytes")


def run_families(families: dict, argv: list[str]) -> int:
    """The scripts' ``main``: capture the families named in ``argv`` (all when none is)."""
    WORK.mkdir(parents=True, exist_ok=True)
    for fam in argv or list(families):
        families[fam]()
    return 0
