"""Logs read as files (issue 25.1): a log read with cat, tail or grep gets log folding through the
whole pipeline, recoverable with ``expand``; source, configuration and data files read the same
way, and code-shaped text, come back byte for byte."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from sqz_core.expand import resolve
from sqz_core.pipeline import compress
from sqz_core.store import Store
from sqz_testing import load_fixture, missing_facts

ROOT = Path(__file__).resolve().parents[2]
FIX = Path(__file__).parent / "fixtures" / "kinds" / "log"
READS = sorted(p.stem for p in FIX.glob("read_*.txt"))
LOG = FIX / "read_worker_retries_cat.txt"


@pytest.fixture
def store(tmp_path):
    s = Store.open(str(tmp_path / "db.sqlite"))
    yield s
    s.close()


@pytest.fixture(autouse=True)
def _no_budget(monkeypatch):
    monkeypatch.setenv("SQZ_TIME_BUDGET_MS", "0")


def _served(data: bytes, command: str, store):
    return compress(data, command=command, store=store, no_cache=True, abbreviate=False)


def test_the_captures_are_reads():
    assert len(READS) >= 9
    programs = {load_fixture(FIX / f"{n}.txt").command.split()[0] for n in READS}
    assert programs == {"cat", "tail", "grep"}


@pytest.mark.parametrize("name", READS)
def test_a_log_read_as_a_file_is_folded_and_keeps_its_facts(name, store):
    fx = load_fixture(FIX / f"{name}.txt")
    r = _served(fx.raw, fx.command, store)
    out = r.output.decode("utf-8")
    assert missing_facts(out, fx.facts) == []
    if r.outcome == "compressed":
        assert r.plugin == "generic" and len(r.output) < len(fx.raw)
        assert resolve(store, out.rstrip("\n").rsplit("\n", 1)[-1]) == fx.raw   # the recovery line gives it back
    else:  # too small or nothing to fold: the original, whole
        assert r.output == fx.raw


def test_the_big_log_reads_shrink_by_more_than_half(store):
    for name in ("read_nginx_access_cat", "read_nginx_access_tail", "read_worker_retries_tail",
                 "read_django_runserver_cat", "read_postgres_deadlock_cat", "read_worker_retries_cat"):
        fx = load_fixture(FIX / f"{name}.txt")
        r = _served(fx.raw, fx.command, store)
        assert r.outcome == "compressed", name
        assert len(r.output) * 2 < len(fx.raw), name


@pytest.mark.parametrize("command", ["cat logs/worker.log", "tail -n 500 worker.log", "less worker.log",
                                     "head -n 400 /var/log/worker", "cat", "cat out.txt", "sed -n 1,400p w.txt"])
def test_the_same_log_folds_however_it_is_read(command, store):
    raw = LOG.read_bytes()
    r = _served(raw, command, store)
    assert r.outcome == "compressed" and len(r.output) * 2 < len(raw), command


_REAL_FILES = [
    ROOT / "sqz_core" / "src" / "sqz_core" / "logread.py",
    ROOT / "sqz_formatters_generic" / "src" / "sqz_formatters_generic" / "kinds" / "log_lines.py",
    FIX / "read_worker_retries_cat.json",
    ROOT / ".pre-commit-config.yaml",
    ROOT / "pyproject.toml",
    ROOT / "sqz_formatters_generic" / "scripts" / "capture_log_reads.sh",
]


@pytest.mark.parametrize("path", _REAL_FILES, ids=lambda p: p.name)
@pytest.mark.parametrize("reader", ["cat", "tail -n 400", "head -n 400"])
def test_source_and_config_files_come_back_byte_for_byte(path, reader, store):
    raw = path.read_bytes()
    lines = raw.split(b"\n")
    if reader.startswith("tail"):
        raw = b"\n".join(lines[-400:])
    elif reader.startswith("head"):
        raw = b"\n".join(lines[:400]) + b"\n"
    rel = os.path.relpath(path, ROOT)
    for command in (f"{reader} {rel}", reader):  # by its name, and by its text alone (read from stdin)
        assert _served(raw, command, store).output == raw, command


# Code whose every line starts like a log record: its name keeps it whole.
_LOGLIKE_CODE = {
    "src/replay.rs": "".join(f"[{s:02d}:00:01] INFO replay(&mut db, {s});\n" for s in range(30)),
    "web/fixtures.ts": "".join(f"2026-12-01 10:00:{s:02d} INFO export const row{s} = {s * 3};\n" for s in range(30)),
    "tests/data.json": "".join(f"2026-12-01T10:00:{s:02d}Z INFO {{\"n\": {s}}}\n" for s in range(30)),
    "deploy/values.yaml": "".join(f"2026-12-01 10:00:{s:02d} INFO key{s}: {s}\n" for s in range(30)),
    "tools/gen_log.py": "".join(f"2026-12-01 10:00:{s:02d},000 INFO print({s})\n" for s in range(30)),
}


@pytest.mark.parametrize("name", sorted(_LOGLIKE_CODE))
def test_a_code_file_shaped_like_a_log_keeps_every_byte(name, store):
    raw = _LOGLIKE_CODE[name].encode()
    for command in (f"cat {name}", f"tail -n 100 {name}", f"less {name}"):
        assert _served(raw, command, store).output == raw, command
    # the same text under no name is read as a log: only the name kept it whole
    from sqz_core.request import FormatRequest

    assert not FormatRequest(raw.decode(), "cat").is_file_content()
    assert FormatRequest(raw.decode(), f"cat {name}").is_file_content()


def test_grep_of_a_log_folds_and_grep_of_a_tree_stays_grep(store):
    fx = load_fixture(FIX / "read_worker_retries_grep.txt")
    from sqz_core.request import FormatRequest
    from sqz_formatters_generic.kinds import detect_kind

    assert detect_kind(fx.text, FormatRequest(fx.text, fx.command)) == "log"
    tree = "".join(f"src/m{s}.py:{s}:import os\n" for s in range(20))
    assert detect_kind(tree, FormatRequest(tree, "grep -rn 'import os' src")) == "grep"
