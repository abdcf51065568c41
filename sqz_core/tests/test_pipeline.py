"""The pipeline's guarantees: exit status, passthrough of bad input, refs, the gate, file content."""

import os
import subprocess
import sys

import pytest

from sqz_core.exitmarker import split_trailer, trailer, wrap_command
from sqz_core.expand import ExpandError, resolve
from sqz_core.pipeline import compress, digest_of
from sqz_core.store import Store


@pytest.fixture
def store(tmp_path):
    s = Store.open(str(tmp_path / "db.sqlite"))
    yield s
    s.close()


def real_output(*cmd: str) -> bytes:
    return subprocess.run(list(cmd), capture_output=True, check=True).stdout


NONCE = "0123abcd4567ef89"


def test_exit_trailer_is_stripped_exactly():
    assert split_trailer(b"out\n\n__SQZ_EXIT__=%s:3\n" % NONCE.encode(), NONCE) == (b"out\n", 3)
    assert split_trailer(b"no newline at end" + trailer(0, NONCE), NONCE) == (b"no newline at end", 0)
    assert split_trailer(b"plain output\n", NONCE) == (b"plain output\n", None)
    data = b"__SQZ_EXIT__=%s:1 in the middle\nmore\n" % NONCE.encode()
    assert split_trailer(data, NONCE) == (data, None)


@pytest.mark.parametrize("data", [
    b"a log of an earlier call\n__SQZ_EXIT__=7\n",  # the old, unauthenticated form
    b"guessed\n__SQZ_EXIT__=ffffffffffffffff:7\n",  # another call's nonce
    b"last line __SQZ_EXIT__=0123abcd4567ef89:7\n",  # no newline before it: not our printf's shape
])
def test_a_trailer_without_this_calls_nonce_changes_nothing(data, store):
    for nonce in (None, NONCE):
        assert split_trailer(data, nonce) == (data, None)
        result = compress(data, store=store, exit_nonce=nonce)
        assert result.exit_code is None and result.output == data


def test_only_the_real_trailer_is_stripped_after_a_fake_one(store):
    fake = b"output that ends like a wrapped call\n__SQZ_EXIT__=7\n"
    result = compress(fake + trailer(3, NONCE), store=store, exit_nonce=NONCE)
    assert result.exit_code == 3 and result.output == fake


def test_plain_pipe_ending_in_a_trailer_keeps_status_and_bytes(tmp_path):
    """``printf '…__SQZ_EXIT__=7\n' | sqz compress``: status 0, every byte out."""
    data = b"line one\nline two\n__SQZ_EXIT__=7\n"
    env = dict(os.environ, SQZ_QUIET="1", SQZ_DAEMON="0", SQZ_DB_PATH=str(tmp_path / "db.sqlite"))
    env.pop("SQZ_EXIT_NONCE", None)
    r = subprocess.run([sys.executable, "-m", "sqz_core", "compress"], input=data, capture_output=True, env=env)
    assert (r.returncode, r.stdout) == (0, data)
    shell = wrap_command("printf 'line one\\n__SQZ_EXIT__=7\\n'; exit 4", f"{sys.executable} -m sqz_core compress")
    r = subprocess.run(["bash", "-c", shell], capture_output=True, env=env)
    assert (r.returncode, r.stdout) == (4, b"line one\n__SQZ_EXIT__=7\n")


@pytest.mark.parametrize("command,status", [("echo hi; exit 7", 7), ("printf 'no newline'", 0),
                                            ("echo out; echo err >&2; false", 1), ("true", 0)])
def test_wrapped_command_carries_status_and_output(command, status):
    shell = wrap_command(command, "cat", NONCE)
    raw = subprocess.run(["bash", "-c", shell], capture_output=True, check=False).stdout
    direct = subprocess.run(["bash", "-c", "( " + command + "\n) 2>&1"], capture_output=True, check=False).stdout
    assert split_trailer(raw, NONCE) == (direct, status)


def test_wrapped_heredoc_and_comment_keep_meaning():
    command = "cat <<'EOF'\nline one\nEOF\n# a trailing comment"
    raw = subprocess.run(["bash", "-c", wrap_command(command, "cat", NONCE)], capture_output=True, check=False).stdout
    assert split_trailer(raw, NONCE) == (b"line one\n", 0)


@pytest.mark.parametrize("data,outcome", [
    (b"", "empty"),
    (b"\xff\xfe\x00binary\x00", "binary"),
    (b"caf\xe9 latin-1 text\n" * 20, "binary"),
    (b"text with a NUL \x00 inside\n" * 20, "binary"),
])
def test_bad_input_passes_through_byte_exact(data, outcome, store):
    result = compress(data, store=store)
    assert result.outcome == outcome
    assert result.output == data


def test_huge_input_passes_through(monkeypatch, store):
    monkeypatch.setenv("SQZ_MAX_BYTES", "1000")
    data = b"same line\n" * 200
    result = compress(data, store=store)
    assert result.outcome == "huge" and result.output == data


