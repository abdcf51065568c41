"""The raw text's second safety look (``safety.raw_secrets``) reads only the lines its clean-up changed.

The pipeline classifies the cleaned text, and the raw bytes again for a secret only they hold (a
store keeps the raw bytes). When the clean-up only took blanks off line ends, ``raw_secrets`` reads
the changed lines (with the three above each, where a wrapped token may start) instead of the whole
text: its verdict must be the whole text's, line numbers included. Samples are written here in the
documented public token formats with fake values, not captured output.
"""

from __future__ import annotations

from hypothesis import given, strategies as st

from sqz_core.cleanup import clean_terminal
from sqz_core.safety import classify, raw_secrets

HEX = "0123456789abcdef"
PLAIN = ["commit 3a834d2f", "Author: A U Thor <a@example.org>", "", "    fix the parser", "src/a.py | 3 ++-",
         "2 files changed, 3 insertions(+)", "abcdef0123", "ok"]
SECRETS = [
    "GITHUB_TOKEN used ghp_" + "A1b2C3d4E5" * 4,   # a GitHub token on one line
    "DB_PASSWORD=fakePw0001",                      # a .env assignment
    "password: hunter2hunter2",                    # a credential line
    "X_PASS=123",                                  # a count, not a password
    "token: SecretStr =",                          # code, not a secret
    "Authorization: Bearer fakeBearer0009abc",
]
# a Twilio key id wrapped over two lines: a secret in the raw text when the blanks end the second line
# (the wrap stops there), none once they are gone and the next line's hex digits join the wrap
WRAPPED = ["SK" + HEX, HEX + "  ", "abcdef"]


def _fields(verdict):
    return None if verdict is None else (verdict.level, verdict.reason, tuple(verdict.spans), verdict.secret)


def _check(text: str) -> None:
    cleaned = clean_terminal(text)
    first = classify(cleaned)
    if first is not None and first.secret:
        return  # the pipeline looks again only when the cleaned text holds none
    assert _fields(raw_secrets(text, cleaned)) == _fields(classify(text, secrets_only=True))


def test_a_secret_only_the_raw_text_holds_is_found_on_its_line():
    text = "\n".join(PLAIN * 3 + WRAPPED + PLAIN) + "\n"
    cleaned = clean_terminal(text)
    assert cleaned != text and classify(cleaned) is None  # the clean-up hid it
    got = raw_secrets(text, cleaned)
    assert got is not None and got.secret and got.reason == "secret-token"
    assert got.spans == ((len(PLAIN) * 3, len(PLAIN) * 3),)  # the line the wrap starts on, in the raw text
    assert _fields(got) == _fields(classify(text, secrets_only=True))


def test_blanks_alone_change_no_verdict():
    text = "\n".join(line + "   " for line in PLAIN * 40) + "\n"
    assert raw_secrets(text, clean_terminal(text)) is None


def test_other_clean_ups_read_the_whole_text():
    text = "\n".join(PLAIN) + "\n\x1b[1mghp_" + "A1b2C3d4E5" * 4 + "\x1b[0m\nprogress 10%\rprogress 100%\n"
    _check(text)


@given(st.lists(st.tuples(st.sampled_from(PLAIN + SECRETS + WRAPPED), st.sampled_from(["", " ", "\t", "   "])),
                max_size=40))
def test_the_verdict_is_the_whole_texts(rows):
    _check("\n".join(line + blanks for line, blanks in rows) + "\n")


@given(st.lists(st.sampled_from(PLAIN), max_size=30), st.integers(0, 30), st.sampled_from(["", "  "]))
def test_a_wrapped_token_anywhere(lines, at, blanks):
    at = min(at, len(lines))
    _check("\n".join(lines[:at] + WRAPPED[:1] + [WRAPPED[1].rstrip() + blanks] + WRAPPED[2:] + lines[at:]))
