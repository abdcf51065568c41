"""Lazy patterns are built from the compiled form a previous process kept (``sqz_core.lazyre``): the same
pattern object as ``re.compile`` gives, without running ``re``'s parser again; a damaged or foreign file
costs only the compile it would have cost anyway."""

import json
import os
import re
import subprocess
import sys
import textwrap

import pytest

from sqz_core import lazyre

# real patterns of the core (a command line's set-up prefix, a secret's assignment) and named groups, flags
PATTERNS = [
    (r"""^(?:\s*(?:(?:cd|pushd|source|\.)\s+(?:'[^']*'|"[^"$`\\]*"|[^\s;&|<>()'"`$]+))\s*(?:&&|;))+\s*""", 0),
    (r"^(?P<status>[AMDTUXB]|[RC]\d{1,3})\t(?P<path>[^\t]+)(?:\t(?P<to>[^\t]+))?$", re.M),
    (r"(?i)\bpass(?:word)?\s*[:=]\s*(\S+)", 0),
    (r"(\w+)@(\w+)\.com", re.I | re.M),
]
SAMPLES = ["cd /tmp && git status", "R100\told.py\tnew.py\nM\tx.py", "Password = hunter2", "Bob@Example.COM a@b.com"]

PROBE = textwrap.dedent('''
    import json, os, re, sys
    from sqz_core import lazyre
    lazyre.keep_forms_in(os.environ["SQZ_CACHE_DIR"])  # as the sqz command does (hot.main)
    if sys.argv[1] == "no-parser":  # a kept form must not need re's parser
        def refuse(*a, **k):
            raise AssertionError("parsed again")
        re._parser.parse = refuse
    out = []
    for pattern, flags in json.loads(sys.argv[2]):
        p = lazyre.lazy(pattern, flags)
        out.append([p.flags, p.groups, dict(p.groupindex),
                    [[m.span(), m.groups()] for s in json.loads(sys.argv[3]) for m in p.finditer(s)]])
    print(json.dumps(out))
''')


def run(tmp_path, mode: str = "plain") -> list:
    r = subprocess.run([sys.executable, "-c", PROBE, mode, json.dumps(PATTERNS), json.dumps(SAMPLES)],
                       capture_output=True, text=True, env=dict(os.environ, SQZ_CACHE_DIR=str(tmp_path)))
    assert r.returncode == 0 and r.stderr == "", r.stderr
    return json.loads(r.stdout)


def expected() -> list:
    out = []
    for pattern, flags in PATTERNS:
        p = re.compile(pattern, flags)
        out.append([p.flags, p.groups, dict(p.groupindex),
                    [[list(m.span()), list(m.groups())] for s in SAMPLES for m in p.finditer(s)]])
    return out


def kept_file(tmp_path):
    files = [f for f in os.listdir(tmp_path) if f.startswith("regex-")]
    assert len(files) == 1, files
    return tmp_path / files[0]


def test_a_later_process_builds_the_patterns_from_the_kept_forms_alone(tmp_path):
    assert run(tmp_path) == expected()  # the first process compiles and keeps the forms at exit
    assert kept_file(tmp_path).stat().st_size > 0
    assert run(tmp_path, "no-parser") == expected()  # the next one never parses: the same patterns


def test_without_kept_forms_the_parser_runs(tmp_path):
    """The probe's refusal is real: with nothing kept, building a pattern needs the parser."""
    r = subprocess.run([sys.executable, "-c", PROBE, "no-parser", json.dumps(PATTERNS[:1]), json.dumps(SAMPLES)],
                       capture_output=True, text=True, env=dict(os.environ, SQZ_CACHE_DIR=str(tmp_path)))
    assert r.returncode != 0 and "parsed again" in r.stderr


@pytest.mark.parametrize("damage", [b"", b"not marshal at all", b"\xe9\x00\x00\x00"])
def test_a_damaged_file_costs_a_compile_and_is_written_anew(tmp_path, damage):
    run(tmp_path)
    path = kept_file(tmp_path)
    path.write_bytes(damage)
    assert run(tmp_path) == expected()  # compiled by re, no error on stderr (run checks it)
    assert path.stat().st_size > len(damage)  # rewritten with good forms at exit
    assert run(tmp_path, "no-parser") == expected()


def test_a_form_sre_refuses_is_compiled_by_re_instead(tmp_path, monkeypatch):
    monkeypatch.setattr(lazyre, "_forms", {(r"(a)(b)", 0): (0, [1, 2, 3], 1, {}, (None, None))})
    monkeypatch.setattr(lazyre, "_state", {"dir": None, "new": True})
    p = lazyre.compile_cached(r"(a)(b)")
    assert p.match("ab").groups() == ("a", "b")
    assert (r"(a)(b)", 0) not in lazyre._forms  # the bad form is dropped, not written again


def test_a_bad_pattern_raises_what_re_raises():
    with pytest.raises(re.error):
        lazyre.compile_cached(r"(unclosed")
    with pytest.raises(re.error):
        lazyre.lazy(r"[z-a]").match("x")


def test_the_sqz_command_keeps_its_forms_in_its_cache_dir(tmp_path):
    """``sqz compress`` builds the core's patterns from the forms the previous call kept."""
    env = dict(os.environ, SQZ_CACHE_DIR=str(tmp_path / "cache"), SQZ_DB_PATH=str(tmp_path / "db"), SQZ_QUIET="1",
               SQZ_DAEMON="0")
    text = b"cd /tmp && export TOKEN=abc && ls\n" * 30
    first = subprocess.run([sys.executable, "-m", "sqz_core", "compress", "--cmd", "cd /tmp && ls -la"], input=text,
                           capture_output=True, env=env, check=True)
    forms = kept_file(tmp_path / "cache")
    assert forms.stat().st_size > 1000
    probe = ("import re, sys\n"
             "def refuse(*a, **k):\n    raise AssertionError('parsed again')\n"
             "from sqz_core import lazyre\n"
             "lazyre.keep_forms_in(sys.argv[1])\n"
             "pattern, flags = next(iter(lazyre._forms))\n"
             "re._parser.parse = refuse\n"
             "print(lazyre.compile_cached(pattern, flags).pattern == pattern)\n")
    r = subprocess.run([sys.executable, "-c", probe, str(tmp_path / "cache")], capture_output=True, text=True, env=env)
    assert r.stdout.strip() == "True", r.stderr
    again = subprocess.run([sys.executable, "-m", "sqz_core", "compress", "--cmd", "cd /tmp && ls -la"], input=text,
                           capture_output=True, env=env, check=True)
    assert again.returncode == first.returncode == 0