def test_exit_status_survives_every_outcome(store):
    for data in (b"", b"\xff\xfe", b"short\n", b"repeated\n" * 50):
        result = compress(data + trailer(42, NONCE), store=store, exit_nonce=NONCE)
        assert result.exit_code == 42


def test_repeat_in_same_session_becomes_a_ref_that_expands_exactly(store):
    data = real_output("git", "--version") * 20 + real_output("ls", "-la", "/usr/lib")
    first = compress(data, command="ls -la /usr/lib", store=store, session="A")
    assert b"\xc2\xa7ref:" not in first.output
    second = compress(data, command="ls -la /usr/lib", store=store, session="A")
    assert second.outcome == "ref"
    token = second.output.decode().split()[0]
    assert token == f"§ref:{digest_of(data)[:12]}§"  # 12 hex digits, unique in the store
    line = second.output.decode()
    assert line.count(digest_of(data)[:12]) == 1 and "expand` this ref prints it" in line  # the id once
    assert resolve(store, token) == data
    assert resolve(store, second.output.decode()) == data  # the whole ref line, pasted
    assert resolve(store, digest_of(data)[:8]) == data


def test_no_ref_across_sessions_or_after_ttl(store, monkeypatch):
    data = real_output("ls", "-la", "/usr/lib")
    compress(data, store=store, session="A")
    assert compress(data, store=store, session="B").outcome != "ref"
    monkeypatch.setenv("SQZ_REF_TTL_SECS", "0")
    assert compress(data, store=store, session="A").outcome != "ref"


def test_no_cache_and_no_dedup_escape_hatches(store, monkeypatch):
    data = real_output("ls", "-la", "/usr/lib")
    compress(data, store=store, session="A")
    assert compress(data, store=store, session="A", no_cache=True).outcome != "ref"
    monkeypatch.setenv("SQZ_NO_DEDUP", "1")
    assert compress(data, store=store, session="A").outcome != "ref"


def test_net_win_gate_returns_original_when_nothing_is_saved(store):
    data = real_output("git", "--version")
    result = compress(data, store=store)
    assert result.output == data
    assert result.outcome in ("passthrough", "gate")


def test_generic_stages_fold_terminal_noise_and_repeats(store):
    # a real progress redraw and colour output: git's own progress, forced on
    data = ("\x1b[32mok\x1b[0m build step\n" * 30).encode() + b"Receiving objects:  10%\rReceiving objects: 100%\n"
    result = compress(data, store=store)
    out = result.output.decode()
    assert "\x1b" not in out and "\r" not in out
    assert "ok build step [×30]" in out
    assert "Receiving objects: 100%" in out and "10%" not in out


def test_file_content_is_never_folded(store, tmp_path):
    source = ("    return value\n" * 12 + "\n\n\n").encode()
    for session, kw in (("A", {"command": "cat app.py"}), ("B", {"tool": "read_file"})):
        result = compress(source, store=store, session=session, **kw)
        assert result.output == source


def test_expand_errors_are_clear(store):
    compress(real_output("ls", "-la", "/usr/lib"), store=store)
    with pytest.raises(ExpandError, match="not a reference"):
        resolve(store, "xyz")
    with pytest.raises(ExpandError, match="no stored output"):
        resolve(store, "0000000000")


def test_ambiguous_prefix_is_an_error(store):
    a, b = b"first stored output\n", b"second stored output\n"
    store.put_blob("abcd" + "1" * 60, a)
    store.put_blob("abcd" + "2" * 60, b)
    with pytest.raises(ExpandError, match="more than one"):
        resolve(store, "abcd")
    assert resolve(store, "abcd1") == a
    assert resolve(store, "§ref:abcd2222§") == b


def test_ranged_expand_returns_exactly_those_lines(store):
    data = real_output("ls", "-la", "/usr/lib")
    compress(data, store=store)
    lines = data.splitlines(keepends=True)
    assert resolve(store, f"{digest_of(data)[:16]}:L2-4") == b"".join(lines[1:4])
    with pytest.raises(ExpandError, match="past the end"):
        resolve(store, f"{digest_of(data)[:16]}:L1-{len(lines) + 1}")


def test_without_store_nothing_lossy_happens():
    data = real_output("ls", "-la", "/usr/lib")
    result = compress(data, command="ls -la /usr/lib", store=None)
    assert b"sqz expand" not in result.output


def test_cursor_up_redraws_resolve_to_the_final_screen():
    """Gradle's rich console (a real capture) redraws a status bar with cursor moves."""
    from pathlib import Path

    from sqz_core.cleanup import clean_terminal, resolve_cursor_moves

    raw = (Path(__file__).resolve().parents[2] / "sqz_formatters_test" / "tests" / "fixtures" / "gradle"
           / "build_fail_rich.txt").read_text()
    shown = clean_terminal(raw)
    assert "EXECUTING" not in shown and "CONFIGURING" not in shown and "\x1b" not in shown
    for line in ("> Task :test FAILED", "demo.CalcTest > wrongSum FAILED", "74 tests completed, 5 failed, 1 skipped",
                 "BUILD FAILED in 1s"):
        assert line in shown
    plain = "no cursor moves here\nline two\n"
    assert resolve_cursor_moves(plain) is plain
    assert resolve_cursor_moves("progress 10%\n\x1b[1A\r\x1b[2Kdone\n") == "done\n"


