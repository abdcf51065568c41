"""Property tests: arbitrary text and bytes never crash the pipeline, never grow, and refs expand exactly."""

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from sqz_core.cleanup import clean_terminal, fold_repeats
from sqz_core.expand import resolve
from sqz_core.pipeline import compress
from sqz_core.runnable import find_recovery
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


# Printable text with newlines: no NUL (binary) and no lone surrogates, so the content is
# always cacheable text of at least MIN_REF_BYTES and a repeat must become a ref.
REF_TEXTS = st.text(alphabet=st.characters(blacklist_categories=("Cs", "Cc")) | st.just("\n"),
                    min_size=200, max_size=800).filter(lambda t: len(t.encode()) >= 200)


def test_ref_expands_to_the_exact_original(store):
    """Every repeat of non-safe text within a session is a ref that expands byte-exact."""
    counts = {"cases": 0, "asserted": 0}

    @SETTINGS
    @given(text=REF_TEXTS)
    def check(text):
        data = text.encode("utf-8")
        first = compress(data, store=store, session="refs")
        assume(first.outcome != "safe")  # safe content is never cached, by design
        counts["cases"] += 1
        second = compress(data, store=store, session="refs")
        assert second.outcome == "ref", (first, second)
        assert resolve(store, second.output.decode().split()[0]) == data
        counts["asserted"] += 1

    check()
    assert counts["asserted"] == counts["cases"] >= 100, counts


# Output that is lossy by construction: runs of the same line (folded to one line with a count),
# progress redraws (only the last frame is visible on a terminal) and colour codes.
WORDS = st.sampled_from(["building", "module", "ok", "waiting", "for", "step", "the", "cache", "done", "tests"])
LINE = st.lists(WORDS, min_size=2, max_size=6).map(" ".join)
RUN = st.tuples(LINE, st.integers(min_value=20, max_value=60)).map(lambda lr: (lr[0] + "\n") * lr[1])
REDRAW = st.tuples(LINE, st.integers(min_value=20, max_value=60)).map(
    lambda lr: "".join(f"{lr[0]} {i}%\r" for i in range(lr[1])) + lr[0] + " done\n")
COLOUR = LINE.map(lambda l: f"\x1b[1;32m{l}\x1b[0m\n")
LOSSY = st.lists(st.one_of(RUN, REDRAW, COLOUR, LINE.map(lambda l: l + "\n")), min_size=1, max_size=8).filter(
    lambda parts: any(p.count("\n") >= 20 or p.count("\r") >= 20 for p in parts)).map("".join)


def test_lossy_result_expands_to_the_exact_original(store):
    """Every compressed result of lossy-by-construction output restores the exact original."""
    counts = {"cases": 0, "asserted": 0}

    @SETTINGS
    @given(text=LOSSY, command=st.sampled_from([None, "make", "npm run build", "./run.sh"]))
    def check(text, command):
        data = text.encode("utf-8")
        counts["cases"] += 1
        result = compress(data, command=command, store=store, session=None, no_cache=True)
        assert result.outcome == "compressed", result
        assert len(result.output) < len(data)
        assert resolve(store, result.digest) == data
        line = find_recovery(result.output.decode())
        if line is not None:  # a recovery line names the same original
            assert result.output.endswith(f"[{line[0]} expand {line[1]}]\n".encode())
            assert resolve(store, line[1]) == data
        counts["asserted"] += 1

    check()
    assert counts["asserted"] == counts["cases"] >= 150, counts


@given(text=st.text(max_size=300))
def test_clean_up_is_idempotent(text):
    once = fold_repeats(clean_terminal(text))
    assert fold_repeats(clean_terminal(once)) == once or "[×" in once or "repeat ×" in once
