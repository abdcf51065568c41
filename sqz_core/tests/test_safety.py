"""Safety routing on real outputs: what is sensitive reaches the model verbatim and is never served from cache."""

from pathlib import Path

import pytest

from sqz_core.cleanup import clean_terminal
from sqz_core.pipeline import compress
from sqz_core.runnable import encode
from sqz_core.safety import classify, keeps_paragraphs
from sqz_core.store import Store
from sqz_testing import iter_fixtures, missing_facts

FIXTURES = {f.name: f for f in iter_fixtures(Path(__file__).parent / "fixtures" / "safety")}
STACKS = {
    "python_traceback": "python-traceback",
    "jvm_stacktrace": "jvm-stacktrace",
    "node_stacktrace": "js-stacktrace",
    "rust_backtrace": "rust-backtrace",
    "go_panic": "go-goroutine",
}
SECRETS = {"pem_private_key": "pem-block", "env_credentials": "credential-line"}


def test_fixture_set_is_complete():
    assert set(STACKS) | set(SECRETS) | {"sqlite_schema"} <= set(FIXTURES)


@pytest.mark.parametrize("name,reason", sorted(STACKS.items()))
def test_stack_traces_are_safe_but_not_secret(name, reason):
    verdict = classify(clean_terminal(FIXTURES[name].text))
    assert verdict is not None and verdict.level == "safe"
    assert reason in verdict.reason
    assert not verdict.secret
    assert verdict.spans


@pytest.mark.parametrize("name,reason", sorted(SECRETS.items()))
def test_secrets_are_secret(name, reason):
    verdict = classify(FIXTURES[name].text)
    assert verdict.level == "safe" and verdict.secret
    assert reason in verdict.reason


def test_aws_key_id_is_detected_as_a_secret_token():
    verdict = classify("AWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE\n")
    assert verdict.secret and "secret-token" in verdict.reason


def test_sql_ddl_is_safe():
    verdict = classify(FIXTURES["sqlite_schema"].text)
    assert verdict.level == "safe" and "sql-ddl" in verdict.reason


@pytest.mark.parametrize("line", [
    "log: user changed their password successfully",
    "the build panicked earlier but recovered",
    "max_tokens = 4096",
    "token_count: 12",
    "we should create table layouts for the report",
    "see Traceback handling in docs",
])
def test_mentions_are_not_safe(line):
    assert classify(line + "\n") is None


@pytest.mark.parametrize("name", sorted(set(STACKS) | set(SECRETS) | {"sqlite_schema"}))
def test_sensitive_fixture_passes_through_and_is_never_stored(name, tmp_path):
    fx = FIXTURES[name]
    store = Store.open(str(tmp_path / "db.sqlite"))
    result = compress(fx.raw, command=fx.command, store=store, session="s1")
    assert result.outcome == "safe"
    out = result.output.decode()
    # whatever was folded around it, every paragraph holding the sensitive lines is intact
    assert keeps_paragraphs(clean_terminal(fx.text), clean_terminal(out), classify(clean_terminal(fx.text)).spans)
    assert missing_facts(out, fx.facts) == []
    stored = store.find_hashes("", limit=10)
    if name in SECRETS:
        assert stored == []  # a secret with no exact extent (a PEM file, .env lines): nothing kept
    else:
        # issue 25.3: the rest around a trace may be compressed; then only the original is kept, for expand
        assert out == fx.text or stored == [result.digest]
        assert all(store.get_blob(h) == fx.raw for h in stored)
    again = compress(fx.raw, command=fx.command, store=store, session="s1")
    assert again.outcome == "safe" and "§ref:" not in again.output.decode()


def test_python_traceback_fixture_folds_only_outside_the_trace(tmp_path):
    fx = FIXTURES["python_traceback"]
    result = compress(fx.raw, command=fx.command, store=Store.open(str(tmp_path / "db.sqlite")))
    out = result.output.decode()
    tb_start = fx.text.index("Traceback")
    assert fx.text[tb_start:] in out
    assert "processing item 0" in out and "processing item 29" in out


