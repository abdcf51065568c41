"""node --test: facts survive, noise is dropped, near misses give None, snapshots hold."""

from __future__ import annotations

from fmt_test_suite import FormatterSuite, cut_tail, other, text_of
from sqz_formatters_test import js_node_test as formatter

suite = FormatterSuite(formatter, "node")
ask = suite.ask
globals().update(suite.standard_tests(
    complete={'green_spec', 'green_tap', 'red_spec', 'red_tap'},
    ratios={'red_tap': 0.5, 'green_tap': 0.11, 'green_spec': 0.23, 'red_spec': 0.4}))


def test_near_miss_not_the_test_runner():
    assert ask(text_of("node", "red_tap"), "node ntests/math.test.mjs", 1) is None
    assert ask(text_of("node", "red_tap"), "node --test --test-reporter=dot ntests/", 1) is None
    assert ask(text_of("jest", "red_default"), "node --test", 1) is None


def test_near_miss_truncated_run():
    assert ask(cut_tail(text_of("node", "red_tap"), 8), "node --test ntests/", 1) is None
    assert ask(cut_tail(text_of("node", "red_spec"), 70), "node --test --test-reporter=spec ntests/", 1) is None


def test_spec_folds_node_internal_frames_and_the_repeated_failure_details():
    """Every program frame, error line and `test at` location stays; node's own frames are counted
    and the `failing tests:` summary does not repeat details the report already showed."""
    fx = other("node", "red_spec")
    text, out = fx.request().text, suite.run(fx)
    kept = out.splitlines()
    for line in text.splitlines():
        if "file:///" in line or line.startswith("test at ") or "Error" in line and line.strip()[0].isupper():
            assert line in kept or line.strip() in (x.strip() for x in kept), line
    assert "node:internal/test_runner/test:796:25" not in out
    assert "        [6 frames in node:async_hooks, node:internal/test_runner/test] {" in kept
    assert out.count("  (details as in the report above)") == 3
    assert out.count("operator: 'strictEqual'") == 1
