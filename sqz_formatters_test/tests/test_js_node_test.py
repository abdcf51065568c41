"""node --test: facts survive, noise is dropped, near misses give None, snapshots hold."""

from __future__ import annotations

from fmt_test_suite import FormatterSuite, cut_tail, text_of
from sqz_formatters_test import js_node_test as formatter

suite = FormatterSuite(formatter, "node")
ask = suite.ask
globals().update(suite.standard_tests(
    complete={'green_spec', 'green_tap', 'red_spec', 'red_tap'},
    ratios={'red_tap': 0.68, 'green_tap': 0.11, 'green_spec': 0.23, 'red_spec': 0.95}))


def test_near_miss_not_the_test_runner():
    assert ask(text_of("node", "red_tap"), "node ntests/math.test.mjs", 1) is None
    assert ask(text_of("node", "red_tap"), "node --test --test-reporter=dot ntests/", 1) is None
    assert ask(text_of("jest", "red_default"), "node --test", 1) is None


def test_near_miss_truncated_run():
    assert ask(cut_tail(text_of("node", "red_tap"), 8), "node --test ntests/", 1) is None
    assert ask(cut_tail(text_of("node", "red_spec"), 70), "node --test --test-reporter=spec ntests/", 1) is None
