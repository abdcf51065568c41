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
from .scan import lower, WORD, find_all, first, folded, line_starts, matches, remembered, run_starts

# well-known token formats (safety.py reports them; ``scrub_command`` masks them)
_SECRET_TOKENS = lazy(
    # prefixes no word ends with: a token glued to the text before it (``okghp_…``, a log line run into
    # the next) is still one, so these need no boundary; an AWS key id may follow a lower-case letter
    r"(?:gh[pousr]_[A-Za-z0-9]{36,}"                   # GitHub tokens
    r"|github_pat_[A-Za-z0-9_]{40,}"                   # GitHub fine-grained PAT
    r"|xox[abposr]-[A-Za-z0-9-]{10,}"                  # Slack tokens
    r"|AIza[0-9A-Za-z_-]{35}"                          # Google API key
    r"|(?:sk|rk)_live_[0-9A-Za-z]{20,}"                # Stripe live keys
    r"|glpat-[A-Za-z0-9_-]{20,}"                       # GitLab PAT
    r"|xapp-[A-Za-z0-9-]{20,}"                         # Slack app-level token
    r"|pypi-AgE[A-Za-z0-9_-]{40,}"                     # PyPI API token (a macaroon; its base64 opens "AgE")
    r"|do[por]_v1_[0-9a-f]{64}"                        # DigitalOcean personal, OAuth and refresh tokens
    r"|GOCSPX-[A-Za-z0-9_-]{28}"                       # Google OAuth client secret
    r"|whsec_[A-Za-z0-9+/=]{24,}"                      # Stripe / Svix webhook signing secret
    r"|AGE-SECRET-KEY-1[0-9A-Z]{58}"                   # age private key
    r"|(?<![A-Z0-9])(?:AKIA|ASIA)[0-9A-Z]{16}"          # AWS access key id
    # prefixes that end ordinary words (``disk-``, ``TASK…``, ``pdf_``): only at a word's start
    r"|(?<![A-Za-z0-9])(?:"
    r"sk-(?:ant-|proj-)?[A-Za-z0-9_-]{32,}"            # OpenAI / Anthropic keys
    r"|npm_[A-Za-z0-9]{36}"                            # npm token
    r"|gl(?:ptt|dt|rt|soat|ft)-[A-Za-z0-9_-]{20,}"     # GitLab trigger, deploy, runner, SCIM, feed tokens
    r"|SG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}"       # SendGrid API key
    r"|hf_[A-Za-z0-9]{34,}"                            # Hugging Face token
    r"|SK[0-9a-fA-F]{32}(?![A-Za-z0-9])"               # Twilio API key
    r"|(?<![_-])key-[0-9a-f]{32}(?![A-Za-z0-9])"       # Mailgun API key
    r"|dp\.(?:pt|st|ct|sa|scim|audit)\.[A-Za-z0-9]{40,}"  # Doppler tokens
    r"|shp(?:at|ca|pa|ss)_[0-9a-fA-F]{32}"             # Shopify access tokens and shared secret
    r"|ya29\.[A-Za-z0-9_-]{30,}"                       # Google OAuth access token
    r"))"
)
# substrings every match of _SECRET_TOKENS contains, and a JWT's start
_TOKEN_HINTS = ("AKIA", "ASIA", "ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_", "xox", "AIza", "_live_",
                "sk-", "glpat-", "npm_", "glptt-", "gldt-", "glrt-", "glsoat-", "glft-", "xapp-", "SG.", "hf_",
                "pypi-AgE", "SK", "key-", "_v1_", "dp.", "shp", "GOCSPX-", "ya29.",
                "whsec_", "AGE-SECRET-KEY-1", "eyJ")

_KEY_NAMES = (r"(?:password|passwd|passphrase|secret|token|api_?key|apikey|private_?key|secret_?key(?:_base)?"
              r"|access_?key|account_?key|shared_?access_?key|client_?secret|auth_?token)")
# NAME=value where NAME ends in a secret word (PGPASSWORD=, DB_PASSWORD=, SECRET_KEY_BASE=, :_authToken=,
# Password= in a connection string); the value is not empty, masked (***) or a reference ($X, ${X}, <x>).
_ASSIGN = lazy(r"(?<![A-Za-z0-9_])[A-Za-z0-9_]*" + _KEY_NAMES + r"[ \t]*=[ \t]*[\"']?[^\s\"'*$<{%;=>]", re.I)
_AUTH_HEADER = lazy(r"\bauthorization[\"']?[ \t]*[:=][ \t]*[\"']?(?:bearer|basic|token|digest|bot)[ \t]+"
                    r"[A-Za-z0-9._~+/=-]{6,}", re.I)
