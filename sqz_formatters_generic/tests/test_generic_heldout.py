"""The held-out set (tests/fixtures/generic): real outputs no per-command formatter knows, run
through the whole pipeline. What must hold for every one: no crash, every fact kept by the core's
generic stages, file content and diffs unchanged, secrets and stack traces never stored; and what
the two kinds it led to (``runs``, ``columns``) keep and drop on it."""

from __future__ import annotations

from pathlib import Path

import pytest

from sqz_core.cleanup import clean_terminal
from sqz_core.pipeline import compress
from sqz_core.store import Store
from sqz_testing import iter_fixtures, load_fixture, missing_facts

HERE = Path(__file__).parent
HELD_OUT = iter_fixtures(HERE / "fixtures" / "generic")
BY_NAME = {fx.name: fx for fx in HELD_OUT}
FILE_READS = ("cat_requests_sessions", "head_rich_console")
SAFE = {"env_with_tokens": True, "make_check_python": False, "node_uncaught_enoent": False}  # name -> secret


def _store(tmp_path):
    return Store.open(str(tmp_path / "db.sqlite"))


def _run(fx, tmp_path, **kw):
    return compress(fx.raw, command=fx.command, store=_store(tmp_path), session="s1", **kw)


def test_held_out_set_is_there():
    assert len(HELD_OUT) >= 20
    assert all(fx.meta.get("produced_by") and fx.facts for fx in HELD_OUT)


@pytest.mark.parametrize("fx", HELD_OUT, ids=lambda fx: fx.name)
def test_generic_pipeline_keeps_every_fact(fx, tmp_path):
    """The core alone (formatters off): what this area owns keeps every fact of every output."""
    r = _run(fx, tmp_path, formatters=False)
    out = r.output.decode()
    assert missing_facts(out, fx.facts) == []
    assert len(r.output) <= len(fx.raw)


@pytest.mark.parametrize("name", FILE_READS)
@pytest.mark.parametrize("how", ["command", "tool"])
def test_file_reads_are_never_summarised(name, how, tmp_path):
    fx = BY_NAME[name]
    kw = {"command": fx.command} if how == "command" else {"tool": "read_file"}
    r = compress(fx.raw, store=_store(tmp_path), session="s1", **kw)
    assert r.output == fx.raw
    assert r.outcome in ("passthrough", "gate", "safe")


def test_a_diff_between_two_files_goes_out_unchanged(tmp_path):
    fx = BY_NAME["diff_u_dataclasses"]
    assert _run(fx, tmp_path).output == fx.raw


@pytest.mark.parametrize("name,secret", sorted(SAFE.items()))
def test_secrets_and_traces_pass_unchanged_and_are_never_stored(name, secret, tmp_path):
    fx = BY_NAME[name]
    store = _store(tmp_path)
    r = compress(fx.raw, command=fx.command, store=store, session="s1")
    assert r.outcome == "safe" and not r.stored
    assert r.output == fx.raw
    assert store.find_hashes("", limit=10) == []
    again = compress(fx.raw, command=fx.command, store=store, session="s1")
    assert "§ref:" not in again.output.decode() and not again.stored


def test_env_secret_values_are_what_makes_it_safe():
    from sqz_core.safety import classify

    verdict = classify(BY_NAME["env_with_tokens"].text)
    assert verdict.secret and "secret-token" in verdict.reason


# ------------------------------------------------------------------ runs on the held-out set
def _kind_out(name: str, kind: str) -> tuple[str, str]:
    from sqz_formatters_generic.kinds import compress_kind, detect_kind

    fx = BY_NAME[name]
    req = fx.request()
    assert detect_kind(req.text, req) == kind
    out = compress_kind(kind, req)
    assert out is not None
    return req.text, out


def test_training_progress_keeps_each_epochs_first_and_last_step_and_every_summary():
    raw, out = _kind_out("python_train_progress", "runs")
    lines = out.split("\n")
    for epoch in range(1, 13):
        assert f"epoch {epoch:2d}/12 step   0/400" in out and f"epoch {epoch:2d}/12 step 380/400" in out
        assert f"epoch {epoch:2d}/12 step 200/400" not in out  # the middle of each run goes
    for line in raw.split("\n"):
        if "done:" in line or "checkpoint" in line or "WARNING" in line or "finished" in line:
            assert line in lines
    assert out.count("[sqz: 18 more lines like these: step 20–360, loss=") == 12
    assert len(out) * 3 < len(raw)


