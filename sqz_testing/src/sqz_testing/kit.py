"""Helpers for plugin tests and the quality benchmark: captured fixtures and their facts.

A fixture is two files side by side:

``NAME.txt``   the real, captured output of a real program (bytes as produced);
``NAME.json``  where it came from and what must survive::

    {
      "command": "git status -sb",          # the command line, as given to --cmd
      "produced_by": "git version 2.39.5",  # tool and version that printed it
      "exit_code": 0,                       # the command's exit status
      "facts": ["## main...origin/main [ahead 1]",          # a statement that must survive ...
                ["src/app.py", "modified"]],               # ... or parts that must share one line
      "dropped": ["(use \\"git add <file>...\\""],  # optional: substrings a formatter should remove
      "notes": "how it was made; placeholders used"   # optional
    }
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

from sqz_core.api import FormatRequest


class Fixture:
    """One captured output and its metadata."""

    __slots__ = ("path", "raw", "meta")

    def __init__(self, path: Path, raw: bytes, meta: dict) -> None:
        self.path = path
        self.raw = raw
        self.meta = meta

    @property
    def name(self) -> str:
        return self.path.stem

    @property
    def text(self) -> str:
        return self.raw.decode("utf-8")

    @property
    def command(self) -> str | None:
        return self.meta.get("command")

    @property
    def facts(self) -> list[str]:
        return list(self.meta.get("facts", []))

    @property
    def dropped(self) -> list[str]:
        return list(self.meta.get("dropped", []))

    def request(self, **overrides) -> FormatRequest:
        """A ``FormatRequest`` for this fixture, as the pipeline would build it (ANSI already cleaned)."""
        from sqz_core.api import clean_terminal

        kw = {"exit_code": self.meta.get("exit_code")}
        kw.update(overrides)
        return FormatRequest(clean_terminal(self.text), self.command, **kw)

    def __repr__(self) -> str:
        return f"Fixture({self.path.name!r}, command={self.command!r})"


def load_fixture(path: str | Path) -> Fixture:
    """Load ``NAME.txt`` (or ``NAME.json``) and its sidecar."""
    p = Path(path)
    txt, meta = p.with_suffix(".txt"), p.with_suffix(".json")
    return Fixture(txt, txt.read_bytes(), json.loads(meta.read_text(encoding="utf-8")))


def iter_fixtures(root: str | Path) -> list[Fixture]:
    """Every fixture under ``root`` (sidecars with a ``command`` key), sorted by path."""
    out = []
    for meta in sorted(Path(root).rglob("*.json")):
        if not meta.with_suffix(".txt").exists():
            continue
        data = json.loads(meta.read_text(encoding="utf-8"))
        if isinstance(data, dict) and "command" in data:
            out.append(load_fixture(meta))
    return out


_HSPACE_RUN = re.compile(r"[ \t]+")
_BLANK_LINES = re.compile(r"\n(?: ?\n)+")


def _squeeze(text: str) -> str:
    return _BLANK_LINES.sub("\n", _HSPACE_RUN.sub(" ", text))


def fact_kept(output: str, fact, *, _lines: list[str] | None = None) -> bool:
    """Whether ``output`` still states ``fact``.

    A fact is a statement of information picked from the raw output (a test id with its
    outcome, a path with its status, a number with its label):

    - a string: present as it stands, runs of spaces/tabs counting as one space and
      blank lines not counting (aligned padding and empty lines may go, nothing else
      may change); a string may span lines (an outcome under its count);
    - a list of strings: every part present on one line of ``output`` (same spacing rule),
      for a statement whose parts a formatter may put in another order or layout;
    - ``{"under": HEADER, "line": PARTS}``: PARTS (a string or a list, as above) on one line
      that either holds HEADER too or sits, indented, under a line that holds it (its
      nearest less-indented line above; ``tree``'s box-drawing characters count as
      indentation): a diagnostic with its file when a formatter prints each path once over
      its diagnostics (``src/main.c`` / ``  10:5: error: …``), a file in its directory.

    Everywhere, a decimal number at either end of a fact or part must stand whole: ``6`` is
    not stated by ``16, 26: error``, nor ``4 failed`` by ``14 failed`` (an id such as a short
    commit hash may still be a prefix of the full one).
    """
    if isinstance(fact, dict):
        return _under_kept(output, fact["under"], fact["line"])
    if isinstance(fact, str):
        return _holds(_squeeze(fact), _squeeze(output))
    parts = [_squeeze(p) for p in fact]
    lines = _lines if _lines is not None else [_squeeze(line) for line in output.splitlines()]
    return any(all(_holds(p, line) for p in parts) for line in lines)


_INDENT_CHARS = " \t\xa0│├└─┬┼"  # `tree` draws its nesting with box-drawing characters


def _under_kept(output: str, header: str, line_parts) -> bool:
    parts = [_squeeze(p) for p in ([line_parts] if isinstance(line_parts, str) else line_parts)]
    header = _squeeze(header)
    stack: list[tuple[int, str]] = []  # (indent, squeezed line) of the lines that enclose this one
    for raw in output.splitlines():
        if not raw.strip():
            continue
        indent = len(raw) - len(raw.lstrip(_INDENT_CHARS))
        while stack and stack[-1][0] >= indent:
            stack.pop()
        line = _squeeze(raw)
        if all(_holds(p, line) for p in parts) and (header in line or (stack and header in stack[-1][1])):
            return True
        stack.append((indent, line))
    return False


_WORD_END = re.compile(r"^[0-9A-Za-z]+|[0-9A-Za-z]+$")


def _number_end(part: str, side: int) -> bool:
    """Whether ``part`` starts (side 0) or ends (side -1) with a decimal number, not an id like ``99d72f``."""
    if not part[side].isdigit():
        return False
    words = _WORD_END.findall(part)
    return (words[0] if side == 0 else words[-1]).isdigit()


def _holds(part: str, text: str) -> bool:
    """``part`` in ``text``, where a number at either end of ``part`` is not a piece of a longer one:
    ``6`` is not stated by ``16, 26: error: …``, nor ``4 failed`` by ``14 failed``."""
    if not part:
        return True
    head, tail = _number_end(part, 0), _number_end(part, -1)
    at = text.find(part)
    if not (head or tail):
        return at >= 0
    while at >= 0:
        end = at + len(part)
        if not (head and at > 0 and text[at - 1].isdigit()) and not (tail and end < len(text) and text[end].isdigit()):
            return True
        at = text.find(part, at + 1)
    return False


# -- the word rule (issue 25): a fact is kept when every word of it is still in the output ----------
_FACT_WORD = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.\-/@+~%]*")
_HEX_ID = re.compile(r"[0-9a-f]{7,}")
_WORD_BOUNDARY = "A-Za-z0-9_"


def fact_words(fact) -> list[str]:
    """The words of a fact (every part of it, the header of an ``under`` fact too): identifiers,
    paths, numbers — runs of letters, digits and ``_ . - / @ + ~ %`` (so ``src/app.py``,
    ``HTTP/1.1``, ``2.31.0`` are one word each; quotes, brackets, colons and spaces separate), with
    a trailing ``.``/``-``/``/`` (sentence punctuation) left off."""
    if isinstance(fact, dict):
        parts = [fact["under"]] + ([fact["line"]] if isinstance(fact["line"], str) else list(fact["line"]))
    elif isinstance(fact, str):
        parts = [fact]
    else:
        parts = list(fact)
    out: list[str] = []
    for part in parts:
        for word in _FACT_WORD.findall(part):
            word = word.rstrip(".-/")
            if word and word not in out:
                out.append(word)
    return out


def _word_in(word: str, output: str, hex_runs: set[str]) -> bool:
    if _HEX_ID.fullmatch(word) and any(c.isalpha() for c in word) and any(c.isdigit() for c in word):
        # a commit/object id: kept by any 7+ character prefix of it (or it is a prefix of a longer id there)
        return any(word.startswith(run) or run.startswith(word) for run in hex_runs)
    pattern = f"(?<![{_WORD_BOUNDARY}]){re.escape(word)}(?![{_WORD_BOUNDARY}])"
    return re.search(pattern, output) is not None


def fact_kept_by_words(output: str, fact, *, _hex_runs: set[str] | None = None) -> bool:
    """Whether every word of ``fact`` (see :func:`fact_words`) is still somewhere in ``output``.

    Issue 25's judge, looser than :func:`fact_kept` about layout and order (a header printed once
    over its lines keeps its words) and as strict about the words themselves: ``modified:``
    rewritten as ``M`` loses the word ``modified``; a number must stand whole (``4`` is not in
    ``14``); a hexadecimal id of 7 characters or more counts as kept by any 7+ character prefix.
    """
    hex_runs = _hex_runs if _hex_runs is not None else {r for r in _HEX_ID.findall(output) if len(r) >= 7}
    return all(_word_in(w, output, hex_runs) for w in fact_words(fact))


def missing_facts_by_words(output: str, facts) -> list:
    """The facts that ``output`` lost by the word rule (:func:`fact_kept_by_words`)."""
    hex_runs = set(_HEX_ID.findall(output))
    return [f for f in facts if not fact_kept_by_words(output, f, _hex_runs=hex_runs)]


def bytes_at_rest(folder, name: str = "db.sqlite") -> bytes:
    """Every byte a SQLite store named ``name`` left on disk in ``folder`` (the db, its -wal and -shm),
    for tests that a secret never reaches the disk."""
    import glob

    data = b""
    for path in sorted(glob.glob(os.path.join(str(folder), name + "*"))):
        with open(path, "rb") as fh:
            data += fh.read()
    return data


def missing_facts(output: str, facts) -> list:
    """The facts (see :func:`fact_kept`) that ``output`` lost."""
    lines = [_squeeze(line) for line in output.splitlines()]
    return [f for f in facts if not fact_kept(output, f, _lines=lines)]


def assert_snapshot(actual: str, path: str | Path) -> None:
    """Compare ``actual`` with the snapshot file at ``path``.

    With ``SQZ_UPDATE_SNAPSHOTS=1`` the file is (re)written instead, so a change in a
    formatter's output shows up as a diff in review. A missing snapshot fails.
    """
    import os

    p = Path(path)
    if os.environ.get("SQZ_UPDATE_SNAPSHOTS") == "1":
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(actual, encoding="utf-8", newline="")
        return
    if not p.exists():
        raise AssertionError(f"snapshot {p} is missing: run the tests with SQZ_UPDATE_SNAPSHOTS=1 to create it")
    expected = p.read_text(encoding="utf-8")
    if actual != expected:
        import difflib

        diff = "".join(difflib.unified_diff(expected.splitlines(True), actual.splitlines(True),
                                            "snapshot", "actual", n=2))
        raise AssertionError(f"output differs from snapshot {p}:\n{diff[:4000]}")


# Package-registry host names and this machine's index paths must not reach committed fixtures.
# Matched by shape, so no host is named here: a domain whose name carries a package ecosystem's
# word or a registry label (documentation and help sites excepted), and /opt/<index> paths
# (local index mirrors).
_REGISTRY_HOST = re.compile(
    r"(?<![\w.-])(?!(?:docs|help)\.)(?:[a-z0-9-]+\.)*"
    r"(?:[a-z0-9-]*(?:pypi|pythonhosted|npmjs|crates|maven|gradle|golang|docker|terraform|opentofu|rubygems"
    r"|nuget|packagist)[a-z0-9-]*|registry(?:-\d+)?|deb)"
    r"(?:\.[a-z0-9-]+)*\.(?:org|io|com|net|dev)\b(?![.\w-])"
)
_INDEX_PATH = re.compile(r"(file://)?/opt/(?:pypi[\w.-]*|wheels|npm[\w.-]*|index[\w.-]*)\b")
PLACEHOLDER = "pkgs.example.org"


def redact_registries(data):
    """``data`` (str or bytes) with registry hosts and local index paths replaced by ``pkgs.example.org``.

    Idempotent; used by every capture script before a fixture is written.
    """
    if isinstance(data, bytes):
        return redact_registries(data.decode("utf-8", "surrogateescape")).encode("utf-8", "surrogateescape")
    data = _REGISTRY_HOST.sub(PLACEHOLDER, data)
    return _INDEX_PATH.sub(lambda m: (m.group(1) or "") + "/" + PLACEHOLDER, data)


def registry_mentions(text: str) -> list[str]:
    """Registry hosts or index paths still present in ``text`` (for hygiene tests)."""
    return [m.group(0) for m in _REGISTRY_HOST.finditer(text)] + [m.group(0) for m in _INDEX_PATH.finditer(text)]


# -- deterministic complexity guards (tests assert these, never wall-clock times) ----------------

def work_done(fn, *args, **kwargs):
    """``(fn(*args, **kwargs), lines of Python it ran)``: a count of work that does not depend on the
    machine's speed or load, so a linearity guard built on it never flakes (no timed assertions)."""
    import sys

    lines = 0

    def trace(frame, event, arg):
        nonlocal lines
        if event == "line":
            lines += 1
        return trace

    previous = sys.gettrace()
    sys.settrace(trace)
    try:
        result = fn(*args, **kwargs)
    finally:
        sys.settrace(previous)
    return result, lines