# scheme://user:password@ (bounded runs; a masked password is not a secret)
_USERINFO = lazy(r"[A-Za-z][A-Za-z0-9+.-]{0,30}://[^/@\s:'\"\[]{0,256}:(?!\*+@)[^/@\s'\"]{1,256}@")
_SLACK_HOOK = lazy(r"hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9]+/[A-Za-z0-9/]+")
_NETRC_MACHINE = lazy(r"^[ \t]*(?:machine[ \t]+\S+|default)(?:[ \t]|$)", re.M)
_NETRC_PASSWORD = lazy(r"(?:^|[ \t])password[ \t]+[^\s*]", re.M)
# a JSON/YAML key ending in a secret word (or docker's "auth") with a quoted string value
_JSON_KEY = lazy(r"\"(?:[A-Za-z0-9_.-]*" + _KEY_NAMES + r"|auth|identitytoken)\"[ \t]*:[ \t]*\"[^\"\s*$<{]",
                 re.I)
# keys named "...Token" whose values are documented as not secret: request-deduplication and paging
# tokens of cloud APIs (AWS ``ClientToken``/``ClientRequestToken``/``NextToken``, S3
# ``ContinuationToken``, Google ``nextPageToken``); anyone holding one can do nothing with it
_PUBLIC_TOKEN_KEY = lazy(r"\"(?:client|clientrequest|idempotency|next|nextcontinuation|continuation|"
                         r"startafter|pagination|nextpage|page)token\"", re.I)
_PRIVATE_KEY = lazy(r"-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----")
# private key material printed as text (``openssl pkey -text -noout``, ``openssl rsa -text``): a private
# field (RSA ``privateExponent:``/``prime1:``, EC/ED25519/X25519/DSA/DH ``priv:``) over a line of hex bytes
_PRIVATE_FIELD = lazy(r"^[ \t]{0,8}(?:priv|privateExponent|prime1|prime2|exponent1|exponent2|coefficient):"
                      r"[ \t]*\r?\n[ \t]{1,16}[0-9a-f]{2}(?::[0-9a-f]{2}){1,15}:?[ \t]*\r?$", re.M)
# HTTP headers as curl -v (``> `` request, ``< `` response), a browser or a proxy prints them: a cookie with
# a non-empty value, or a header named for a key or token (``X-Api-Key:``, ``PRIVATE-TOKEN:``)
_COOKIE_HEADER = lazy(r"^(?:[<>][ \t])?[ \t]{0,8}(?:set-)?cookie[ \t]*:[ \t]*[^=;\s]{1,256}=[ \t]*[^;\s\"]",
                      re.M | re.I)
_KEY_HEADER = lazy(r"^(?:[<>][ \t]{1,4}(?:[A-Za-z0-9]{1,20}-){0,4}|[ \t]{0,8}(?:[A-Za-z0-9]{1,20}-){1,4})"
                   r"(?:api-?key|auth-token|access-token|"
                   r"private-token|session-token|vault-token|secret|password)[ \t]*:[ \t]*[^\s*$<{]{6}", re.M | re.I)
# NAME=value where NAME ends in a short password word (PGPASS=, MYSQL_PWD=, REDIS_PASS=); a count
# (``N_PASS=3``) or a boolean is no password, and ``PWD=``/``OLDPWD=`` are directories
_PASS_ASSIGN = lazy(r"(?<![A-Za-z0-9_])[A-Za-z0-9_]{0,64}(?:_pass|_pwd|pgpass)[ \t]*=[ \t]*[\"']?"
                    r"(?![0-9]{1,12}(?:[\s\"',;]|$))(?!(?:true|false|yes|no|on|off)(?:[\s\"',;]|$))[^\s\"'*$<{%;=>]",
                    re.I)

_ASSIGN_HINTS = ("pass", "secret", "token", "key")
# the end of a credential line whose value is a mask or a reference, not a secret: `password: ********`
_MASKED = lazy(r"[:=][ \t]*[\"']?(?:\*+|\$\{?[A-Za-z_]\w*\}?|<[\w .-]*>?)[\"']?$")