def test_keeps_paragraphs_detects_a_missing_frame():
    fx = FIXTURES["jvm_stacktrace"]
    text = clean_terminal(fx.text)
    spans = classify(text).spans
    damaged = text.replace("\tat Main.parse(Main.java:2)\n", "")
    assert keeps_paragraphs(text, text, spans)
    assert not keeps_paragraphs(text, damaged, spans)


def test_a_tag_only_log_line_ends_a_paragraph():
    """Maven prints "[INFO] " where other tools print a blank line: protection stops there."""
    from sqz_core.safety import paragraphs_holding
    from sqz_testing import load_fixture

    fx = load_fixture(Path(__file__).resolve().parents[2] / "sqz_formatters_test" / "tests" / "fixtures" / "maven"
                      / "test_fail.json")
    text = clean_terminal(fx.text)
    lines = text.split("\n")
    verdict = classify(text)
    assert verdict is not None and "jvm-stacktrace" in verdict.reason
    held = paragraphs_holding(lines, verdict.spans)
    protected = {i for a, b in held for i in range(a, b + 1)}
    assert not any("Scanning for projects" in lines[i] for i in protected)
    assert any("at demo.CalcTest.wrongSum(CalcTest.java:15)" in lines[i] for i in protected)


def _maven_colour_fail():
    from sqz_testing import load_fixture

    fx = load_fixture(Path(__file__).resolve().parents[2] / "sqz_formatters_test" / "tests" / "fixtures" / "maven"
                      / "test_fail.json")
    assert "\x1b[" in fx.text
    return fx


def test_safe_output_without_a_store_is_unchanged_byte_for_byte():
    """Maven's coloured test failure (a real run) with stack traces, and no store to keep the original:
    not even its colour codes go (issue 29.6: a change nothing could recover is not made)."""
    fx = _maven_colour_fail()
    result = compress(fx.raw, command=fx.command, store=None, formatters=False)
    assert result.outcome == "safe"
    assert result.output == fx.raw


def test_safe_output_the_generic_stages_would_strip_is_unchanged_and_unstored(tmp_path):
    """The same output with a store but no formatter: the generic folding of safe content is never
    stored, so its colour codes could not be given back; the output goes unchanged."""
    fx = _maven_colour_fail()
    store = Store.open(str(tmp_path / "db.sqlite"))
    result = compress(fx.raw, command=fx.command, store=store, formatters=False)
    assert result.outcome == "safe"
    assert result.output == fx.raw
    assert store.find_hashes("", limit=10) == []


def test_safe_output_a_formatter_renders_is_recoverable(tmp_path):
    """With its formatter (Maven's reports its own traces): colour codes and all go, the original is
    stored and the last line names it; every trace paragraph is kept."""
    from sqz_core.expand import resolve

    fx = _maven_colour_fail()
    store = Store.open(str(tmp_path / "db.sqlite"))
    result = compress(fx.raw, command=fx.command, store=store)
    out = result.output.decode()
    assert out != fx.text and "\x1b" not in out
    assert out.endswith(f"expand {encode(result.digest)}]\n")  # the decimal id of the original's hash
    assert resolve(store, encode(result.digest)) == fx.raw
    assert missing_facts(out, fx.facts) == []


def test_a_secret_with_colour_codes_passes_byte_for_byte(tmp_path):
    """A real ``grep --color=always`` of credential lines: secret content is never changed (its escape
    sequences stay: nothing of it is stored, so no change could be recovered) and nothing is stored."""
    fx = FIXTURES["env_credentials_grep_color"]
    assert "\x1b[" in fx.text
    store = Store.open(str(tmp_path / "db.sqlite"))
    result = compress(fx.raw, command=fx.command, store=store, session="s1")
    assert result.outcome == "safe"
    assert result.output == fx.raw
    assert store.find_hashes("", limit=10) == []


