"""No secret at rest: outputs holding a secret pass through and are never stored; commands are scrubbed.

The samples are written here in the documented public formats (.env, HTTP headers as
``curl -v`` prints them, URLs with userinfo, Azure/SQL Server connection strings, Slack
webhook URLs, .netrc, .npmrc, docker config.json, PEM keys inside YAML and JSON) with
clearly fake values; they are documented samples, not captured output.
"""

from __future__ import annotations

import re
import sqlite3

import pytest

from sqz_core.pipeline import compress
from sqz_core.safety import classify
from sqz_core.secrets import find_secret, scrub_command
from sqz_core.store import Store
from sqz_testing import bytes_at_rest, grows_linearly, nested_repeats, regex_patterns, work_done

# (id, output, the secret value that must never reach the store)
SAMPLES = [
    ("env_pgpassword", "PGHOST=db.internal\nPGUSER=app\nPGPASSWORD=fakePgPass0001\n", "fakePgPass0001"),
    ("env_database_url", "RAILS_ENV=production\nDATABASE_URL=postgres://app:fakeDbPass0002@db.internal:5432/app\n",
     "fakeDbPass0002"),
    ("env_secret_key_base", "SECRET_KEY_BASE=fakeSkb0003a1b2c3d4e5f60718293a4b5c6d7e8f9\n", "fakeSkb0003a1b2"),
    ("env_webhook_secret", "PORT=3000\nSTRIPE_WEBHOOK_SECRET=whsec_fake0004\n", "whsec_fake0004"),
    ("env_api_key", "OPENAI_API_KEY=fakeApiKey0006\nLOG_LEVEL=info\n", "fakeApiKey0006"),
    ("env_private_key", "JWT_PRIVATE_KEY=fakePrivKey0007\n", "fakePrivKey0007"),
    ("env_export_access_key", "export AWS_SECRET_ACCESS_KEY=fakeAwsSecret0008\n", "fakeAwsSecret0008"),
    ("env_quoted_password", 'DB_PASSWORD="fakeQuoted0030"\n', "fakeQuoted0030"),
    ("header_bearer", "> GET /v1/me HTTP/1.1\n> Host: api.example.org\n> User-Agent: curl/8.5.0\n"
                      "> Authorization: Bearer fakeBearer0009abc\n> Accept: */*\n>\n", "fakeBearer0009abc"),
    ("header_basic", "Authorization: Basic ZmFrZXVzZXI6ZmFrZUJhc2ljMDAxMA==\n", "ZmFrZXVzZXI6ZmFrZUJhc2ljMDAxMA=="),
    ("git_remote_userinfo", "origin\thttps://alice:fakeGitPw0011@git.example.org/o/r.git (fetch)\n"
                            "origin\thttps://alice:fakeGitPw0011@git.example.org/o/r.git (push)\n", "fakeGitPw0011"),
    ("mongodb_url", "connecting to mongodb+srv://admin:fakeMongo0012@cluster0.example.net/app\n", "fakeMongo0012"),
    ("redis_url_no_user", "REDIS_URL=redis://:fakeRedis0013@cache:6379/0\n", "fakeRedis0013"),
    ("amqp_url", "broker: amqp://guest:fakeAmqp0014@rabbit:5672/\n", "fakeAmqp0014"),
    ("mysql_url", "url = mysql://root:fakeMysql0015@localhost/app\n", "fakeMysql0015"),
    ("azure_storage", "DefaultEndpointsProtocol=https;AccountName=fakeacct;AccountKey=fakeAzureKey0016==;"
                      "EndpointSuffix=core.windows.net\n", "fakeAzureKey0016"),
    ("sqlserver_connstring", "Server=tcp:db.example.net,1433;Database=app;User ID=app;Password=fakeSqlPw0017;"
                             "Encrypt=True;\n", "fakeSqlPw0017"),
    ("slack_webhook", "posting to https://hooks.slack.com/services/T0FAKE000/B0FAKE000/fakeSlackHook0018xxxxxxx\n",
     "fakeSlackHook0018"),
    ("netrc_multiline", "machine api.example.org\n  login alice\n  password fakeNetrc0019\n", "fakeNetrc0019"),
    ("netrc_one_line", "machine git.example.org login bob password fakeNetrc0020\n", "fakeNetrc0020"),
    ("npmrc_auth_token", "registry=https://pkgs.example.org/\n//pkgs.example.org/:_authToken=fakeNpm0021\n",
     "fakeNpm0021"),
    ("docker_config_auth", '{\n\t"auths": {\n\t\t"pkgs.example.org": {\n'
                           '\t\t\t"auth": "ZmFrZXVzZXI6ZmFrZURvY2tlcjAwMjI="\n\t\t}\n\t}\n}\n',
     "ZmFrZXVzZXI6ZmFrZURvY2tlcjAwMjI="),
    ("pem_in_yaml", "apiVersion: v1\nkind: Secret\nstringData:\n  tls.key: |\n    -----BEGIN RSA PRIVATE KEY-----\n"
                    "    MIIEfakeKeyMaterial0023\n    -----END RSA PRIVATE KEY-----\n", "MIIEfakeKeyMaterial0023"),
    ("pem_in_json", '{"type": "service_account", "project_id": "demo", "private_key": "-----BEGIN PRIVATE KEY-----'
                    '\\nMIIEfakeJsonKey0024\\n-----END PRIVATE KEY-----\\n", "client_email": "a@example.org"}\n',
     "MIIEfakeJsonKey0024"),
    ("pem_under_plain_key", '{"data": "-----BEGIN EC PRIVATE KEY-----\\nMHcfakeEc0025\\n-----END EC PRIVATE KEY-----"}\n',
     "MHcfakeEc0025"),
    ("json_password", '{"username": "app", "password": "fakeJsonPw0026"}\n', "fakeJsonPw0026"),
    # a paging token beside a real one: the real one is still found
    ("json_session_token_beside_paging", '{"NextToken": "page2", "SessionToken": "fakeSessionTok0031"}\n',
     "fakeSessionTok0031"),
    ("cr_redraw", "token: fakeRedraw0027\r" + "x" * 40 + "\n", "fakeRedraw0027"),
]