def is_masked(matched: str) -> bool:
    """True when a matched ``key: value`` ends in a mask (``****``) or a reference (``$X``, ``${X}``, ``<x>``)."""
    return _MASKED.search(matched) is not None


# Values a secret-named key takes in code and manifests, never a credential: unquoted, a call or
# subscript (``token = cls._process_token(tdef[1])``, ``api_key = os.environ["K"]``) or a language
# constant, also inside a tuple or an argument list (``username, password = None, None``,
# ``f(password=None)``); quoted or not, a version (``"pbkdf2-password": "1.2.1"`` in a package.json).
_CODE_VALUE = lazy(r"(?:[A-Za-z_][\w.]{0,200}[(\[][^\s]{0,200}[)\]][,;:]?"
                   r"|(?:None|null|nil|true|false|True|False|undefined|NaN)[,;:)\]}]{0,4})(?:\s|$)")
_VERSION_VALUE = lazy(r"[~^<>=v]{0,3}\d{1,9}(?:\.\d{1,9}){1,3}(?:[-+][\w.]{1,40})?")
_VALUE_SPLIT = lazy(r"(?<![ \t])[ \t]*[:=][ \t]*([\"']?)")  # (?<!…): a blank run is scanned once (issue 29.1)
# the first item of an unquoted value, up to a space or a separator (``,;)]}``)
_FIRST_ITEM = lazy(r"[^\s,;)\]}]{0,256}")
_NUMBER = lazy(r"-?\d{1,3}(?:\.\d{1,9})?")  # ``token = 0``, ``retries: 3`` (a longer number may be a PIN)
_IDENT = lazy(r"[A-Za-z_$][\w$]{0,64}")
# a dotted name: ``self.password``, ``Name.Builtin``, ``os.environ.get``, ``opts?.token``
_DOTTED = lazy(r"[A-Za-z_$][\w$]{0,64}(?:\??\.[A-Za-z_$][\w$]{0,64}){1,16}")
# a call closed on its line: ``modifier(token, token_handler, request)``
_CLOSED_CALL = lazy(r"[A-Za-z_$][\w$.]{0,200}(?:\([^\n]{0,256}\)|\[[^\n]{0,256}\])[,;:]?[ \t]*$")
# what after a value makes it an expression: ``token = a if b else c``, ``t = token is not None``; the
# words only around a spaced ``=`` or a ``:`` (a log line's ``password=x is wrong`` is no code)
_OPERATORS = frozenset(("==", "!=", "===", "!==", "||", "&&", "??", "?", "+", "-", "*", "/", "%", "|", "&", "<", ">",
                        "<=", ">=", "=>", "->", "."))
_OPERATOR_WORDS = frozenset(("if", "else", "or", "and", "is", "in", "not", "for", "as"))
# an HTML ``accesskey`` attribute holds one keyboard character (or a space-separated few), never a key
_HTML_ACCESSKEY = lazy(r"(?<![\w-])accesskey[ \t]*=[ \t]*([\"'])[^\s\"']{1,2}(?:[ \t][^\s\"']{1,2}){0,7}\1", re.I)


_TYPE_NAMES = frozenset(("str", "bytes", "int", "float", "bool", "object", "dict", "list", "tuple", "set",
                         "Any", "string", "number", "boolean", "String", "Number", "Boolean", "Object"))
_KEYWORDS = frozenset(("await", "new", "yield", "lambda", "not", "typeof", "async", "function", "self", "this",
                       "cls", "super"))
_F_STRING = lazy(r"(?:[fF][rR]?|[rR][fF])[\"']")
_CONSTANT_NAME = lazy(r"[A-Z]{1,32}(?:_[A-Z]{1,32}){1,8}")  # CERTIFICATE_PRIVATE_KEY_TYPES (no digit)
_CAMEL = lazy(r"(?:[A-Z][a-z]{1,32}){1,8}")  # Keyword, SecretStr (no digit)
_CAMEL2 = lazy(r"(?:[A-Z][a-z]{1,32}){2,8}")


