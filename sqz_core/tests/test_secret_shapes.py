"""Secret shapes the first detectors missed (issue 29.2): base64 PEM/DER private keys, tokens split
by a line wrap, SendGrid, Hugging Face, camelCase and snake_case credential keys, and the vendor
token prefixes their providers document. Every value here is fake: right shape, made-up content.

Each is classified secret (so the pipeline neither stores nor indexes it); the near misses beside
them (a base64 certificate, a secret's name, a paging token, short or ordinary words) are not.
"""

import base64

import pytest

from sqz_core.safety import classify
from sqz_core.secrets import scrub_command
from sqz_testing import grows_linearly, nested_repeats, regex_patterns, work_done


def _b64(text: str) -> str:
    return base64.b64encode(text.encode()).decode()


_PEM_KEY = "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQCfakeFAKEfake0001\n" \
           "-----END PRIVATE KEY-----\n"
_PEM_RSA = "-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEAfakeFAKEfake0002\n-----END RSA PRIVATE KEY-----\n"
_PEM_OPENSSH = "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAAfakeFAKEfake0003\n" \
               "-----END OPENSSH PRIVATE KEY-----\n"
_PEM_CERT = "-----BEGIN CERTIFICATE-----\nMIIDdzCCAl+gAwIBAgIUfakeCERT0004\n-----END CERTIFICATE-----\n"

