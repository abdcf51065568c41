"""Status values: the numbers a fold must never merge (a 404 among 200s, an exit code 1 among 0s).

Template folding masks a line's numbers so that lines equal but for them group together; a
status is not such a number: ``response:404`` among ``response:200`` lines is the one event that
matters, and a fold that says ``response:200–404`` has lost it. ``protect`` turns the digits of
every status value into other characters, so a masking pass that looks for digits leaves them in
the template: lines with different statuses get different templates, and a line with a status of
its own is kept whole. A status is a 3-digit value after an HTTP request line or ``HTTP``
(``"GET /x HTTP/1.1" 404``, ``HTTP 502``), or a whole number after a status key
(``status=500``, ``"status": 404``, ``response:404``, ``code 1``, ``exit status 2``, ``rc=1``).
One anchored regex per line: linear.
"""

from __future__ import annotations

from sqz_core.api import lazy_pattern as lazy

_STATUS = lazy(
    r"(?=(?i:[hscre]))"  # where a match can begin (same matches; ``re`` passes other offsets with one test)
    r"(?:HTTP/\d(?:\.\d)?\"? |\bHTTP |(?i:\b(?:status|code)\s+)"
    r"|(?i:\b(?:status|statuscode|status_code|http_status|httpstatus|response|resp|code|rc|exit|exitcode|exit_code"
    r"|returncode|return_code|result)\b)[\"']?\s*[=:]\s*[\"']?)(\d{1,3})\b(?![.\d])"
)
# digits to characters no masking pattern reads as a digit (Unicode private use)
_HIDE = str.maketrans("0123456789", "\ue000\ue001\ue002\ue003\ue004\ue005\ue006\ue007\ue008\ue009")
_SHOW = str.maketrans("\ue000\ue001\ue002\ue003\ue004\ue005\ue006\ue007\ue008\ue009", "0123456789")


def protect(line: str) -> str:
    """``line`` with the digits of its status values hidden from number masks (for a template key
    only: the line shown is always the original)."""
    if "HTTP" not in line and not _maybe_status(line):
        return line
    return _STATUS.sub(lambda m: m.group(0)[:m.start(1) - m.start(0)] + m.group(1).translate(_HIDE), line)


def reveal(text: str) -> str:
    """``text`` (a template or a piece of one) with hidden status digits shown again."""
    return text.translate(_SHOW)


_KEYS = ("status", "Status", "STATUS", "response", "Response", "code", "Code", "rc", "exit", "Exit",
         "result", "Result", "resp")


def _maybe_status(line: str) -> bool:
    return any(k in line for k in _KEYS)