NOT_SECRET = [
    "password: ********\n",
    "PASSWORD=\n",
    "DB_PASSWORD=${DB_PASSWORD}\n",
    "Authorization header missing\n",
    "error: 401 Unauthorized (no Authorization: header sent)\n",
    "origin\thttps://github.com/o/r.git (fetch)\norigin\thttps://github.com/o/r.git (push)\n",
    "cloning into ssh://git@git.example.org/o/r.git\n",
    "db: postgres://app:***@db.internal/app\n",
    "MAX_TOKENS=4096\n",
    "http://localhost:8080/health ok\n",
    '{"auth": ""}\n',
    '{"ca": "-----BEGIN CERTIFICATE-----\\nMIIBfake\\n-----END CERTIFICATE-----"}\n',
    "the machine login failed: wrong password\n",
    # cloud APIs' request-deduplication and paging tokens (aws ec2 describe-instances, s3api, Google APIs)
    '            "ClientToken": "0c3ab2e4-6cbe-4a4d-9b8e-1f2d3c4b5a69",\n',
    '    "NextToken": "eyJ2IjoiMiIsImMiOiJmYWtlIn0=",\n',
    '{"IsTruncated": true, "NextContinuationToken": "1ueGcxLPRx1Tr/XYExHnhbYLgveDs2J/wm36Hy4vbOwM="}\n',
    '{"items": [], "nextPageToken": "CAUQAA"}\n',
]