# (id, output, the secret value that must never reach a store)
SHAPES = [
    # kubectl get secret web-tls -o yaml: the key and the certificate, base64 PEM files
    ("k8s_tls_key", "apiVersion: v1\ndata:\n  tls.crt: %s\n  tls.key: %s\nkind: Secret\nmetadata:\n"
                    "  name: web-tls\ntype: kubernetes.io/tls\n" % (_b64(_PEM_CERT), _b64(_PEM_KEY)), _b64(_PEM_KEY)),
    ("b64_pem_rsa", "  id_rsa: %s\n" % _b64(_PEM_RSA), _b64(_PEM_RSA)),
    ("b64_pem_openssh", '{"data": {"ssh-privatekey": "%s"}}\n' % _b64(_PEM_OPENSSH), _b64(_PEM_OPENSSH)),
    ("der_pkcs8_rsa", "key.der: MIIEvgIBADANBgkqhkiG9w0BAQEFAASCBKgwggSkfakeDER0005fakeDER0005\n",
     "MIIEvgIBADANBgkqhkiG9w0BAQEFAASCBKgwggSkfakeDER0005"),
    ("der_pkcs1_rsa", "  signing: MIIEpAIBAAKCAQEAfakeDER0006fakeDER0006fakeDER0006fakeDER00\n",
     "MIIEpAIBAAKCAQEAfakeDER0006"),
    ("der_pkcs8_ec", "  ec: MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wfakeDER0007fakeDER0007\n",
     "MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wfakeDER0007"),
    ("der_sec1_ec", "  ec: MHcCAQEEIFakeDER0008fakeDER0008fakeDER0008fakeDER0008oAoGCCqGSM49\n",
     "MHcCAQEEIFakeDER0008fakeDER0008"),
    ("der_ed25519", "ED25519 MC4CAQAwBQYDK2VwBCIEIFakeDER0009fakeDER0009fakeDER00\n", "MC4CAQAwBQYDK2VwBCIEIFakeDER0009"),
    # a token broken across lines by the terminal width (the continuation starts the next line)
    ("ghp_wrapped", "Cloning with ghp_FakeFake0123456789abFAKE\n0123456789abcd for github.com\n",
     "ghp_FakeFake0123456789abFAKE"),
    ("github_pat_wrapped_crlf", "token github_pat_11FAKEFAKE0123456789_FakeFakeFake\r\nFakeFakeFakeFake0123456789abcdef"
                                "FAKEFAKE01\r\n", "github_pat_11FAKEFAKE0123456789_FakeFakeFake"),
    ("npm_wrapped_3_lines", "npm_Fake0123Fake\nFake0123456789ab\ncdefFAKE\n", "npm_Fake0123Fake"),
    ("sendgrid", "SENDGRID key in use: SG.FakeFakeFake0123456789.FakeFakeFake0123456789FakeFakeFake012345678\n",
     "SG.FakeFakeFake0123456789.FakeFakeFake0123456789FakeFakeFake012345678"),
    # helm get values: camelCase keys ending in Password / Secret / Token
    ("helm_camel_password", "USER-SUPPLIED VALUES:\nauth:\n  postgresPassword: fakeHelmPg0010x\n  username: app\n",
     "fakeHelmPg0010x"),
    ("helm_camel_token", "  adminToken: fakeHelmTok0011x\n", "fakeHelmTok0011x"),
    ("helm_camel_secret", "  jwtSecret: fakeHelmSec0012x\n", "fakeHelmSec0012x"),
    ("yaml_snake_password", "db:\n  postgres_password: fakeSnake0013x\n", "fakeSnake0013x"),
    ("json_snake_password", '{"host": "db", "postgres_password": "fakeSnake0014x"}\n', "fakeSnake0014x"),
    ("json_camel_password", '{"host": "db", "postgresPassword": "fakeCamel0015x"}\n', "fakeCamel0015x"),
    ("json_camel_token_line", '    "accessToken": "fakeCamel0016xyz",\n', "fakeCamel0016xyz"),
    ("ini_snake_password", "[db]\nhost = db\npostgres_password = fakeSnake0017x\n", "fakeSnake0017x"),
    ("ini_camel_password", "[db]\npostgresPassword=fakeCamel0018x\n", "fakeCamel0018x"),
    ("huggingface", "using hf_FakeFake0123456789FakeFakeFake0123\n", "hf_FakeFake0123456789FakeFakeFake0123"),
    ("github_gho", "using gho_FakeFakeFakeFakeFakeFakeFake01234567\n", "gho_FakeFakeFakeFakeFakeFakeFake01234567"),
    ("github_ghu", "using ghu_FakeFakeFakeFakeFakeFakeFake01234567\n", "ghu_FakeFakeFakeFakeFakeFakeFake01234567"),
    ("github_ghs", "using ghs_FakeFakeFakeFakeFakeFakeFake01234567\n", "ghs_FakeFakeFakeFakeFakeFakeFake01234567"),
    ("github_ghr", "using ghr_FakeFakeFakeFakeFakeFakeFake01234567\n", "ghr_FakeFakeFakeFakeFakeFakeFake01234567"),
    ("gitlab_pat", "using glpat-FakeFake0123456789abcd\n", "glpat-FakeFake0123456789abcd"),
    ("gitlab_runner", "using glrt-FakeFake0123456789abcd\n", "glrt-FakeFake0123456789abcd"),
    ("slack_bot", "using xoxb-1234567890-1234567890123-FakeFakeFake0123456789ab\n",
     "xoxb-1234567890-1234567890123-FakeFakeFake0123456789ab"),
    ("slack_app", "using xapp-1-AFAKE012345-1234567890123-fakefake0123456789\n",
     "xapp-1-AFAKE012345-1234567890123-fakefake0123456789"),
    ("stripe_sk", "using sk_live_FakeFake0123456789abcdefFAKE\n", "sk_live_FakeFake0123456789abcdefFAKE"),
    ("stripe_rk", "using rk_live_FakeFake0123456789abcdefFAKE\n", "rk_live_FakeFake0123456789abcdefFAKE"),
    ("npm", "using npm_FakeFakeFakeFake0123456789abcdefFAKE\n", "npm_FakeFakeFakeFake0123456789abcdefFAKE"),
    ("pypi", "using pypi-AgEIcHlwaS5vcmcCJGZha2UtZmFrZS1mYWtlLWZha2UtZmFrZWZha2VmYWtl\n",
     "pypi-AgEIcHlwaS5vcmcCJGZha2UtZmFrZS1mYWtlLWZha2UtZmFrZWZha2VmYWtl"),
    ("openai_project", "using sk-proj-FakeFakeFake0123456789abcdefFAKEFAKEfake_0123456789\n",
     "sk-proj-FakeFakeFake0123456789abcdefFAKEFAKEfake_0123456789"),
    ("anthropic", "using sk-ant-api03-FakeFakeFake0123456789abcdefFAKEFAKEfake-0123456789_FakeAA\n",
     "sk-ant-api03-FakeFakeFake0123456789abcdefFAKEFAKEfake-0123456789_FakeAA"),
    ("aws_akia", "using AKIAFAKEFAKE01234567\n", "AKIAFAKEFAKE01234567"),
    ("aws_asia", "using ASIAFAKEFAKE01234567\n", "ASIAFAKEFAKE01234567"),
    ("google_api_key", "using AIzaFakeFakeFake0123456789abcdefFAKEFAK\n", "AIzaFakeFakeFake0123456789abcdefFAKEFAK"),
    ("google_oauth_secret", "using GOCSPX-FakeFakeFake0123456789abcdef\n", "GOCSPX-FakeFakeFake0123456789abcdef"),
    ("twilio", "using SKfa4e0123456789abcdef0123456789ab\n", "SKfa4e0123456789abcdef0123456789ab"),
    ("mailgun", "using key-fa4e0123456789abcdef0123456789ab\n", "key-fa4e0123456789abcdef0123456789ab"),
    ("digitalocean", "using dop_v1_" + "fa4e0123456789ab" * 4 + "\n", "dop_v1_" + "fa4e0123456789ab" * 4),
    ("doppler", "using dp.pt.FakeFakeFake0123456789abcdefFAKEFAKEfake0123\n",
     "dp.pt.FakeFakeFake0123456789abcdefFAKEFAKEfake0123"),
    ("shopify", "using shpat_fa4e0123456789abcdef0123456789ab\n", "shpat_fa4e0123456789abcdef0123456789ab"),
    ("age", "AGE-SECRET-KEY-1" + "FAKEQ" * 11 + "FAKE\n", "AGE-SECRET-KEY-1" + "FAKEQ" * 11 + "FAKE"),
]

