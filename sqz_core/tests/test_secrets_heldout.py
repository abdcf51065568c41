"""Held-out secret routing on real outputs (tests/fixtures/safety/heldout, scripts/capture_secrets_heldout.sh).

What holds a credential passes through unchanged and is never stored: private keys printed as
text by openssl, curl -v with a cookie, a Set-Cookie, an API-key header or a bearer token,
``PGPASS=``/``MYSQL_PWD=`` in an environment listing. What only looks like it might is
compressed and cached like any output: a public key or a certificate printed as text, a cookie
being deleted, source files full of ``password = …`` code, an HTML page with ``accesskey``
attributes. Every key is a throw-away key and every credential an obviously fake value.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from sqz_core.expand import resolve
from sqz_core.pipeline import compress
from sqz_core.safety import classify
from sqz_core.secrets import _CRED_ARG, benign_value, find_secret, scrub_command
from sqz_core.store import Store
from sqz_testing import bytes_at_rest, iter_fixtures, load_fixture, missing_facts

HERE = Path(__file__).parent
GENERIC = HERE.resolve().parents[1] / "sqz_formatters_generic" / "tests" / "fixtures"  # the generic pack's captures
HELD_OUT = {fx.name: fx for fx in iter_fixtures(HERE / "fixtures" / "safety" / "heldout")}

# name -> (reason, the secret value that must never reach the store)
SECRET = {
    "openssl_pkey_text_rsa": ("private-key-text", "privateExponent:"),
    "openssl_pkey_text_ec": ("private-key-text", "7a:6d:82:45:78:17:51:33"),
    "openssl_pkey_text_ed25519": ("private-key-text", "4a:10:31:3d:25:55:50:f9"),
    "curl_v_cookie": ("cookie-header", "fake-session-0001"),
    "curl_v_set_cookie": ("cookie-header", "fake-session-0002"),
    "curl_v_api_key": ("secret-header", "fake-api-key-0004"),
    "curl_v_bearer": ("auth-header", "fake-bearer-0005"),
    "env_pgpass": ("secret-assignment", "PGPASS=hunter2"),
    "env_mysql_pwd": ("secret-assignment", "MYSQL_PWD=hunter2"),
}
NOT_SECRET = ["openssl_pkey_text_pub_rsa", "openssl_x509_text", "curl_v_logout", "cat_pip_network_auth",
              "cat_npm_registry_fetch_auth"]
# real captures that were routed to safe mode by a false positive (and so never stored nor deduplicated)
OTHER_FALSE_POSITIVES = {
    "cat_requests_sessions": GENERIC / "generic" / "cat_requests_sessions.json",  # `password = None, None`
    "libxslt_transform": GENERIC / "kinds" / "html" / "libxslt_transform.json",  # accesskey="p"
}


def _fixture(name: str):
    return HELD_OUT[name] if name in HELD_OUT else load_fixture(OTHER_FALSE_POSITIVES[name])


def test_fixture_set_is_complete():
    assert set(SECRET) | set(NOT_SECRET) == set(HELD_OUT)
    assert all(fx.meta.get("produced_by") and fx.facts for fx in HELD_OUT.values())


@pytest.mark.parametrize("name", sorted(SECRET))
def test_real_secret_output_is_secret(name):
    reason, secret = SECRET[name]
    fx = HELD_OUT[name]
    assert secret in fx.text
    verdict = classify(fx.text)
    assert verdict is not None and verdict.level == "safe" and verdict.secret
    assert reason in verdict.reason


@pytest.mark.parametrize("name", sorted(SECRET))
def test_real_secret_output_passes_unchanged_and_is_never_stored(name, tmp_path):
    secret = SECRET[name][1]
    fx = HELD_OUT[name]
    store = Store.open(str(tmp_path / "db.sqlite"))
    result = compress(fx.raw, command=fx.command, store=store, session="s1")
    assert result.outcome == "safe" and not result.stored
    assert result.output == fx.raw
    assert missing_facts(result.output.decode(), fx.facts) == []
    again = compress(fx.raw, command=fx.command, store=store, session="s1")
    assert again.outcome == "safe" and "§ref:" not in again.output.decode()
    assert store.find_hashes("", limit=10) == []
    store.close()
    assert secret.encode() not in bytes_at_rest(tmp_path)


@pytest.mark.parametrize("name", NOT_SECRET + sorted(OTHER_FALSE_POSITIVES))
def test_look_alikes_are_not_secret_and_a_repeat_is_deduplicated(name, tmp_path):
    fx = _fixture(name)
    verdict = classify(fx.text)
    assert verdict is None or not verdict.secret, verdict
    store = Store.open(str(tmp_path / "db.sqlite"))
    first = compress(fx.raw, command=fx.command, store=store, session="s1")
    assert first.outcome != "safe"
    assert missing_facts(first.output.decode(), fx.facts) == []
    again = compress(fx.raw, command=fx.command, store=store, session="s1")
    assert again.outcome == "ref"  # the re-read costs a reference, not the whole file again
    assert resolve(store, again.output.decode().split()[0]) == fx.raw
    store.close()


def test_html_page_with_accesskey_is_compressed(tmp_path):
    fx = _fixture("libxslt_transform")
    assert 'accesskey="p"' in fx.text
    store = Store.open(str(tmp_path / "db.sqlite"))
    result = compress(fx.raw, command=fx.command, store=store, session="s1")
    store.close()
    assert result.outcome != "safe" and len(result.output) < len(fx.raw) // 2
    assert missing_facts(result.output.decode(), fx.facts) == []


# ------------------------------------------------------------------ the shapes, line by line

# lines of real sources (requests 2.32.3, pip 23.2.1, pygments, oauthlib, cryptography, mcp, npm 11):
# a secret-named key whose value is code
CODE_LINES = [
    "            username, password = None, None",
    "            username, password = get_auth_from_url(new_proxies[scheme])",
    "        if not scheme.startswith(\"https\") and username and password:",
    "            password = self.keyring.get_password(url, username)",
    "        self.password = password",
    "        self.access_token = auth_info",
    "    def load_cert_chain(self, certfile, keyfile=None, password=None):",
    "    key = load_pem_private_key(key, password=None)",
    "                 request_token=None, access_token=None):",
    "        key_password=self.key_password,",
    "        url, netloc, url_user_password = split_auth_netloc_from_url(",
    "            token = String.Double if double else String.Single",
    "            token = Keyword",
    "                token = state.push(\"link_close\", \"a\", -1)",
    "        explicit_token = token is not None",
    "        if token == 'root':",
    "        return self.secret == other.secret",
    "    progress_token: ProgressToken | None = None",
    "    password: SecretStr",
    "    private_key: CERTIFICATE_PRIVATE_KEY_TYPES,",
    "        refresh_token = await self.provider.load_refresh_token(client_info, token_request.refresh_token)",
    "    ClientMessageMetadata(resumption_token=token, on_resumption_token_update=on_token),",
    "    Token:                  foreground,",
    "ResumptionToken = str",
    "        password = \":****\"",
    "const extglobClose = token => {",
    "      token: forceAuth._authToken || forceAuth.token,",
    "    [`${regKey}:_password`]: password,",
    "  const password = process.env.PASSWORD;",
    "MLKEM1024P384PrivateKey = rust_openssl.hpke.MLKEM1024P384PrivateKey",
    "            token = 0",
    "    this.token = token;",
    '<td><a accesskey="p" href="libxslt-templates.html"><img src="left.png" alt="Prev" /></a></td>',
    '<a accesskey="n" href="libxslt-variables.html">',
]
# the same keys with a literal value, and the variables and headers that hold one
LITERAL_LINES = [
    'password = "hunter2"',
    "PASSWORD=hunter2",
    "PGPASS=hunter2",
    "MYSQL_PWD=hunter2",
    "REDIS_PASS=fake-redis-0001",
    "access_key=AKIAIOSFODNN7EXAMPLE",
    "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
    'accessKey="fakeMinioKey0001"',
    'accesskey="fakeAccessKey0001"',
    "SENDGRID_API_KEY=SG.fakefakefakefakefake01.fakefakefakefakefakefakefakefakefakefake012",
    "password=fakeLogPw0001 host=db.internal",
    "login failed: password=hunter2 is wrong",  # English after a value is no operator
    "password=12345",
    "DB_PASSWORD=word",
    "api_key: SG.fAkE0fakeFAKE0fake0fAk.fAkE0fakeFAKE0fake0fAkE0fakeFAKE0fake0fAkE0",  # random name parts
    "> Cookie: sessionid=fake-session-0001",
    "< Set-Cookie: sessionid=fake-session-0002; Path=/; HttpOnly",
    "set-cookie: __Host-session=fake-session-0003; Secure",
    "> X-Api-Key: fake-api-key-0004",
    "> PRIVATE-TOKEN: fake-gitlab-0005",
    "X-Auth-Token: fake-auth-token-0006",
    "> Authorization: Bearer fake-bearer-0007",
    "priv:\n    7a:6d:82:45:78:17:51:33:51:68:e2:10:a5:e6:04:",
    "privateExponent:\n    72:86:01:63:4d:0b:30:6e:85:97:62:07:dd:fc:5e:",
]
# near misses that are no credential
PLAIN_LINES = [
    "PWD=/home/dev",
    "OLDPWD=/home",
    "N_PASS=3",
    "FIRST_PASS=true",
    "PASS=3 FAIL=0",
    '< Set-Cookie: sessionid=""; expires=Thu, 01 Jan 1970 00:00:00 GMT; Max-Age=0; Path=/',
    "< Set-Cookie: sessionid=; Max-Age=0",
    "> X-Api-Key: ********",
    "pub:\n    04:21:81:6b:6d:4d:61:47:7f:36:d7:bd:ac:6a:d5:",
    "Modulus:\n    00:d1:81:55:02:5a:a4:35:34:b7:0f:c8:50:6f:0c:",
    "  --proxy <proxy>  Specify a proxy in the form scheme://[user:passwd@]proxy.server:port.",
]


@pytest.mark.parametrize("line", CODE_LINES)
def test_code_under_secret_names_is_not_a_secret(line):
    verdict = classify(line + "\n")
    assert verdict is None or not verdict.secret, verdict


@pytest.mark.parametrize("line", LITERAL_LINES)
def test_literal_credentials_still_are(line):
    verdict = classify(line + "\n")
    assert verdict is not None and verdict.secret, line


@pytest.mark.parametrize("line", PLAIN_LINES)
def test_near_misses_are_not_secrets(line):
    assert find_secret(line + "\n") is None
    assert classify(line + "\n") is None


def test_a_literal_after_code_lines_is_still_found():
    text = "".join(line + "\n" for line in CODE_LINES) + 'DB_PASSWORD="fakeAfterCode0001"\n'
    verdict = classify(text)
    assert verdict is not None and verdict.secret
    assert verdict.spans == ((len(CODE_LINES), len(CODE_LINES)),)


def test_benign_value_reads_only_the_key_line():
    text = "x = 1\n" * 10 + "token = Keyword\n" + "password = hunter2\n"
    start = text.index("token")
    assert benign_value(text, start)
    assert not benign_value(text, text.index("password"))


@pytest.mark.parametrize("command,scrubbed", [
    ("MYSQL_PWD=hunter2 mysql -u app app", "MYSQL_PWD=*** mysql -u app app"),
    ("PGPASS=hunter2 psql -h db.internal", "PGPASS=*** psql -h db.internal"),
    ("curl -v -b 'sessionid=fake-session-0001' http://127.0.0.1:18791/account",
     "curl -v -b '***' http://127.0.0.1:18791/account"),
    ("curl -v --cookie=sessionid=fake-session-0001 http://127.0.0.1:18791/",
     "curl -v --cookie=*** http://127.0.0.1:18791/"),
    ("curl -v -H 'Cookie: sessionid=fake-session-0001; theme=dark' http://127.0.0.1:18791/",
     "curl -v -H 'Cookie: ***' http://127.0.0.1:18791/"),
    ("curl -v -H 'X-Api-Key: fake-api-key-0004' http://127.0.0.1:18791/v1/items",
     "curl -v -H 'X-Api-Key: ***' http://127.0.0.1:18791/v1/items"),
])
def test_credentials_on_a_command_line_are_scrubbed(command, scrubbed):
    """The commands of the held-out captures: the store keeps them only scrubbed."""
    assert scrub_command(command) == scrubbed
    assert _CRED_ARG.search(command) is not None  # the PostgreSQL store withholds it


def test_ordinary_commands_are_kept():
    for cmd in ("PWD=/tmp ls", "OLDPWD=/home cd -", "echo $PWD", "curl -b cookies.txt http://127.0.0.1:18791/",
                "git checkout -b fix-secrets", "curl -v -H 'Accept: text/plain' http://127.0.0.1:18791/"):
        assert scrub_command(cmd) == cmd and _CRED_ARG.search(cmd) is None


# ------------------------------------------------------------------ linear time

def _bound(text: str) -> float:
    return 0.05 * len(text) / 1024 + 1.0  # the bound of test_adversarial.py: generous for a loaded CI machine


@pytest.mark.parametrize("text", [
    "password=None," * 80_000,                         # one long line of benign assignments
    "token = a." * 100_000,                            # a dotted run that never ends
    "x, " * 200_000 + "password = b",                  # a tuple target 600 kB long
    "priv:\n" + " " * 200_000 + "00:" * 100_000,       # a private field over a space run
    "> Cookie: " + "a" * 500_000 + "\n",               # a cookie name that never gets its '='
    "x-" * 300_000 + "api-key: value123\n",            # a hyphen run before a key header
    "\n".join(["A_PASS=" + "1" * 20] * 50_000),        # many numeric password-named values
    "token = f(" + "(" * 300_000 + "\n",               # a call that never closes
    '<a accesskey="' + "p " * 200_000 + '">',          # an accesskey list that never ends
    "curl -b '" + "a=b; " * 100_000,                   # a cookie argument that never closes its quote
    "'cookie: " * 100_000,                             # cookie headers that never close their quote
    "-H '" + "x-" * 200_000 + "cookie: v'",            # a header name that is one long hyphen run
    "A_PWD" * 200_000 + "=x",                          # a password-variable name that never ends
], ids=["benign-run", "dotted-run", "tuple-run", "priv-spaces", "cookie-run", "hyphen-run", "pass-lines",
        "open-call", "accesskey-run", "cmd-cookie-quote", "cmd-cookie-headers", "cmd-hyphen-run", "cmd-pwd-run"])
def test_new_detectors_stay_linear(text):
    start = time.perf_counter()
    classify(text)
    find_secret(text)
    scrub_command(text)
    _CRED_ARG.search(text)
    took = time.perf_counter() - start
    assert took <= _bound(text), f"{took:.2f}s for {len(text)} characters"