def _random(part: str) -> bool:
    """A long run of mixed-case letters and digits: a generated key, not a name (``aB3xY9…``)."""
    return (len(part) >= 16 and any(c.isdigit() for c in part) and any(c.isupper() for c in part)
            and any(c.islower() for c in part))


def _trailing(text: str, chars: str) -> str:
    """The run of ``chars`` (plus letters, digits and ``_``) that ends ``text`` (a plain loop: no regex rescans)."""
    i = len(text)
    while i > 0 and (text[i - 1].isalnum() or text[i - 1] == "_" or text[i - 1] in chars):
        i -= 1
    return text[i:]


def _code_target(target: str) -> bool:
    """True when the left side of ``target = …`` is code: an attribute (``self.token``) or a tuple item."""
    target = target.rstrip().rstrip(":").rstrip()
    name = _trailing(target, "$.")
    if not name:
        return False
    return "." in name or target[:len(target) - len(name)].rstrip().endswith(",")


_LOOKBACK = 96  # how far left of a key its line is read (an attribute or tuple target: `a, b, password = `)


def benign_value(text: str, start: int) -> bool:
    """True when the value of the ``key = value`` / ``"key": "value"`` whose key starts at ``start``
    is code, a version, a mask or an HTML attribute, not a secret (read on the key's line: at most
    ``_LOOKBACK`` characters left of the key and 256 right of it)."""
    line_start = text.rfind("\n", max(0, start - _LOOKBACK), start) + 1 if start else 0
    if line_start == 0 and start > _LOOKBACK:
        line_start = start - _LOOKBACK
    end = text.find("\n", start, start + 256)
    line = text[line_start:end if end >= 0 else start + 256]
    key_at = start - line_start
    if _HTML_ACCESSKEY.match(line, key_at) or (line[key_at:key_at + 1] in "\"'" and
                                               _HTML_ACCESSKEY.match(line, key_at + 1)):
        return True
    sep = _VALUE_SPLIT.search(line, key_at)
    if not sep:
        return False
    value, quote = line[sep.end():], sep.group(1)
    spaced = sep.group().startswith((" ", "\t")) and sep.group().rstrip("\"'").endswith((" ", "\t"))
    if ":" in sep.group() and not quote:
        # a type annotation: ``progress_token: ProgressToken | None = None`` (the value is after the ``=``)
        eq = value.find(" = ")
        if eq > 0 and "\"" not in value[:eq] and "'" not in value[:eq]:
            rest = value[eq + 3:].lstrip()
            quote = rest[:1] if rest[:1] in ("\"", "'") else ""
            value, spaced = rest[len(quote):], True
    if quote:
        close = value.find(quote)
        literal = value[:close]
        # a version, or a mask with no letter or digit (pip's ``password = ":****"``)
        return close > 0 and (_VERSION_VALUE.fullmatch(literal) is not None or not any(c.isalnum() for c in literal))
    return _code_value(value, line[:sep.start()], spaced, colon="=" not in sep.group())