def grows_linearly(small: int, large: int, factor: int) -> bool:
    """Work on an input ``factor`` times larger is at most ``factor`` × 1.25 the work: linear passes
    (plus constant set-up) stay under it; a pass quadratic in the input size costs ``factor``² as much."""
    return large <= small * factor * 1.25


def nested_repeats(pattern: str) -> list[str]:
    """The variable-length repeats of ``pattern`` that sit inside a repeat that may run more than
    once and can backtrack (not possessive, not atomic): ``(a+)+``, ``(a|aa)+``. That shape
    backtracks exponentially on a line that almost matches; a deterministic check, not a timing."""
    from re import _constants as c
    from re import _parser

    found = []

    def walk(items, inside: bool) -> None:
        for op, av in items:
            if op in (c.MAX_REPEAT, c.MIN_REPEAT):
                lo, hi, sub = av
                if inside and lo != hi:
                    found.append(f"{lo}..{hi} inside a repeat")
                walk(sub, inside or hi > 1)
            elif op is c.SUBPATTERN:
                walk(av[3], inside)
            elif op is c.BRANCH:
                widths = {_parser.SubPattern(_parser.State(), b).getwidth() for b in av[1]}
                if inside and len(widths) > 1:
                    found.append("alternatives of different lengths inside a repeat")
                for branch in av[1]:
                    walk(branch, inside)
            elif op in (c.ASSERT, c.ASSERT_NOT):
                walk(av[1], inside)
            # POSSESSIVE_REPEAT and ATOMIC_GROUP never give back what they matched: no backtracking

    walk(_parser.parse(pattern), False)
    return found


def regex_patterns(module) -> dict[str, str]:
    """Every regular expression a module keeps at its top (compiled or lazy), by name."""
    import re

    out = {}
    for name, value in vars(module).items():
        if isinstance(value, re.Pattern):
            out[name] = value.pattern
        elif type(value).__name__ == "LazyPattern":
            out[name] = value.__dict__["_source"][0]
    return out
