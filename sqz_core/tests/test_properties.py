"""Property tests: arbitrary text and bytes never crash the pipeline, never grow, and refs expand exactly."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sqz_core.cleanup import clean_terminal, fold_repeats
from sqz_core.expand import resolve
from sqz_core.pipeline import compress
from sqz_core.store import Store

COMMANDS = st.sampled_from([None, "git status", "pytest -q", "cat app.py", "ls -la", "npm test", "kubectl get pods"])
# text that exercises the stages: repeats, escapes, carriage returns, unicode
ALPHABET = st.sampled_from(list("ab \n\r\t\x1b[0m;") + ["é", "字", "🙂", "\u0301", "line\n", "same\nsame\n"])
TEXTS = st.lists(ALPHABET, max_size=400).map("".join) | st.text(max_size=400)


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    s = Store.open(str(tmp_path_factory.mktemp("prop") / "db.sqlite"))
    yield s
    s.close()


SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


@SETTINGS
@given(data=st.binary(max_size=2000), command=COMMANDS)
def test_arbitrary_bytes_never_crash_or_grow(store, data, command):
    result = compress(data, command=command, store=store, session="prop")
    assert isinstance(result.output, bytes)
    assert len(result.output) <= len(data)


@SETTINGS
@given(text=TEXTS, command=COMMANDS)
def test_arbitrary_text_is_valid_utf8_and_not_longer(store, text, command):
    data = text.encode("utf-8", "surrogatepass")
    result = compress(data, command=command, store=store, session="prop-text")
    assert len(result.output) <= len(data)
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        assert result.output == data
    else:
        result.output.decode("utf-8")  # every cut landed on a character boundary


@SETTINGS
@given(text=st.text(min_size=200, max_size=800))
def test_ref_expands_to_the_exact_original(store, text):
    data = text.encode("utf-8", "surrogatepass")
    compress(data, store=store, session="refs")
    second = compress(data, store=store, session="refs")
    if second.outcome == "ref":
        assert resolve(store, second.output.decode().split()[0]) == data


@SETTINGS
@given(text=TEXTS)
def test_lossy_result_expands_to_the_exact_original(store, text):
    data = (text * 5).encode("utf-8", "surrogatepass")
    result = compress(data, store=store, session=None, no_cache=True)
    if b"sqz expand " in result.output:
        digest = result.output.decode().rsplit("sqz expand ", 1)[1][:16]
        assert resolve(store, digest) == data


@given(text=st.text(max_size=300))
def test_clean_up_is_idempotent(text):
    once = fold_repeats(clean_terminal(text))
    assert fold_repeats(clean_terminal(once)) == once or "[×" in once or "repeat ×" in once
