"""Contract (issue 29.2): an output holding any secret shape of ``test_secret_shapes.SHAPES`` leaves
no byte of the secret in the SQLite store (the db, its -wal and -shm as they lie on disk) and
``sqz recall`` finds nothing of it; the same output without the secret is stored and recallable,
so the store under test does write.
"""

import os
import re
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_secret_shapes import SHAPES  # noqa: E402  (fake values, documented shapes)

from sqz_core.api import compress  # noqa: E402
from sqz_core.store import Store  # noqa: E402
from sqz_testing import bytes_at_rest  # noqa: E402

# ordinary output around the secret: long and repetitive enough that sqz compresses and stores it
PADDING = "".join(f"2026-12-01T22:{i // 60:02d}:{i % 60:02d}Z INFO served GET /healthz 200 in {i % 7} ms\n"
                  for i in range(150))
# the outputs the issue found stored, as their commands print them
ISSUE_SHAPES = ("k8s_tls_key", "ghp_wrapped", "sendgrid", "helm_camel_password", "huggingface")


def words(secret: str) -> list[str]:
    """The FTS words of ``secret`` an index would hold and no other text has: runs of letters and digits,
    8 or more with a digit in them ("github" of ``github_pat_`` is a word of ordinary text too)."""
    return [w for w in re.findall(r"[A-Za-z0-9]+", secret) if len(w) >= 8 and re.search(r"\d", w)]


def env_for(home: Path) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith("SQZ_")}
    env.update(HOME=str(home), SQZ_DB_PATH=str(home / "sqz.db"), SQZ_CACHE_DIR=str(home / "cache"),
               SQZ_TIME_BUDGET_MS="0", PYTHONDONTWRITEBYTECODE="1")
    return env


def sqz(env: dict, *args: str, data: bytes = b"") -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "sqz_core", *args], input=data, capture_output=True, env=env,
                          timeout=120, check=False)


def test_no_secret_shape_reaches_the_sqlite_store(tmp_path):
    db = tmp_path / "sqz.db"
    store = Store.open(str(db))
    for name, text, secret in SHAPES:
        result = compress((PADDING + text + PADDING).encode(), command=f"cat {name}.out", store=store, session="s1")
        assert result.outcome == "safe", name
        assert secret in result.output.decode(), name  # the model still sees it, unchanged
    assert store.find_hashes("", limit=10) == []
    for name, _text, secret in SHAPES:
        for word in words(secret):
            assert store.search(f'"{word}"') == [], (name, word)
    store.close()
    at_rest = bytes_at_rest(tmp_path, "sqz.db")
    assert at_rest  # the store exists on disk
    for name, _text, secret in SHAPES:
        assert secret.encode() not in at_rest, name
        for word in words(secret):
            assert word.encode() not in at_rest, (name, word)
    env = env_for(tmp_path)
    env["SQZ_DB_PATH"] = str(db)
    query = " OR ".join(f'"{w}"' for _n, _t, s in SHAPES for w in words(s))
    r = sqz(env, "recall", query)
    assert r.returncode == 1 and b"no match" in r.stdout + r.stderr, (r.stdout, r.stderr)
    # the control: the same output without a secret is stored and found
    store = Store.open(str(db))
    compress((PADDING + "  username: fakeControlUser0001\n" + PADDING).encode(), command="cat control.out",
             store=store, session="s1")
    store.close()
    r = sqz(env, "recall", "fakeControlUser0001")
    assert r.returncode == 0 and b"fakeControlUser0001" in r.stdout, (r.stdout, r.stderr)


def test_issue_shapes_through_the_cli_leave_nothing_at_rest(tmp_path):
    env = env_for(tmp_path)
    shapes = [s for s in SHAPES if s[0] in ISSUE_SHAPES]
    assert len(shapes) == len(ISSUE_SHAPES)
    for name, text, secret in shapes:
        r = sqz(env, "compress", "--cmd", f"cat {name}.out", data=(PADDING + text + PADDING).encode())
        assert r.returncode == 0, r.stderr
        assert secret.encode() in r.stdout, name  # sent unchanged
        assert b"never cached" in r.stderr, (name, r.stderr)
    at_rest = bytes_at_rest(tmp_path, "sqz.db")
    for name, _text, secret in shapes:
        assert secret.encode() not in at_rest, name
    for query in ["postgresPassword", "tls", "SG", "hf", "ghp"] + [w for _n, _t, s in shapes for w in words(s)]:
        r = sqz(env, "recall", query)
        assert r.returncode == 1 and b"no match" in r.stdout, (query, r.stdout)
        shown = r.stdout.replace(query.encode(), b"")  # ("no match for '<query>'")
        for _n, _t, secret in shapes:
            assert secret.encode() not in shown, query
    r = sqz(env, "compress", "--cmd", "cat control.out", data=(PADDING + "  username: fakeControlUser0002\n"
                                                                 + PADDING).encode())
    assert r.returncode == 0
    r = sqz(env, "recall", "fakeControlUser0002")
    assert r.returncode == 0 and b"fakeControlUser0002" in r.stdout, (r.stdout, r.stderr)