def test_strace_attach_lines_fold_and_the_syscall_table_stays():
    raw, out = _kind_out("strace_c_python", "runs")
    assert "strace: Process 20064 attached" in out and "strace: Process 20177 attached" in out
    assert "strace: Process 20101 attached" not in out
    assert "[sqz: 38 more lines like these: Process 20065–20167]" in out
    table = raw[raw.index("% time"):]
    assert table in out


def test_certificate_hex_dumps_fold_and_every_field_stays():
    raw, out = _kind_out("openssl_x509_text", "runs")
    assert "[sqz: 15 more lines of hex bytes like these]" in out  # the modulus
    assert "[sqz: 13 more lines of hex bytes like these]" in out  # the signature
    for line in raw.split("\n"):
        if ":" in line.replace(":", "", 1) and not line.strip()[:2].isalnum():
            continue
        if not all(len(p) == 2 for p in line.strip().rstrip(":").split(":")):
            assert line in out.split("\n")  # every line that is not hex bytes
    assert "32:82:fb:f2:61:5d:8a:cc:d1:90:7b:51:9c:be:92:" not in out


# ------------------------------------------------------------------ columns on the held-out set
@pytest.mark.parametrize("name", ["tar_tvf_requests", "zipinfo_rich_wheel"])
def test_archive_listings_keep_every_entry_with_its_size_and_mode(name):
    raw, out = _kind_out(name, "columns")
    shown = out.split("\n")
    for line in raw.split("\n"):
        fields = line.split()
        if len(fields) >= 6 and fields[0][1:4] in ("rw-", "rwx", "r-x", "r--"):
            mode, size, path = fields[0], fields[2] if name.startswith("tar") else fields[3], fields[-1]
            assert any(s.startswith(mode) and f" {size} " in s and s.endswith(path) for s in shown), line
    assert len(out) < len(raw)


def test_tar_listing_states_owner_and_date_once():
    _, out = _kind_out("tar_tvf_requests", "columns")
    assert out.split("\n")[0] == "[sqz: on each line below not shown whole: field 2 root/root, field 4 2026-12-01, field 5 10:10]"
    assert out.count("root/root") == 1


def test_zipinfo_moves_out_the_compound_values_every_entry_shares():
    raw, out = _kind_out("zipinfo_rich_wheel", "columns")
    assert "[sqz: on each line below not shown whole: field 5 b-, field 7 80-Jan-01, field 8 00:00]" in out
    # 2.0, unx and defN are plain words: they stay on every line
    assert "-rw-r--r-- 2.0 unx 6066 defN rich/__init__.py" in out.split("\n")
    record = next(line for line in raw.split("\n") if line.endswith("RECORD"))
    assert record in out.split("\n")  # its date is not the wheel's common one: kept whole
    assert "Zip file size: 242424 bytes, number of entries: 83" in out


def test_an_ls_style_date_is_never_split():
    # BSD tar / ls -l: the date is three fields; a constant time beside a constant day stays on its line
    rows = [f"-rw-r--r--  1 dev staff  {100 + i} Nov 30 04:37 f{i}.txt" for i in range(15)]
    from sqz_formatters_generic.kinds.constant_columns import compress_columns
    from sqz_core.request import FormatRequest

    assert compress_columns(FormatRequest("\n".join(rows), "tar -tvf x.tar")) is None


def test_unzip_l_is_a_table_with_a_header_and_is_left_alone():
    from sqz_formatters_generic.kinds import compress_kind

    assert compress_kind("columns", BY_NAME["unzip_l_rich_wheel"].request()) is None


def test_whole_pipeline_result_is_recoverable(tmp_path):
    import re

    from sqz_core.expand import unique_hash

    store = _store(tmp_path)
    for name in ("python_train_progress", "tar_tvf_requests", "openssl_x509_text"):
        fx = BY_NAME[name]
        r = compress(fx.raw, command=fx.command, store=store, session="s1")
        assert r.outcome == "compressed" and r.plugin == "generic"  # the generic pack's kinds
        last = r.output.decode().rstrip("\n").rsplit("\n", 1)[-1]
        rid = re.fullmatch(r"\[\S*sqz expand (n[0-9]{15,})\]", last).group(1)
        assert store.get_blob(unique_hash(store, rid)) == fx.raw