def _log_fixture(name):
    from sqz_testing import load_fixture

    return load_fixture(Path(__file__).resolve().parents[2] / "sqz_formatters_generic" / "tests" / "fixtures" / "kinds"
                        / "log" / f"{name}.json")


def test_a_trace_in_a_log_is_protected_up_to_its_exception_line():
    """A real logging.exception log has no blank lines: protection ends with the trace, not the log."""
    from sqz_core.safety import paragraphs_holding

    text = _log_fixture("app_worker_traces").text
    lines = text.split("\n")
    held = paragraphs_holding(lines, classify(text).spans)
    assert len(held) == 6
    for a, b in held:
        assert lines[a] == "Traceback (most recent call last):"
        assert lines[b] in ("KeyError: 'payload'", "ValueError: invalid literal for int() with base 10: '12kb'")


def test_a_log_with_repeated_tracebacks_is_compressed_around_one_verbatim_copy(tmp_path):
    from sqz_core.expand import resolve

    fx = _log_fixture("app_worker_traces")
    store = Store.open(str(tmp_path / "db.sqlite"))
    result = compress(fx.raw, command=fx.command, store=store)
    out = result.output.decode()
    assert result.outcome == "safe"
    # the log kind's folding is lossy: the original is kept and the output says how to get it
    assert out.endswith(f"expand {encode(result.digest)}]\n")  # the decimal id of the original's hash
    assert resolve(store, encode(result.digest)) == fx.raw
    assert missing_facts(out, fx.facts) == []
    first = fx.text.index("Traceback")
    block = fx.text[first:fx.text.index("KeyError: 'payload'\n") + len("KeyError: 'payload'\n")]
    assert block in out and out.count(block) == 1
    for k in range(2, 6):  # the four later copies: one counted line each, where they were
        assert f"[sqz: the same 5-line stack trace as above, copy {k} of 5]" in out
        assert f"will retry (attempt {k})\n[sqz: the same 5-line stack trace as above, copy {k} of 5]\n" in out
    assert out.count("GET /healthz 200") <= 30  # of 120: the INFO records around the traces are folded
    assert keeps_paragraphs(fx.text, out, classify(fx.text).spans)
    assert len(out) < len(fx.text) // 2


def test_a_formatters_lossy_summary_of_safe_content_needs_a_store():
    """Without a store nothing could be recovered: only the generic (lossless) folds may apply."""
    fx = _log_fixture("app_worker_traces")
    result = compress(fx.raw, command=fx.command, store=None)
    assert result.outcome == "safe" and result.plugin is None
    assert "sqz expand" not in result.output.decode()


def test_fold_repeated_traces_keeps_different_traces_and_single_ones():
    from sqz_core.safety import fold_repeated_traces

    text = FIXTURES["python_traceback"].text
    assert fold_repeated_traces(text, classify(text).spans) == text
    assert fold_repeated_traces(text, ()) == text


def test_a_java_log_with_repeated_exceptions_keeps_one_whole_trace(tmp_path):
    """java.util.logging: each SEVERE record's trace (exception, frames, Caused by, "... 2 more") is
    protected as it stands; the four later identical copies fold and the INFO records around fold."""
    fx = _log_fixture("java_worker_traces")
    verdict = classify(fx.text)
    lines = fx.text.split("\n")
    spans = [s for s in verdict.spans]
    assert len(spans) == 5 and all(s[2] == "trace" for s in spans)
    for a, b, _ in spans:
        assert lines[a] == "java.lang.IllegalStateException: bad payload in job 7"
        assert lines[b] == "\t... 2 more"
    out = compress(fx.raw, command=fx.command, store=Store.open(str(tmp_path / "db.sqlite"))).output.decode()
    block = "\n".join(lines[spans[0][0]:spans[0][1] + 1])
    assert out.count(block) == 1
    assert out.count("[sqz: the same 10-line stack trace as above, copy") == 4
    assert missing_facts(out, fx.facts) == []
    assert len(out) < len(fx.text) // 3


