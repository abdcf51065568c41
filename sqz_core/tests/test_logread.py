"""Which file reads print a log (``logread``): decided by the file's name, else by the text."""

from __future__ import annotations

from pathlib import Path

from sqz_core.logread import log_shaped, reads_lockfile, reads_log
from sqz_core.request import FormatRequest, normalize_argv, split_words

ROOT = Path(__file__).resolve().parents[2]
LOG = "".join(f"2026-12-01 10:00:{s:02d},120 INFO worker: job {s} done in {s * 3}ms\n" for s in range(20))
SOURCE = (ROOT / "sqz_core" / "src" / "sqz_core" / "logread.py").read_text(encoding="utf-8")


def argv(command: str) -> tuple[str, ...]:
    return normalize_argv(split_words(command))


def test_a_log_by_name_is_a_log_at_a_lower_bar():
    few = "".join(LOG.splitlines(keepends=True)[:3]) + "a line of its own\nanother one\n"
    jsonl = "".join(f'{{"ts": {s}, "level": "info"}}\n' for s in range(3))
    for cmd in ("cat app.log", "tail -n 200 logs/server.txt", "less /var/log/syslog", "head -50 app.log.1",
                "tail -f nohup.out", "sed -n 1,80p build/worker.err"):
        assert reads_log(argv(cmd), few), cmd
        assert reads_log(argv(cmd), jsonl), cmd
        assert not reads_log(argv(cmd), "token refreshed\n" + "\n" * 400 + "end\n"), cmd
    assert not reads_log(argv("cat notes.txt"), few)                 # no name: the strict bar


def test_source_configuration_and_data_stay_file_content_whatever_they_hold():
    for cmd in ("cat app.py", "tail -n 20 src/main.rs", "head web/index.ts", "cat package.json", "cat ci.yaml",
                "cat logs/settings.toml", "cat Makefile", "less data.csv", "cat app.log notes.md"):
        assert not reads_log(argv(cmd), LOG), cmd


def test_a_lockfile_read_is_not_file_content_but_its_manifest_is():
    for cmd in ("cat package-lock.json", "cat Cargo.lock", "head -n 80 poetry.lock", "less web/pnpm-lock.yaml",
                "cat uv.lock", "tail -n 40 app/yarn.lock", "cat npm-shrinkwrap.json", "cat Pipfile.lock",
                "sed -n 1,80p Cargo.lock", "sed -n '120,$p' web/package-lock.json"):
        assert reads_lockfile(argv(cmd)), cmd
        assert reads_log(argv(cmd), SOURCE), cmd
        assert not FormatRequest("x", command=cmd).is_file_content(), cmd
    for cmd in ("cat package.json", "cat Cargo.toml", "cat pyproject.toml", "cat package-lock.json src/app.ts",
                "cat", "cat Cargo.lock.orig", "cat poetry.lock.py", "sed -n 1,40p Cargo.toml",
                "sed -i s/a/b/ Cargo.lock", "cat 1,40p Cargo.lock"):
        assert not reads_lockfile(argv(cmd)), cmd
        assert FormatRequest(SOURCE, command=cmd).is_file_content(), cmd


def test_a_name_that_says_nothing_leaves_it_to_the_text():
    assert reads_log(argv("cat"), LOG)
    assert reads_log(argv("tail -n 40 output.txt"), LOG)
    assert not reads_log(argv("cat"), SOURCE)
    assert not reads_log(argv("tail -n 40 output.txt"), SOURCE)


def test_log_shape_needs_most_records_to_start_like_log_records():
    lines = LOG.splitlines()
    assert log_shaped(LOG)
    assert not log_shaped("\n".join(lines[:4]))                      # too few records
    assert not log_shaped("\n".join(lines[:8] + ["x = 1"] * 8))      # half the lines are something else
    frames = ["Traceback (most recent call last):", '  File "w.py", line 3, in run', "    go()", "KeyError: 'x'"]
    assert log_shaped("\n".join(lines[:8] + frames + lines[8:]))     # a trace inside a log: still a log
    assert not log_shaped(SOURCE)


def test_the_request_routes_file_reads_by_name_and_content():
    assert not FormatRequest(LOG, "tail -n 200 app.log").is_file_content()
    assert not FormatRequest(LOG, "cat out.txt").is_file_content()
    assert FormatRequest(LOG, "cat worker.py").is_file_content()
    assert FormatRequest(SOURCE, "cat out.txt").is_file_content()
    assert FormatRequest(LOG, tool="read_file").is_file_content()    # a file tool's read: by the tool name
    assert not FormatRequest(LOG, "journalctl -u worker").is_file_content()


def test_the_decision_follows_the_text_it_is_asked_about():
    req = FormatRequest(LOG, "cat out.txt")
    assert not req.is_file_content()
    req.text = SOURCE
    assert req.is_file_content()
    assert not req.replace(text=LOG).is_file_content()
    assert req.replace(command="cat x.py", argv=argv("cat x.py")).is_file_content()
