"""Property: on a failing run a declarative formatter never keeps fewer error lines than its
``on_failure`` rule promises, whatever its other rules say and whatever the output holds
(adversarial lines: near-misses of the error patterns, escape codes, repeats, lines past a
pattern's length cap, blank runs)."""

from __future__ import annotations

import re
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sqz_core.api import strip_escapes
from sqz_formatters_declarative.compile import compile_text
from sqz_formatters_declarative.engine import apply

ERROR_PATTERNS = ["^fatal: ", "FAILED!", r"^E\d+ ", r"error\[E\d{4}\]", "x.*y.*z"]  # the last: cap 256
OTHER_PATTERNS = [".", "^fatal", "^ok", r"\d", "^$", "FAILED", "^  ", "e"]

FRAGMENTS = ["fatal: ", "fatal:", "FAILED!", "FAILED", "E12 ", "E12", "error[E0308]", "error[E03]", "ok: ", "x", "y",
             "z", "  ", "\x1b[31m", "\x1b[0m", "progress 10%", "", "\t", "é", "→"]
line = st.one_of(
    st.lists(st.sampled_from(FRAGMENTS), max_size=6).map("".join),
    st.builds(lambda n: "x" + "a" * n + "y z", st.integers(250, 300)),  # past the cap of x.*y.*z
    st.text(alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\n\r"), max_size=20),
)
lines = st.lists(line, max_size=60).flatmap(
    lambda ls: st.lists(st.integers(1, 4), min_size=len(ls), max_size=len(ls)).map(
        lambda reps: [x for x, r in zip(ls, reps) for _ in range(r)]))  # runs of identical lines


def yaml_list(items) -> str:
    return "[" + ", ".join("'" + p.replace("'", "''") + "'" for p in items) + "]"


@st.composite
def specs(draw):
    errors = draw(st.lists(st.sampled_from(ERROR_PATTERNS), min_size=1, max_size=3, unique=True))
    parts = ["name: p", "match: {program: tool}", f"on_failure:\n  errors: {yaml_list(errors)}",
             f"  context: {draw(st.integers(0, 2))}"]
    for key in ("drop", "keep", "fold"):
        chosen = draw(st.lists(st.sampled_from(OTHER_PATTERNS + ERROR_PATTERNS), max_size=3, unique=True))
        if chosen:
            parts.append(f"{key}: {yaml_list(chosen)}")
    for key in ("head", "tail"):
        if draw(st.booleans()):
            parts.append(f"{key}: {draw(st.integers(0, 5))}")
    parts.append(f"fold_identical: {str(draw(st.booleans())).lower()}")
    parts.append(f"fold_similar: {str(draw(st.booleans())).lower()}")
    parts.append(f"fold_min: {draw(st.integers(3, 5))}")
    parts.append(f"strip_ansi: {str(draw(st.booleans())).lower()}")
    specs, errors_found = compile_text("\n".join(parts) + "\n", "p.yaml", "user")
    assert errors_found == []
    return specs[0]


def promised(spec: dict, text: str) -> Counter:
    """The lines the on_failure rule promises to keep, counted: each line matching an error pattern,
    and each line too long to be tested against one (the guard keeps those too)."""
    body = strip_escapes(text) if spec["strip_ansi"] else text
    out = Counter()
    for ln in body.split("\n")[: -1 if body.endswith("\n") else None]:
        if any(len(ln) > cap or re.search(p, ln) for p, cap in spec["errors"]):
            out[ln] += 1
    return out


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(spec=specs(), body=lines, exit_code=st.sampled_from([1, 2, 127, -9, None]), newline=st.booleans())
def test_a_failing_run_keeps_every_promised_line(spec, body, exit_code, newline):
    text = "\n".join(body) + ("\n" if newline and body else "")
    out = apply(spec, text, exit_code)
    if out == text:  # sent as printed (the rendering would not be shorter): every line is there, escapes and all
        return
    kept = Counter(out.split("\n"))
    for ln, n in promised(spec, text).items():
        assert kept[ln] >= n, (ln, n, kept[ln])


@settings(max_examples=100, deadline=None)
@given(spec=specs(), body=lines)
def test_never_longer_than_its_input(spec, body):
    text = "\n".join(body) + "\n"
    for exit_code in (0, 1):
        assert len(apply(spec, text, exit_code)) <= len(text)