def test_a_rust_backtrace_is_protected_from_its_panic_line():
    text = FIXTURES["rust_backtrace"].text
    lines = text.split("\n")
    spans = [s for s in classify(text).spans if lines[s[0]].startswith("thread '")]
    assert spans and " panicked at " in lines[spans[0][0]]
    assert lines[spans[0][0] + 1].strip()  # the panic message is inside the protected block


def test_an_exception_messages_indented_lines_are_protected_with_it():
    """A real interpreter run: the exception's message continues on indented lines."""
    import subprocess
    import sys

    code = "import sys\nprint('before', flush=True)\nraise ValueError('2 errors\\n  name: required\\n  age: not an int')"
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    text = proc.stdout + proc.stderr + "after: worker restarted\n"
    lines = text.split("\n")
    (a, b, kind), = classify(text).spans
    assert lines[a] == "Traceback (most recent call last):" and kind == "trace"
    assert lines[b] == "  age: not an int" and lines[b + 1] == "after: worker restarted"


from hypothesis import given, settings
from hypothesis import strategies as st

_TRACES = [
    # copies of two real tracebacks from the worker log fixture (an identical pair must fold)
    "Traceback (most recent call last):\n  File \"<string>\", line 19, in <module>\n"
    "  File \"<string>\", line 10, in handle\n  File \"<string>\", line 7, in parse\nKeyError: 'payload'",
    "Traceback (most recent call last):\n  File \"<string>\", line 24, in <module>\n"
    "  File \"<string>\", line 13, in size\nValueError: invalid literal for int() with base 10: '12kb'",
]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.one_of(st.integers(0, 1), st.from_regex(r"INFO worker: GET /healthz 200 [0-9]ms", fullmatch=True)),
                min_size=1, max_size=30))
def test_fold_repeated_traces_keeps_each_first_copy_and_every_other_line(items):
    from sqz_core.safety import fold_repeated_traces

    text = "\n".join(_TRACES[x] if isinstance(x, int) else x for x in items) + "\n"
    verdict = classify(text)
    spans = verdict.spans if verdict else ()
    out = fold_repeated_traces(text, spans)
    expected_lines = []
    seen = set()
    counts = {k: sum(1 for x in items if x == k) for k in (0, 1)}
    copies = {0: 0, 1: 0}
    for x in items:
        if isinstance(x, int):
            copies[x] += 1
            if x in seen:
                expected_lines.append(f"[sqz: the same {_TRACES[x].count(chr(10)) + 1}-line stack trace as above, "
                                      f"copy {copies[x]} of {counts[x]}]")
            else:
                seen.add(x)
                expected_lines.extend(_TRACES[x].split("\n"))
        else:
            expected_lines.append(x)
    assert out == "\n".join(expected_lines) + "\n"
    assert keeps_paragraphs(text, out, spans)



def test_a_reporters_rendering_of_the_whole_report_wins_when_shorter(tmp_path):
    # node --test spec output (node v20.20.2, sqz_formatters_test/tests/fixtures/node/h2_spec_multi): the same
    # stack repeats; the core's trace fold runs first, but the reporter's own "as above" is shorter
    from sqz_core.request import FormatRequest
    from sqz_core.tokens import estimate
    from sqz_formatters_test import js_node_test

    root = Path(__file__).parents[2] / "sqz_formatters_test/tests/fixtures/node"
    raw = (root / "h2_spec_multi.txt").read_bytes()
    command = "node --test --test-reporter=spec nh2/"
    store = Store.open(str(tmp_path / "db.sqlite"))
    try:
        result = compress(raw, command=command, store=store, no_cache=True)
    finally:
        store.close()
    own = js_node_test.sqz_format(request=FormatRequest(raw.decode(), command))
    body = result.output.decode().rsplit("\n", 2)[0]  # without the recovery line
    assert result.outcome == "compressed" and own is not None
    assert estimate(body) <= estimate(own.rstrip("\n")) + 2
