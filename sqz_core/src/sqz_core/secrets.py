"""Secret detectors for outputs and command lines: what must never be stored or indexed.

``find_secret`` complements safety.py's checks (PEM blocks at line start, credential
lines, well-known token formats) with the shapes secrets take in configuration and
commands: ``.env`` lines (``PGPASSWORD=…``), ``Authorization`` headers, URLs with a
``user:password@`` part, connection strings (``AccountKey=``), Slack webhooks, ``.netrc``,
``.npmrc``, docker ``"auth"`` entries and private keys anywhere on a line.
``scrub_command`` masks the same shapes in a command line so a store may keep it.

Every check is gated by a substring test, and no pattern spans lines or takes an
unbounded run twice, so the cost stays linear in the input.
"""

from __future__ import annotations

import re

from .lazyre import lazy

_KEY_NAMES = (r"(?:password|passwd|passphrase|secret|token|api_?key|apikey|private_?key|secret_?key(?:_base)?"
              r"|access_?key|account_?key|shared_?access_?key|client_?secret|auth_?token)")
# NAME=value where NAME ends in a secret word (PGPASSWORD=, DB_PASSWORD=, SECRET_KEY_BASE=, :_authToken=,
# Password= in a connection string); the value is not empty, masked (***) or a reference ($X, ${X}, <x>).
_ASSIGN = lazy(r"(?<![A-Za-z0-9_])[A-Za-z0-9_]*" + _KEY_NAMES + r"[ \t]*=[ \t]*[\"']?[^\s\"'*$<{%;]", re.I)
_AUTH_HEADER = lazy(r"\bauthorization[\"']?[ \t]*[:=][ \t]*[\"']?(?:bearer|basic|token|digest|bot)[ \t]+"
                    r"[A-Za-z0-9._~+/=-]{6,}", re.I)
# scheme://user:password@ (bounded runs; a masked password is not a secret)
_USERINFO = lazy(r"\b[A-Za-z][A-Za-z0-9+.-]{0,30}://[^/@\s:'\"]{0,256}:(?!\*+@)[^/@\s'\"]{1,256}@")
_SLACK_HOOK = lazy(r"hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9]+/[A-Za-z0-9/]+")
_NETRC_MACHINE = lazy(r"^[ \t]*(?:machine[ \t]+\S+|default)(?:[ \t]|$)", re.M)
_NETRC_PASSWORD = lazy(r"(?:^|[ \t])password[ \t]+[^\s*]", re.M)
# a JSON/YAML key ending in a secret word (or docker's "auth") with a quoted string value
_JSON_KEY = lazy(r"\"(?:[A-Za-z0-9_.-]*" + _KEY_NAMES + r"|auth|identitytoken)\"[ \t]*:[ \t]*\"[^\"\s*$<{]",
                 re.I)
_PRIVATE_KEY = lazy(r"-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----")

_ASSIGN_HINTS = ("pass", "secret", "token", "key")
# the end of a credential line whose value is a mask or a reference, not a secret: `password: ********`
_MASKED = lazy(r"[:=][ \t]*[\"']?(?:\*+|\$\{?[A-Za-z_]\w*\}?|<[\w .-]*>?)[\"']?$")


def is_masked(matched: str) -> bool:
    """True when a matched ``key: value`` ends in a mask (``****``) or a reference (``$X``, ``${X}``, ``<x>``)."""
    return _MASKED.search(matched) is not None


# Values a secret-named key takes in code and manifests, never a credential: unquoted, a call or
# subscript (``token = cls._process_token(tdef[1])``, ``api_key = os.environ["K"]``) or a language
# constant; quoted or not, a version (``"pbkdf2-password": "1.2.1"`` in a package.json).
_CODE_VALUE = lazy(r"(?:[A-Za-z_][\w.]{0,200}[(\[][^\s]{0,200}[)\]][,;:]?|None|null|nil|true|false|undefined)(?:\s|$)")
_VERSION_VALUE = lazy(r"[~^<>=v]{0,3}\d{1,9}(?:\.\d{1,9}){1,3}(?:[-+][\w.]{1,40})?")
_VALUE_SPLIT = lazy(r"[ \t]*[:=][ \t]*([\"']?)")


def benign_value(text: str, start: int) -> bool:
    """True when the value of the ``key = value`` / ``"key": "value"`` whose key starts at ``start``
    is code or a version, not a secret (read on the key's line, at most 256 characters)."""
    end = text.find("\n", start, start + 256)
    line = text[start:end if end >= 0 else start + 256]
    sep = _VALUE_SPLIT.search(line)
    if not sep:
        return False
    value, quote = line[sep.end():], sep.group(1)
    if quote:
        close = value.find(quote)
        return close > 0 and _VERSION_VALUE.fullmatch(value[:close]) is not None
    word = value.split(None, 1)[0] if value.strip() else ""
    return _CODE_VALUE.match(value) is not None or _VERSION_VALUE.fullmatch(word.rstrip(",;")) is not None