def _code_value(value: str, target: str, spaced: bool, colon: bool) -> bool:
    """True when the unquoted ``value`` assigned to ``target`` is code (a name, call, expression or type).

    In source code a literal credential is quoted: a bare word on the right of ``a = b`` is a
    reference. Config files (``.env``, ``.ini``, YAML) hold unquoted literals, so a bare word counts
    as code only with a sign of code around it: spaces around ``=`` (which ``.env`` files never
    have), an attribute or tuple on the left, a dotted name, a call, an operator after it.
    """
    if _CODE_VALUE.match(value) is not None or _CLOSED_CALL.match(value) is not None:
        return True
    if spaced and _code_target(target):
        return True  # ``username, password = split_auth(…``, ``self.access_token = auth_info``
    first = _FIRST_ITEM.match(value).group()  # type: ignore[union-attr]  # the pattern matches the empty string
    rest = value[len(first):]
    after = rest.lstrip(",;)]} \t").split(None, 1)
    code_like = spaced or colon
    if _VERSION_VALUE.fullmatch(first) or (code_like and _NUMBER.fullmatch(first)) or first in _TYPE_NAMES:
        return True
    if after and (after[0] in _OPERATORS or (code_like and after[0] in _OPERATOR_WORDS)):
        return True  # an expression: ``token = a if b else c``, ``t = token is not None``
    if code_like and first in _KEYWORDS:
        return True  # ``t = await load()``, ``token = new Token(``
    if spaced and (first[:1] in "([" or first == "\\"):
        return True  # ``_stoken = (r'…' %``, a value continued on the next line (``secret = \\``)
    if first[:1] in "fFrR" and "{" in value and _F_STRING.match(first):
        return True  # an f-string template: ``pattern_token = f'({start})'``
    dotted = _DOTTED.match(first)
    if dotted and (dotted.end() == len(first) or first[dotted.end()] in "([") and (
            code_like or first[dotted.end():dotted.end() + 1] == "(" or first.split(".", 1)[0].islower()) and (
            not any(_random(part) for part in dotted.group().split("."))
            or dotted.group().rsplit(".", 1)[1] == _trailing(target.rstrip(), "$")):  # ``K = mod.K``
        return True  # ``self.password``, ``Name.Builtin``, ``click.prompt("Password"`` (not a SendGrid-style
        # ``SG.<22 random>.<43 random>``: a name part is no long run of mixed letters and digits)
    if not _IDENT.fullmatch(first):
        return False
    key = _trailing(target.rstrip().rstrip("\"'"), "$").lower()
    tail = len(key) - len(first)
    if len(first) >= 3 and key.endswith(first.lower()) and (tail == 0 or key[tail - 1] in "_$"):
        return True  # ``password=password``, ``this.token = token;``, ``resumption_token=token``
    if rest.startswith(",") and not rest[1:].strip():
        return True  # an argument or dict entry continued on the next line: ``Token:  foreground,``
    camel = _CAMEL.fullmatch(first) and (spaced or (colon and _CAMEL2.fullmatch(first)))
    if camel or _CONSTANT_NAME.fullmatch(first):
        return True  # ``private_key: CERTIFICATE_KEY_TYPES``, ``token = Keyword``, ``password: SecretStr``
    return False


def _url_starts(text: str) -> list[int]:
    """Where ``_USERINFO`` can start: a letter of the scheme run (up to 31 characters) before each ``://``."""
    return remembered(text, "urls", lambda: _url_starts_of(text))


def _url_starts_of(text: str) -> list[int]:
    starts: set[int] = set()
    for pos in find_all(text, "://"):
        i = pos
        while i > 0 and pos - i < 31 and text[i - 1] in _SCHEME_CHARS:
            i -= 1
        starts.update(k for k in range(i, pos) if text[k] in _LETTERS)
    return sorted(starts)


def _netrc_password_starts(text: str) -> list[int]:
    """Where ``_NETRC_PASSWORD`` can start: the blank before each ``password``, or its line start."""
    starts = []
    for pos in find_all(text, "password"):
        before = text[pos - 1] if pos else "\n"
        if before in " \t":
            starts.append(pos - 1)
        elif before == "\n":
            starts.append(pos)
    return starts


def _json_key_starts(folded_text: str) -> list[int]:
    """Where ``_JSON_KEY`` can start: the quote before a key holding a secret word, and ``"auth"``."""
    starts = {r - 1 for r in run_starts(folded_text, _ASSIGN_HINTS, _KEY_CHARS) if r and folded_text[r - 1] == '"'}
    starts.update(find_all(folded_text, '"auth"'))
    return sorted(starts)


_SCHEME_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+.-")
_LETTERS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
_KEY_CHARS = WORD | frozenset(".-")
_PRIVATE_FIELDS = ("priv", "prime1", "prime2", "exponent1", "exponent2", "coefficient")


# A private key stored base64-encoded (a Kubernetes Secret's ``tls.key:``, a CI variable, a Helm value):
# a base64 PEM file starts with the encoding of "-----BEGIN " whatever follows; it is a secret when
# its decoded first line names a private key (a certificate's ``tls.crt`` is none)
_B64_PEM = "LS0tLS1CRUdJTi"
_B64_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")
_B64_HEAD = lazy(r"[A-Za-z0-9+/]{0,96}")
# DER private keys in base64 (no PEM armour), by the fixed bytes they open with: PKCS#8
# (``30 82 LL LL 02 01 00 30 0D`` RSA, ``30 81 LL 02 01 00 30 1x`` EC), PKCS#1 RSA (``… 02 01 00 02 82``),
# SEC1 EC (P-256, P-384, P-521), PKCS#8 Ed25519/X25519 and an OpenSSH private key ("openssh-key-v1\0")
_DER_KEY = lazy(r"(?:MII[A-Za-z0-9+/]{2}[AQgw]IBA(?:DAN|AK)|MIG[A-Za-z0-9+/]AgEAMB|MHcCAQEE|MIGkAgEBBD|MIHcAgEBBE"
                r"|MC4CAQAwBQYDK2V[wu]|b3BlbnNzaC1rZXktdjE)[A-Za-z0-9+/]{16}")