def test_a_delta_must_pass_the_net_win_gate(store):
    """A delta whose removed lines are wide (4-byte characters) is shorter in characters but
    longer in bytes and tokens than the new version: the new version goes out in full."""
    from pathlib import Path

    from sqz_core.pipeline import estimate, net_win

    source = (Path(__file__).resolve().parents[1] / "src" / "sqz_core" / "pipeline.py").read_bytes()
    lines = source.splitlines(keepends=True)[:160]  # a fixed size, whatever pipeline.py grows to
    new = b"".join(lines)
    wide = ["\U0001F600" * 100 + f" {i}\n" for i in range(40)]
    old = b"".join(lines[:100] + [w.encode() for w in wide] + lines[140:])
    compress(old, command="cat pipeline.py", store=store, session="A")
    r = compress(new, command="cat pipeline.py", store=store, session="A")
    assert r.outcome != "delta" and r.output == new  # nothing smaller is possible: sent in full
    # the gate did run: such a delta would be longer in bytes and fail the token margin
    from sqz_core.dedup import render_delta

    body = "\n".join(render_delta(old.decode().split("\n"), new.decode().split("\n")))
    assert len(body.encode()) > len(new) and not net_win(estimate(new.decode()), estimate(body), "default")
    assert resolve(store, digest_of(new)[:16]) == new


def test_run_never_strips_a_trailer(tmp_path):
    """`sqz run` knows the status itself: a command printing this call's trailer keeps its bytes."""
    fake = "last line\n__SQZ_EXIT__=" + NONCE + ":9\n"
    env = dict(os.environ, SQZ_QUIET="1", SQZ_DAEMON="0", SQZ_DB_PATH=str(tmp_path / "db.sqlite"),
               SQZ_EXIT_NONCE=NONCE)
    r = subprocess.run([sys.executable, "-m", "sqz_core", "run", "--", sys.executable, "-c",
                        f"import sys; sys.stdout.write({fake!r})"], capture_output=True, env=env)
    assert (r.returncode, r.stdout) == (0, fake.encode())


def test_a_line_turned_crlf_in_a_real_diff_never_reads_as_an_identical_pair(store, tmp_path):
    """A patch's carriage returns and form feeds are content: whatever sqz sends, the -/+ pair differs."""
    env = {**os.environ, "GIT_AUTHOR_NAME": "Dev", "GIT_AUTHOR_EMAIL": "dev@example.org",
           "GIT_COMMITTER_NAME": "Dev", "GIT_COMMITTER_EMAIL": "dev@example.org", "LANG": "C"}
    repo = tmp_path / "r"
    repo.mkdir()

    def git(*args):
        return subprocess.run(["git", "-C", str(repo), *args], env=env, capture_output=True, check=True).stdout

    git("init", "-q")
    git("config", "core.autocrlf", "false")
    lines = [f"    value_{i} = compute_something_long({i}, factor={i * 3})\n" for i in range(60)]
    (repo / "m.py").write_text("".join(lines), newline="")
    git("add", ".")
    git("commit", "-qm", "base")
    for changed in ({30: lines[30][:-1] + "\r\n"}, {40: "\f" + lines[40]}):
        new = [changed.get(i, line) for i, line in enumerate(lines)]
        (repo / "m.py").write_text("".join(new), newline="")
        raw = git("diff", "-U15")
        (i, line), = changed.items()
        out = compress(raw, command="git diff -U15", store=store, session=f"s{i}").output.decode()
        assert f"-{lines[i]}" in out and f"+{line}" in out, (i, out)


def test_a_repeat_is_answered_from_the_store_before_any_scan(store, monkeypatch):
    """Hashed as it came and found served: the ref, with no clean-up and no safety scan again."""
    from pathlib import Path

    from sqz_core import pipeline, safety
    from sqz_testing import load_fixture

    fx = load_fixture(Path(__file__).resolve().parents[2] / "sqz_formatters_git/tests/fixtures/log/sqz_repo_stat.json")
    first = compress(fx.raw, command=fx.command, store=store, session="s")
    assert first.outcome == "compressed"

    def no_scan(*args, **kwargs):
        raise AssertionError("scanned again")

    monkeypatch.setattr(safety, "classify", no_scan)
    monkeypatch.setattr(pipeline, "clean_terminal", no_scan)
    again = compress(fx.raw, command=fx.command, store=store, session="s")
    assert again.outcome == "ref" and again.output.startswith("§ref:".encode())
    assert (again.est_in, again.plugin) == (first.est_in, "builtin")
    with pytest.raises(AssertionError, match="scanned again"):  # new content, or another session: scanned
        compress(fx.raw, command=fx.command, store=store, session="t")