NOT_SECRET = [
    "  tls.crt: %s\n" % _b64(_PEM_CERT),  # a certificate is public
    "-----BEGIN CERTIFICATE-----\n".replace("-", "") + _b64("-----BEGIN PUBLIC KEY-----\nMFkwEwYHKoZIzj0C\n") + "\n",
    "  existingSecret: postgres-credentials\n",  # names the Secret that holds the password
    "  existing_secret: postgres-credentials\n",
    '        "ClientToken": "62ad274a-96cc-4290-a5e4-0534db8cce7e",\n',  # a deduplication token
    '    "nextPageToken": "CAUQAA",\n',
    "  imagePullSecrets:\n  - name: regcred\n",
    "  passwordSecret: {}\n",
    "  automountServiceAccountToken: false\n",
    "Cloning with ghp_\nnot a token\n",  # a prefix at a line end, ordinary text after it
    "see ghp_abc\nfor details\n",
    "tasks: TASKfa4e0123456789abcdef0123456789ab\n",  # "SK" inside a word
    "cache-key-fa4e0123456789abcdef0123456789ab\n",  # "key-" inside a name
    "SG.short.value\n",
    "self_hf_model_name_loader()\n",
    "MIIDdzCCAl+gAwIBAgIUfakeCERT0004fakeCERT0004\n",  # DER certificate, base64
    "mipmap MIIEvgIBADAN\n",  # too short to be a key
]


@pytest.mark.parametrize("text,secret", [s[1:] for s in SHAPES], ids=[s[0] for s in SHAPES])
def test_each_shape_is_a_secret(text, secret):
    verdict = classify(text)
    assert verdict is not None and verdict.secret, text
    assert classify(text, secrets_only=True) is not None


@pytest.mark.parametrize("text", NOT_SECRET)
def test_near_misses_are_not_secrets(text):
    verdict = classify(text)
    assert verdict is None or not verdict.secret, (text, verdict)


_VENDORS = ("sendgrid", "huggingface", "github", "gitlab", "slack", "stripe", "npm", "pypi", "openai", "anthropic",
            "aws", "google", "twilio", "mailgun", "digitalocean", "doppler", "shopify", "age")
_ONE_LINE_TOKENS = [s for s in SHAPES if "\n" not in s[1].strip() and s[0].split("_")[0] in _VENDORS]


@pytest.mark.parametrize("name,text,secret", _ONE_LINE_TOKENS, ids=[s[0] for s in _ONE_LINE_TOKENS])
def test_vendor_tokens_on_a_command_line_are_masked(name, text, secret):
    assert secret not in scrub_command("deploy " + text.strip())


_RUNS = {  # name: (input of scale n); n = 1 is about 1 MB
    "wrapped-prefix": lambda n: "ghp_aaaa\n" * (110_000 * n // 4),
    "wrapped-long-lines": lambda n: ("x ghp_" + "a" * 30 + "\n" + "b" * 200 + "\n") * (4_000 * n // 4),
    "b64-pem-heads": lambda n: "LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0t " * (28_000 * n // 4),
    "der-hints": lambda n: " MIIEvgIBADAN" * (75_000 * n // 4),
    "sk-run": lambda n: " SK" * (330_000 * n // 4),
    "camel-keys": lambda n: "  fooToken: x\n" * (70_000 * n // 4),
}


@pytest.mark.parametrize("name", list(_RUNS))
def test_new_detectors_stay_linear(name):
    """Lines of Python run (not seconds): a quarter-size run and the full one differ by about 4x."""
    make = _RUNS[name]
    classify(make(1))  # warm: lazy imports and pattern compiles are not the input's work
    (_, n_small), (_, n_large) = work_done(classify, make(1)), work_done(classify, make(4))
    assert grows_linearly(n_small, n_large, 4), (name, n_small, n_large)


def test_safety_patterns_cannot_backtrack_without_bound():
    from sqz_core import safety

    for name, pattern in regex_patterns(safety).items():
        if name in ("_SECRET_TOKENS", "_WRAP_PIECE"):
            assert nested_repeats(pattern) == [], (name, pattern)