# (literal, how far before it a match starts)
_DER_HINTS = (("IBADAN", 6), ("IBAAK", 6), ("AgEAMB", 4), ("MHcCAQEE", 0), ("MIGkAgEBBD", 0), ("MIHcAgEBBE", 0),
              ("MC4CAQAwBQYDK2V", 0), ("b3BlbnNzaC1rZXktdjE", 0))


def _base64_private_key(text: str) -> int:
    """Offset of a base64-encoded private key (PEM or DER) starting a base64 run, or -1 (bounded work per hint)."""
    if _B64_PEM in text:
        import binascii

        for pos in find_all(text, _B64_PEM):
            if pos and text[pos - 1] in _B64_CHARS:
                continue
            head = _B64_HEAD.match(text, pos).group()  # type: ignore[union-attr]  # pos is where it matched
            try:
                line = binascii.a2b_base64(head[:len(head) // 4 * 4]).split(b"\n", 1)[0]
            except (binascii.Error, ValueError):
                continue
            if b"PRIVATE KEY" in line:
                return pos
    starts = sorted({p - back for hint, back in _DER_HINTS if hint in text for p in find_all(text, hint) if p >= back})
    for pos in starts:
        if (not pos or text[pos - 1] not in _B64_CHARS) and _DER_KEY.match(text, pos):
            return pos
    return -1


def find_secret(text: str, lowered: str | None = None) -> tuple[int, str] | None:
    """``(offset, reason)`` of the first secret found in ``text``, or None.

    Each pattern is tried only where its keyword is (``scan``); with no offset-true folded
    text (an ``İ`` in it) the ignore-case patterns scan the whole text.
    """
    return next(secret_hits(text, lowered), None)


# A terminal escape glued to a secret (``ESC[1mghp_…``: bold, then the token) hides it from every
# detector that wants a word boundary before it. The detectors read such text with each escape blanked
# to as many spaces (offsets unchanged). Bounded repeats: linear.
_ESCAPE = lazy(r"\x1b(?:\[[0-?]{0,64}[ -/]{0,16}[@-~]|\][^\x07\x1b]{0,4096}(?:\x07|\x1b\\)?|[@-Z\\-_])")


def _blank_escapes(text: str) -> str:
    return _ESCAPE.sub(lambda m: " " * len(m.group()), text)


def secret_hits(text: str, lowered: str | None = None):
    """Every ``(offset, reason)`` ``find_secret`` would look at, detector by detector (a generator:
    ``find_secret`` takes the first and stops; the per-span safety stage walks them all)."""
    if "\x1b" in text:
        text, lowered = _blank_escapes(text), None
    if lowered is None:
        lowered = lower(text)
    low = folded(text, lowered)

    def where(pattern, starts_of):
        if low is None:
            return pattern.finditer(text)
        return matches(pattern, text, starts_of(low))

    for present, pattern, starts_of, reason in (
        ("private key" in lowered, _PRIVATE_KEY, None, "private-key"),
        ("uthorization" in lowered, _AUTH_HEADER, lambda t: find_all(t, "authorization"), "auth-header"),
        ("://" in text and "@" in text, _USERINFO, None, "url-userinfo"),
        ("hooks.slack.com/" in text, _SLACK_HOOK, None, "slack-webhook"),
        ("priv" in text or "prime1:" in text or "coefficient:" in text, _PRIVATE_FIELD, None, "private-key-text"),
        ("cookie" in lowered, _COOKIE_HEADER, lambda t: line_starts(t, ("cookie",)), "cookie-header"),
    ):
        if not present:
            continue
        if pattern is _USERINFO:
            found = matches(pattern, text, _url_starts(text))
        elif pattern is _PRIVATE_FIELD:
            found = matches(pattern, text, line_starts(text, _PRIVATE_FIELDS))
        elif starts_of is None:
            found = pattern.finditer(text)  # a literal first character: ``re`` skips to it by itself
        else:
            found = where(pattern, starts_of)
        for m in found:
            yield m.start(), reason
    pos = _base64_private_key(text)
    if pos >= 0:
        yield pos, "private-key-base64"
    hinted = any(h in lowered for h in _ASSIGN_HINTS)
    if hinted and "=" in text:
        for m in where(_ASSIGN, lambda t: run_starts(t, _ASSIGN_HINTS)):
            if not benign_value(text, m.start()):
                yield m.start(), "secret-assignment"
    if ("pass" in lowered or "_pwd" in lowered) and "=" in text:
        for m in where(_PASS_ASSIGN, lambda t: run_starts(t, ("pass", "_pwd"))):
            if not benign_value(text, m.start()):
                yield m.start(), "secret-assignment"
    if hinted and ":" in text:
        for m in where(_KEY_HEADER, lambda t: line_starts(t, _ASSIGN_HINTS)):
            if not is_masked(m.group(0)):
                yield m.start(), "secret-header"
    if (hinted or '"auth"' in lowered) and '"' in text:
        for m in where(_JSON_KEY, _json_key_starts):
            if not _PUBLIC_TOKEN_KEY.match(text, m.start()) and not benign_value(text, m.start()):
                yield m.start(), "secret-json-key"
    if ("machine" in lowered and "password" in lowered and "login" in lowered
            and first(_NETRC_MACHINE, text, line_starts(text, ("machine", "default")))):
        pw = first(_NETRC_PASSWORD, text, _netrc_password_starts(text))
        if pw:
            yield pw.start(), "netrc"


# --- command lines -------------------------------------------------------------------
# shared with the PostgreSQL store, which withholds a command line any of these match
_URL_USERINFO = lazy(r"(\b[a-z][a-z0-9+.-]{0,63}://)[^/@\s:]+:[^/@\s]+@", re.I)  # a bounded scheme: linear
# credentials given on a command line (the output classifier looks at output, not at argv)
_CRED_ARG = lazy(
    r"(?:^|\s)(?:-u|--user)[\s=]+\S+:\S+"                                # curl -u user:pass
    r"|(?:^|\s)--?(?:password|passwd|pass|token|api-key|secret)[\s=]+\S+"  # --password x, --token=x
    r"|\b\w*(?:PASSWORD|PASSWD|TOKEN|SECRET|API_KEY|APIKEY|ACCESS_KEY)\w{0,32}=\S+"  # PGPASSWORD=x cmd
    r"|\b\w*(?:_PASS|_PWD|PGPASS)=\S+"                                     # MYSQL_PWD=x mysql, PGPASS=x
    r"|(?<![\w-])[\w-]{0,64}(?:api-?key|auth-token|access-token|private-token|cookie)\s*:\s*\S+"  # -H 'Cookie: …'
    r"|(?:^|\s)(?:-b|--cookie)(?:\s+|=)['\"]?[^\s'\"=]+="                   # curl -b 'sessionid=…'
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
    ("=", lazy(r"((?<![A-Za-z0-9_])[A-Za-z0-9_]{0,64}(?:_pass|_pwd|pgpass)[ \t]*=[ \t]*)[^\s'\";&|]+", re.I), r"\1***"),
    # a cookie or key header on a command line, quoted: -H 'Cookie: a=1; b=2', -H "X-Api-Key: k"
    (":", lazy(r"(['\"])((?:[A-Za-z0-9]{1,20}-){0,4}(?:api-?key|auth-token|access-token|private-token|cookie)"
               r"[ \t]*:[ \t]*)[^'\"]+\1", re.I), r"\1\2***\1"),
    # a cookie string given to curl: -b 'sessionid=…', --cookie=a=b (a file name has no '=': kept)
    ("-", lazy(r"((?:^|\s)(?:-b|--cookie)(?:[ \t]+|=))(['\"])[^'\"=]*=[^'\"]*\2"), r"\1\2***\2"),
    ("-", lazy(r"((?:^|\s)(?:-b|--cookie)(?:[ \t]+|=))[^\s'\"=]+=[^\s'\"]*"), r"\1***"),
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
    if any(h in command for h in _TOKEN_HINTS):
        command = _SECRET_TOKENS.sub("***", command)
    return command
