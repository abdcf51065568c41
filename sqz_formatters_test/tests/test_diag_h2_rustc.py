"""clippy-driver (handled by ``rust_rustc``): rustc's output with clippy's lints, reduced the same way."""

from __future__ import annotations

import re

from fmt_test_suite import text_of
from sqz_core import FormatRequest

from sqz_formatters_test import rust_rustc

CLIPPY = "clippy-driver --crate-type lib --edition 2018 -W clippy::pedantic src/lib.rs"


def ask(text: str, command: str):
    return rust_rustc.sqz_format(request=FormatRequest(text, command, exit_code=0))


def test_every_warning_keeps_its_message_and_location():
    """Not a sample: each ``warning: …`` header of the raw output stands with its ``-->`` location."""
    raw = text_of("rustc", "h2_humantime_clippy_pedantic")
    out = ask(raw, CLIPPY)
    assert out is not None and len(out) < 0.6 * len(raw)
    pairs = re.findall(r"^(warning: .*)\n +--> (\S+:\d+:\d+)$", raw, re.MULTILINE)
    assert len(pairs) == 55
    for head, loc in pairs:
        # after the message may come the lint a repeat names only in its dropped link (``[clippy::op_ref]``), or
        # ``(notes as above)`` for notes said word for word at an earlier warning
        assert re.search(rf"^{re.escape(head)}(?: \[clippy::\w+\])?(?: \(notes as above\))? --> {re.escape(loc)}$",
                         out, re.MULTILINE), loc
    assert "warning: 55 warnings emitted" in out
    # each lint is named where it first fires; the echoed source goes
    for lint in set(re.findall(r"`-W (clippy::[\w-]+)` implied by", raw)):
        assert f"`-W {lint}` implied by `-W clippy::pedantic`" in out
    assert "170 |                   } else {" not in out


def test_other_modes_give_none():
    raw = text_of("rustc", "h2_humantime_clippy_pedantic")
    assert ask(raw, "clippy-driver --error-format=json src/lib.rs") is None
    assert ask(raw, "clippy-driver --version") is None
    assert ask("clippy 0.1.95 (59807616e1 2026-04-14)\n", "clippy-driver -V") is None