def find_secret(text: str, lowered: str | None = None) -> tuple[int, str] | None:
    """``(offset, reason)`` of the first secret found in ``text``, or None."""
    if lowered is None:
        lowered = text.lower()
    for present, pattern, reason in (
        ("private key" in lowered, _PRIVATE_KEY, "private-key"),
        ("uthorization" in lowered, _AUTH_HEADER, "auth-header"),
        ("://" in text and "@" in text, _USERINFO, "url-userinfo"),
        ("hooks.slack.com/" in text, _SLACK_HOOK, "slack-webhook"),
    ):
        m = pattern.search(text) if present else None
        if m:
            return m.start(), reason
    hinted = any(h in lowered for h in _ASSIGN_HINTS)
    if hinted and "=" in text:
        m = next((m for m in _ASSIGN.finditer(text) if not benign_value(text, m.start())), None)
        if m:
            return m.start(), "secret-assignment"
    if (hinted or '"auth"' in lowered) and '"' in text:
        m = next((m for m in _JSON_KEY.finditer(text) if not benign_value(text, m.start())), None)
        if m:
            return m.start(), "secret-json-key"
    if "machine" in lowered and "password" in lowered and "login" in lowered and _NETRC_MACHINE.search(text):
        m = _NETRC_PASSWORD.search(text)
        if m:
            return m.start(), "netrc"
    return None


# --- command lines -------------------------------------------------------------------
# shared with the PostgreSQL store, which withholds a command line any of these match
_URL_USERINFO = lazy(r"(\b[a-z][a-z0-9+.-]*://)[^/@\s:]+:[^/@\s]+@", re.I)
# credentials given on a command line (the output classifier looks at output, not at argv)
_CRED_ARG = lazy(
    r"(?:^|\s)(?:-u|--user)[\s=]+\S+:\S+"                                # curl -u user:pass
    r"|(?:^|\s)--?(?:password|passwd|pass|token|api-key|secret)[\s=]+\S+"  # --password x, --token=x
    r"|\b\w*(?:PASSWORD|PASSWD|TOKEN|SECRET|API_KEY|APIKEY|ACCESS_KEY)\w{0,32}=\S+"  # PGPASSWORD=x cmd
    r"|\bauthorization:\s*\S+"                                             # -H 'Authorization: Bearer …'
    r"|\bmysql\w*\b.{0,200}?\s-p\S{3,}",                                        # mysql -psecret
    re.I,
)
# (substring that must be present (lower-cased), pattern, replacement)
_CMD_RULES = (
    ("://", _URL_USERINFO, r"\1***@"),
    ("uthorization", lazy(r"(\bauthorization[ \t]*[:=][ \t]*)(?:(?:bearer|basic|token|digest|bot)[ \t]+)?"
                          r"[^\s'\"]+", re.I), r"\1***"),
    ("-", lazy(r"((?:^|\s)(?:-u|--user)(?:[ \t]+|=))[^\s:'\"]+:[^\s'\"]+", re.I), r"\1***"),
    ("-", lazy(r"((?:^|\s)--?(?:password|passwd|pass|token|api-key|api_key|secret|access-key)(?:[ \t]+|=))"
               r"[^\s'\"]+", re.I), r"\1***"),
    ("=", lazy(r"((?<![A-Za-z0-9_])[A-Za-z0-9_]*" + _KEY_NAMES + r"[ \t]*=[ \t]*)[^\s'\";&|]+", re.I), r"\1***"),
    ("hooks.slack.com/", lazy(r"(hooks\.slack\.com/(?:services|workflows|triggers)/)[A-Za-z0-9/]+"), r"\1***"),
    # a header or YAML-style pair on a command line: -H "X-Auth-Token: abc", "token: abc"
    (":", lazy(r"((?:^|(?<=[\s'\"]))[A-Za-z0-9_-]{0,64}" + _KEY_NAMES + r"[ \t]*:[ \t]*)[^\s'\"*$<{]+", re.I),
     r"\1***"),
    # a .netrc entry written from the command line: echo "machine h login u password p" >> ~/.netrc
    ("machine", lazy(r"(\bmachine[ \t]+\S+.{0,200}?\bpassword[ \t]+)[^\s'\"]+", re.I), r"\1***"),
)

_MYSQL = lazy(r"\b(?:mysql|mysqldump|mysqladmin|mysqlimport|mysqlcheck|mariadb)\b")
_MYSQL_PASSWORD = lazy(r"(\s-p)[^\s'\"]+")


def scrub_command(command: str | None) -> str | None:
    """``command`` with every secret span replaced by ``***`` (URL passwords, headers, --password, NAME=…)."""
    if not command:
        return command
    lowered = command.lower()
    for hint, pattern, repl in _CMD_RULES:
        if hint in lowered:
            command = pattern.sub(repl, command)
    if ("mysql" in lowered or "mariadb" in lowered) and " -p" in command and _MYSQL.search(command):
        command = _MYSQL_PASSWORD.sub(r"\1***", command)  # mysql -pSECRET (a bare -p prompts: kept)
    from .safety import _SECRET_TOKENS, _TOKEN_HINTS

    if any(h in command for h in _TOKEN_HINTS):
        command = _SECRET_TOKENS.sub("***", command)
    return command
