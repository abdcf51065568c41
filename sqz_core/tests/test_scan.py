"""The literal pre-filters (``scan``) find what the whole-text regex scans found, no more, no less."""

from pathlib import Path

import pytest

from sqz_core import safety, scan, secrets
from sqz_testing import iter_fixtures

ROOT = Path(__file__).resolve().parents[2]

# (pattern, where it can start): the ignore-case ones are given the folded text
CASES = [
    (secrets._ASSIGN, lambda t, low: scan.run_starts(low, secrets._ASSIGN_HINTS)),
    (secrets._PASS_ASSIGN, lambda t, low: scan.run_starts(low, ("pass", "_pwd"))),
    (secrets._KEY_HEADER, lambda t, low: scan.line_starts(low, secrets._ASSIGN_HINTS)),
    (secrets._JSON_KEY, lambda t, low: secrets._json_key_starts(low)),
    (secrets._COOKIE_HEADER, lambda t, low: scan.line_starts(low, ("cookie",))),
    (secrets._AUTH_HEADER, lambda t, low: scan.find_all(low, "authorization")),
    (secrets._USERINFO, lambda t, low: secrets._url_starts(t)),
    (secrets._PRIVATE_FIELD, lambda t, low: scan.line_starts(t, secrets._PRIVATE_FIELDS)),
    (secrets._NETRC_PASSWORD, lambda t, low: secrets._netrc_password_starts(t)),
    (safety._SECRET_TOKENS, lambda t, low: safety._token_starts(t)),
    (safety._CRED_LINE, lambda t, low: scan.line_starts(low, safety._CRED_HINTS)),
    (safety._DDL, lambda t, low: scan.line_starts(low, safety._DDL_VERBS)),
]

NEAR = [
    "DB_PASSWORD=hunter2hunter2\nexport API_KEY = abcdef123456\n",
    "paſſword=hunter2hunter2\n",           # long s: IGNORECASE reads it as 's'
    "TOKEN=abcdefgh\nxKEY=1\n",          # Kelvin sign lower-cases to 'k'
    "secret_key_base=ıabcdefgh\nprıvate_key = zzzzzzzz\n",
    '{"accessToken": "abc", "NextToken": "x", "auth": "dXNlcjpwYXNz"}\n',
    "> Cookie: sid=abc\n< Set-Cookie: a=b; Path=/\nAuthorization: Bearer abcdefghijkl\n",
    "see https://user:pass@example.org/x and ftp://a:b@c\n",
    "  priv:\n    00:11:22:33\n",
    "machine example.org login me password s3cret\n",
    "CREATE TABLE t (a int);\n  drop\nindex x;\nALTER  VIEW v AS\n",
    "key key key = = token=token=abc password=password=zz\n",
    "AKIA" + "A" * 16 + " ghp_" + "a" * 36 + " sk_live_" + "b" * 24 + " xoxb-1234567890ab\n",
]


def texts():
    for root in sorted(ROOT.glob("sqz_*/tests/fixtures")):
        for fx in iter_fixtures(root):
            yield fx.text
    yield from NEAR


@pytest.mark.parametrize("pattern,starts", CASES, ids=[repr(c[0])[:40] for c in CASES])
def test_matches_at_candidates_are_finditer(pattern, starts):
    for text in texts():
        low = scan.folded(text, scan.lower(text))
        assert low is not None and len(low) == len(text)
        want = [(m.start(), m.end()) for m in pattern.finditer(text)]
        got = [(m.start(), m.end()) for m in scan.matches(pattern, text, starts(text, low))]
        assert got == want, text[:200]


def test_dotted_capital_i_keeps_offsets():
    text = "İ password=hunter2hunter2 PİN_TOKEN=abcdefgh"
    assert scan.folded(text, text.lower()) is None  # str.lower makes it two characters: whole-text scans
    assert scan.folded(text, scan.lower(text)) == "i password=hunter2hunter2 pin_token=abcdefgh"
    assert secrets.find_secret(text) == (2, "secret-assignment")
    assert scan.lower("ÄBC \u212a") == "Äbc k"  # ASCII letters and the Kelvin sign; offsets kept


def test_case_equivalent_letters_are_found():
    # (the keyword gates read the plain lower-cased text: here "token" opens the assignment check)
    assert secrets.find_secret("a token\npaſſword=hunter2hunter2\n") == (8, "secret-assignment")
    assert safety.classify("ACCESS_\u212aEY=abcdefgh12345678\n").secret


def test_run_starts_is_linear_in_a_run_of_hints():
    text = "key" * 200_000  # one run: each back-scan stops at the previous hint
    assert scan.run_starts(text, ("key",)) == [0]
    assert scan.line_starts("a key\nb\nkey key\n", ("key",)) == [0, 8]
