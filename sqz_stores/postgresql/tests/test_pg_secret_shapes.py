"""Contract (issue 29.2) on the team store: an output holding a secret shape leaves no byte of the
secret in the PostgreSQL schema (``pg_dump`` of it, which every member with access could read) nor in
the member's local SQLite file, and ``sqz recall`` finds nothing of it; the same output without the
secret is stored and found, so the store under test does write.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

from pg_testlib import REPO, host_env, sqz

sys.path.insert(0, str(REPO / "sqz_core" / "tests"))
from test_secret_shapes import SHAPES  # noqa: E402  (fake values, documented shapes)
from test_secret_shapes_at_rest import ISSUE_SHAPES, PADDING, words  # noqa: E402

from sqz_testing import bytes_at_rest  # noqa: E402

# the issue's five and one of each other family (base64 DER, snake_case in JSON and INI, vendor prefixes)
CHOSEN = ISSUE_SHAPES + ("der_pkcs8_rsa", "der_sec1_ec", "b64_pem_openssh", "github_pat_wrapped_crlf",
                         "json_snake_password", "ini_snake_password", "yaml_snake_password", "helm_camel_token",
                         "pypi", "slack_bot", "aws_akia", "doppler", "digitalocean", "shopify")


def pg_dump(schema_url: str) -> bytes:
    parts = urlsplit(schema_url)
    schema = parse_qs(parts.query)["schema"][0]
    dsn = parts._replace(query="").geturl()
    tool = shutil.which("pg_dump") or "/usr/lib/postgresql/15/bin/pg_dump"
    proc = subprocess.run([tool, "--dbname", dsn, "--schema", schema], capture_output=True, timeout=120, check=False)
    assert proc.returncode == 0, proc.stderr.decode()
    return proc.stdout


def test_no_secret_shape_reaches_the_team_store(tmp_path, schema_url):
    env = host_env(tmp_path, "member", schema_url)
    shapes = [s for s in SHAPES if s[0] in CHOSEN]
    assert len(shapes) == len(CHOSEN)
    for name, text, secret in shapes:
        r = sqz(env, "compress", "--cmd", f"cat {name}.out", "--session", "s1",
                data=(PADDING + text + PADDING).encode())
        assert r.returncode == 0, r.stderr
        assert secret.encode() in r.stdout, name  # sent unchanged
        assert b"never cached" in r.stderr, (name, r.stderr)
    # the control: stored in the team store and found by recall
    r = sqz(env, "compress", "--cmd", "cat control.out", "--session", "s1",
            data=(PADDING + "  username: fakeControlUser0003\n" + PADDING).encode())
    assert r.returncode == 0, r.stderr
    r = sqz(env, "recall", "fakeControlUser0003")
    assert r.returncode == 0 and b"fakeControlUser0003" in r.stdout, (r.stdout, r.stderr)
    dump = pg_dump(schema_url)
    assert b"fakeControlUser0003" in dump  # the dump does hold what the store keeps
    local = bytes_at_rest(Path(env["HOME"]), "sqz.db")
    query = " OR ".join(f'"{w}"' for _n, _t, s in shapes for w in words(s))
    r = sqz(env, "recall", query)
    assert r.returncode == 1 and b"no match" in r.stdout, (r.stdout, r.stderr)
    for name, _text, secret in shapes:
        assert secret.encode() not in dump, name
        assert secret.encode() not in local, name
        for word in words(secret):
            assert word.encode() not in dump, (name, word)