@pytest.mark.parametrize("text,secret", [s[1:] for s in SAMPLES], ids=[s[0] for s in SAMPLES])
def test_secret_output_passes_through_and_is_never_stored(text, secret, tmp_path):
    store = Store.open(str(tmp_path / "db.sqlite"))
    raw = text.encode()
    result = compress(raw, command="cat config", store=store, session="s1")
    assert result.outcome == "safe"
    assert secret in result.output.decode()  # the model sees it: safe content is never changed
    assert store.find_hashes("", limit=10) == []
    hits = store.search(secret) + store.search("config")
    store.close()
    assert all(secret not in str(h) for h in hits)
    assert secret.encode() not in bytes_at_rest(tmp_path)


@pytest.mark.parametrize("text,secret", [s[1:] for s in SAMPLES], ids=[s[0] for s in SAMPLES])
def test_detector_flags_each_format(text, secret):
    verdict = classify(text)
    assert verdict is not None and verdict.level == "safe" and verdict.secret, text


@pytest.mark.parametrize("text", NOT_SECRET)
def test_ordinary_output_is_not_flagged(text):
    assert find_secret(text) is None
    assert classify(text) is None


# (command, secret, expected scrubbed command)
COMMANDS = [
    ("curl -H 'Authorization: Bearer fakeCmdBearer0101' https://api.example.org/v1/me", "fakeCmdBearer0101",
     "curl -H 'Authorization: ***' https://api.example.org/v1/me"),
    ("mysql -uroot -pfakeCmdMysql0102 app", "fakeCmdMysql0102", "mysql -uroot -p*** app"),
    ("PGPASSWORD=fakeCmdPg0103 psql -h db -U app", "fakeCmdPg0103", "PGPASSWORD=*** psql -h db -U app"),
    ("git clone https://alice:fakeCmdGit0104@git.example.org/o/r.git", "fakeCmdGit0104",
     "git clone https://***@git.example.org/o/r.git"),
    ("curl -u alice:fakeCmdCurl0105 https://api.example.org", "fakeCmdCurl0105",
     "curl -u *** https://api.example.org"),
    ("deploy --password fakeCmdArg0106 --verbose", "fakeCmdArg0106", "deploy --password *** --verbose"),
    ("deploy --token=fakeCmdArg0107", "fakeCmdArg0107", "deploy --token=***"),
    ("curl -X POST https://hooks.slack.com/services/T0FAKE000/B0FAKE000/fakeCmdSlack0108xx -d @msg.json",
     "fakeCmdSlack0108", "curl -X POST https://hooks.slack.com/services/*** -d @msg.json"),
    ("gh api -H 'X-Token: ghp_" + "a" * 36 + "' /user", "ghp_" + "a" * 36, "gh api -H 'X-Token: ***' /user"),
]


@pytest.mark.parametrize("command,secret,scrubbed", COMMANDS)
def test_scrub_command_masks_only_the_secret(command, secret, scrubbed):
    assert scrub_command(command) == scrubbed


@pytest.mark.parametrize("command,secret,scrubbed", COMMANDS)
def test_command_secrets_never_reach_the_store(command, secret, scrubbed, tmp_path):
    store = Store.open(str(tmp_path / "db.sqlite"))
    body = "".join(f"row {i}: status ok\n" for i in range(60)).encode()
    result = compress(body, command=command, store=store, session="s1")
    assert result.outcome != "safe"  # an ordinary output: stored and indexed, with its command
    store.record_call(session="s1", command=command, family=None, plugin=None, outcome=result.outcome,
                      bytes_in=len(body), bytes_out=len(result.output), est_in=1, est_out=1,
                      input_hash=result.digest, output_hash=None)
    stored = [r[2] for r in store.calls()] + [h[1] for h in store.search("status")]
    store.close()
    assert scrubbed in stored
    assert all(secret not in (c or "") for c in stored)
    assert secret.encode() not in bytes_at_rest(tmp_path)
    with sqlite3.connect(str(tmp_path / "db.sqlite")) as conn:
        blob_commands = [r[0] for r in conn.execute("SELECT command FROM blobs WHERE command IS NOT NULL")]
    assert blob_commands and all(c == scrubbed for c in blob_commands)


