"""Issue 29.1: no regular expression of any installed sqz distribution stalls on adversarial text.

Every module-level pattern (``re.compile`` or ``lazy_pattern``) of every installed ``sqz_*``
package is searched (``finditer`` to the end, as ``sub`` and ``findall`` scan) over each seed of
``regex_corpus/seeds.json`` repeated to 10 KB and 100 KB, as one line and as lines. A linear
pattern takes milliseconds on 100 KB even on a loaded machine; one with adjacent or nested
unbounded repeats over overlapping classes takes minutes (``[a](b`` × 20,000 against
``\\[[^\\]\\n]+\\]\\([^)\\s]+[^)\\n]*\\)`` is cubic). The searches run in a worker process that reports
each one done; one that does not finish within HANG (a hang guard, 100× a slow machine's linear
time, not a speed claim) is recorded, the worker is killed and restarted after it.
"""

from __future__ import annotations

import importlib
import json
import os
import pkgutil
import re
import select
import subprocess
import sys
import textwrap

HERE = os.path.dirname(os.path.abspath(__file__))
SEEDS = os.path.join(HERE, "regex_corpus", "seeds.json")
SIZES = (10 * 1024, 100 * 1024)
HANG = 30.0  # seconds for one search of 100 KB: a hang detector

WORKER = textwrap.dedent('''
    import json, re, sys
    items = json.loads(sys.stdin.readline())
    texts = {}
    for i, (pattern, flags, anchored, seed, size, lines) in enumerate(items):
        key = (seed, size, lines)
        if key not in texts:
            unit = seed if not lines or seed.endswith("\\n") else seed + "\\n"
            texts[key] = (unit * (size // len(unit) + 1))[:size]
        rx = re.compile(pattern, flags)
        if anchored:  # used only with match/fullmatch: at the start (a short line's match is cheap)
            rx.match(texts[key])
        else:  # every match to the end, as sub and findall scan (subn loops in C)
            rx.subn("", texts[key])
        sys.stdout.write(f"{i}\\n")
        sys.stdout.flush()
''')


def _packages() -> list[str]:
    """Every importable top-level ``sqz_*`` package (editable installs included)."""
    return sorted({m.name for m in pkgutil.iter_modules() if m.name.startswith("sqz_")})


def _modules(package: str):
    try:
        pkg = importlib.import_module(package)
    except Exception:  # a distribution whose optional dependency is missing here: not importable, not run
        return
    yield pkg
    for info in pkgutil.walk_packages(getattr(pkg, "__path__", []), prefix=package + "."):
        if ".tests" in info.name or info.name.endswith(("__main__", ".conftest")):
            continue
        try:
            yield importlib.import_module(info.name)
        except Exception:
            continue


def _anchored_names(module) -> set[str]:
    """Names of the module's patterns that its own source only ever uses with ``match``/``fullmatch``
    (anchored at a position: searched over lines, not over every offset); a pattern used any other
    way, or not named in the source, is searched at every offset."""
    try:
        with open(module.__file__, encoding="utf-8") as fh:
            source = fh.read()
    except (OSError, TypeError):
        return set()
    uses: dict[str, set[str]] = {}
    for m in re.finditer(r"\b([A-Za-z_]\w*)\b(?:(\.\w+)|(\s*=(?!=)))?", source):
        if not m.group(3):  # not its definition
            uses.setdefault(m.group(1), set()).add(m.group(2) or "")
    return {name for name, how in uses.items() if how and how <= {".match", ".fullmatch"}}


def installed_patterns() -> dict[tuple[str, int, bool], str]:
    """(pattern, flags, anchored) -> the first ``module:NAME`` that defines it, over every installed
    sqz package; ``anchored`` when the module only uses it with match/fullmatch."""
    found: dict[tuple[str, int, bool], str] = {}
    for package in _packages():
        for module in _modules(package):
            anchored = _anchored_names(module)
            for name, value in list(vars(module).items()):
                if isinstance(value, re.Pattern) and isinstance(value.pattern, str):
                    key = (value.pattern, value.flags & ~re.UNICODE)
                elif type(value).__name__ == "LazyPattern" and isinstance(value.__dict__.get("_source"), tuple):
                    pattern, flags = value.__dict__["_source"]
                    if not isinstance(pattern, str):
                        continue
                    key = (pattern, int(flags))
                else:
                    continue
                found.setdefault((*key, name in anchored), f"{module.__name__}:{name}")
    return found


def _seeds() -> dict[str, str]:
    with open(SEEDS, encoding="utf-8") as fh:
        return {k: v for k, v in json.load(fh).items() if not k.startswith("_")}


def slow_searches(patterns: dict[tuple[str, int, bool], str], seeds: dict[str, str]) -> list[str]:
    """Each (pattern, input) whose search did not end within HANG, described."""
    items = [(p, f, a, seed, size, lines) for (p, f, a) in patterns for seed in seeds.values()
             for size in SIZES for lines in ((False,) if a else (False, True))]
    slow: list[str] = []
    start = 0
    while start < len(items):
        proc = subprocess.Popen([sys.executable, "-c", WORKER], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        proc.stdin.write(json.dumps(items[start:]).encode() + b"\n")
        proc.stdin.close()
        done = start - 1
        buf = b""
        try:
            while True:
                ready, _, _ = select.select([proc.stdout], [], [], HANG)
                if not ready:  # the search after ``done`` hangs
                    p, f, a, seed, size, lines = items[done + 1]
                    name = next(k for k, v in seeds.items() if v == seed)
                    slow.append(f"{patterns[(p, f, a)]} {p!r} ({'match' if a else 'search'}) on {name!r} x "
                                f"{size // 1024} KB"
                                + (" (lines)" if lines else " (one line)"))
                    break
                chunk = os.read(proc.stdout.fileno(), 65536)
                if not chunk:
                    if proc.wait() != 0:
                        raise AssertionError(f"the worker failed after item {done}")
                    return slow
                buf += chunk
                *lines_done, buf = buf.split(b"\n")
                if lines_done:
                    done = start + int(lines_done[-1])
        finally:
            if proc.poll() is None:
                proc.kill()
            proc.wait()
            proc.stdout.close()
        start = done + 2
    return slow


def test_the_corpus_covers_the_shapes_of_issue_29():
    seeds = _seeds()
    for name in ("md_link_open", "open_brackets", "letters", "spaces", "passed_count", "near_identical_lines"):
        assert name in seeds
    assert len(set(seeds.values())) == len(seeds)  # no two names for one seed


def test_patterns_are_collected_from_every_installed_package():
    patterns = installed_patterns()
    where = {v.split(":")[0].split(".")[0] for v in patterns.values()}
    assert {"sqz_core", "sqz_formatters_git", "sqz_formatters_test", "sqz_formatters_cloud"} <= where
    assert any(v.endswith("markdown_doc:_LINK") for v in patterns.values())


def test_no_installed_pattern_hangs_on_adversarial_text():
    assert slow_searches(installed_patterns(), _seeds()) == []