def test_ordinary_commands_are_kept_as_they_are():
    for cmd in ("git push origin main", "pytest -q -x tests/", "mysql -u root -p app", "ls -la ~/.ssh",
                "git clone https://github.com/o/r.git", "grep -rn password src/"):
        assert scrub_command(cmd) == cmd


_RUNS = {  # name: (input of scale n); n = 1 is about 1 MB
    "long-word": lambda n: "A" * (1_000_000 * n // 4) + " token",
    "mysql-run": lambda n: "mysql " * (200_000 * n // 4),
    "userinfo-run": lambda n: "http://a:" * (100_000 * n // 4) + "@",
    "json-key": lambda n: '"' + "a" * (500_000 * n // 4) + '" token',
    "assign-run": lambda n: "x_token_" * (125_000 * n // 4) + "=",
    "netrc-run": lambda n: "machine x login y\n" * (50_000 * n // 4) + " password",
    "header-run": lambda n: "authorization: bearer " * (50_000 * n // 4),
}


def _scan(text):
    from sqz_core.secrets import _CRED_ARG

    return find_secret(text), scrub_command(text), _CRED_ARG.search(text)  # + the PostgreSQL store's check


@pytest.mark.parametrize("name", list(_RUNS))
def test_detectors_and_scrubber_stay_linear(name):
    """Lines of Python run (not seconds): a quarter-size run and the full one differ by about 4x."""
    make = _RUNS[name]
    _scan(make(1))  # warm: lazy imports and pattern compiles are not the input's work
    (_, n_small), (_, n_large) = work_done(_scan, make(1)), work_done(_scan, make(4))
    assert grows_linearly(n_small, n_large, 4), (name, n_small, n_large)


def test_detector_patterns_cannot_backtrack_without_bound():
    """The regex engine's work is not counted above (it runs in C): no repeat in a repeat may be
    unbounded, the shape (``(a+)+``) that backtracks exponentially; bounded ones (``{1,20}``) stay linear."""
    from sqz_core import secrets

    for name, pattern in regex_patterns(secrets).items():
        for found in nested_repeats(pattern):
            hi = re.match(r"\d+\.\.(\d+) inside", found)
            assert hi and int(hi.group(1)) <= 64, (name, found, pattern)


# A secret-named key whose value is code or a version is no credential; the same keys with a
# literal value still are. The first two are lines of real captures (a Pygments diff, `npm view express`).
CODE_AND_VERSIONS = [
    "+            token = cls._process_token(tdef[1])\n",
    '    "pbkdf2-password": "1.2.1",\n',
    '{"name":"x","devDependencies":{"pbkdf2-password":"^1.2.1","mocha":"10.2.0"}}\n',
    'api_key = os.environ["API_KEY"]\n',
    "password = getpass.getpass()\n",
    "token = None\n",
]
LITERALS = [
    'password = "hunter22x"\n',
    "token = abcdef123(\n",
    '{"password": "1.2.1-x!"}\n',
    'x = f(1)\npassword = "hunter22x"\n',
]


@pytest.mark.parametrize("text", CODE_AND_VERSIONS)
def test_code_and_versions_under_secret_names_are_not_secrets(text):
    assert classify(text) is None


@pytest.mark.parametrize("text", LITERALS)
def test_literal_values_under_secret_names_still_are(text):
    verdict = classify(text)
    assert verdict is not None and verdict.secret


def test_real_captures_with_secret_named_code_are_compressed():
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    for rel in ("sqz_formatters_git/tests/fixtures/diff/real_lexer.txt",
                "sqz_formatters_generic/tests/fixtures/kinds/json/npm_view_express.txt"):
        assert classify((root / rel).read_text(encoding="utf-8")) is None, rel
