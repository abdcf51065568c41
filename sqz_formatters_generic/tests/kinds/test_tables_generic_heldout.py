"""Fixed-layout tables of generic tools: ``python -X importtime`` and ``unzip -l``. Every
number, module (with its tree indent), name, date and count survives, rows in order; only
the repeated ``import time:`` prefix, padding, rules and a date most rows share (said once)
go. Damaged outputs (cut, a line dropped, columns swapped) are left as printed or read back
exactly as they are."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from sqz_core import FormatRequest
from sqz_formatters_generic.kinds import compress_kind, detect_kind
from sqz_formatters_generic.kinds.aligned_table import _fixed_layout, looks_like_table
from sqz_testing import grows_linearly, load_fixture, missing_facts, work_done

FIX = Path(__file__).parent.parent / "fixtures" / "generic"
IMPORTTIME = "python_importtime_requests"
UNZIP = "unzip_l_rich_wheel"


def _fixture(name: str):
    return load_fixture(FIX / f"{name}.txt")


def _text(name: str) -> str:
    return _fixture(name).request().text


def _importtime_back(rendered: str) -> str:
    """The report ``python -X importtime`` printed, from its rendering."""
    lines = rendered.rstrip("\n").split("\n")
    assert lines[1].startswith("[rows below:")
    out = [lines[0]]
    for line in lines[2:]:
        numbers, module = line.split(" | ", 1)
        self_us, cumulative = numbers.split(" ")
        out.append(f"import time: {self_us:>9} | {cumulative:>10} | {module}")
    return "\n".join(out) + "\n"


def _unzip_rows_back(rendered: str) -> list[tuple[str, str, str]]:
    """(length, date time, name) of every row of an ``unzip -l`` rendering, in order."""
    lines = rendered.rstrip("\n").split("\n")
    common = None
    if lines[1].startswith("[Date Time: "):
        common = lines[1][len("[Date Time: "):-len(" where a row shows -]")]
        lines = lines[:1] + lines[2:]
    assert lines[1] == "Length Date Time Name" and lines[-2] == "--------- -------"
    rows = []
    for line in lines[2:-2]:
        length, rest = line.split(" ", 1)
        if rest.startswith("- "):
            rows.append((length, common, rest[2:]))
        else:
            date, clock, name = rest.split(" ", 2)
            rows.append((length, f"{date} {clock}", name))
    return rows


def _unzip_rows(text: str) -> list[tuple[str, str, str]]:
    return [(line[:9].strip(), line[11:27], line[30:]) for line in text.rstrip("\n").split("\n")[3:-2]]


@pytest.mark.parametrize("name", [IMPORTTIME, UNZIP])
def test_fixture_detected_compressed_and_facts_kept(name):
    fx = _fixture(name)
    req = fx.request()
    assert detect_kind(req.text, req) == "table"
    out = compress_kind("table", req)
    assert out is not None
    assert missing_facts(out, fx.facts) == []
    assert len(out) < len(req.text) * 0.7


def test_importtime_reads_back_exactly_prefix_said_once():
    text = _text(IMPORTTIME)
    out = compress_kind("table", FormatRequest(text, "python -X importtime -c 'import requests'"))
    assert _importtime_back(out) == text
    assert out.count("import time:") == 2          # the header and the note, no row
    # the import tree: the indent after "| " is kept as printed
    assert "40 40 |     _codecs\n" in out
    assert "244 283 |   codecs\n" in out
    assert "346 214920 | requests\n" in out
    assert "324 135279 |   urllib3\n" in out
    assert "       129 |" not in out                  # padding collapsed


def test_unzip_reads_back_every_row_in_order():
    text = _text(UNZIP)
    out = compress_kind("table", FormatRequest(text, "unzip -l rich-13.9.4-py3-none-any.whl"))
    assert out.startswith("Archive:  rich-13.9.4-py3-none-any.whl\n[Date Time: 1980-01-01 00:00 where a row shows -]\n")
    assert _unzip_rows_back(out) == _unzip_rows(text)
    assert len(_unzip_rows(text)) == 83
    assert "6017 2016-01-01 00:00 rich-13.9.4.dist-info/RECORD\n" in out   # the one other date stays on its row
    assert "140235 - rich/_emoji_codes.py\n" in out
    assert out.endswith("--------- -------\n955765 83 files\n")
    assert out.count("1980-01-01") == 1


def test_unzip_varied_dates_keep_their_own():
    text = _text(UNZIP)
    lines = text.rstrip("\n").split("\n")
    # every row its own minute: no shared date, each row states its own
    rows = [line[:22] + f"{i // 60 % 24:02d}:{i % 60:02d}" + line[27:] for i, line in enumerate(lines[3:-2])]
    varied = "\n".join(lines[:3] + rows + lines[-2:]) + "\n"
    out = _fixed_layout(varied)
    assert out is not None and "[Date Time:" not in out
    assert _unzip_rows_back(out) == _unzip_rows(varied)


def _damaged(text: str):
    lines = text.rstrip("\n").split("\n")
    for k in range(1, len(lines)):
        yield "cut", "\n".join(lines[:k]) + "\n"
        yield "cut mid-line", "\n".join(lines[:k] + [lines[k][:len(lines[k]) // 2]]) + "\n"
    for k in range(len(lines)):
        yield "drop", "\n".join(lines[:k] + lines[k + 1:]) + "\n"
    rng = random.Random(7)
    for _ in range(20):
        cut = sorted(rng.sample(range(1, max(len(line) for line in lines)), 2))
        shuffled = []
        for line in lines:
            a, b, c = line[:cut[0]], line[cut[0]:cut[1]], line[cut[1]:]
            shuffled.append(a + c + b if rng.random() < 0.5 else line)
        yield "shuffle columns", "\n".join(shuffled) + "\n"


def test_importtime_damage_passthrough_or_exact():
    refused = set()
    for how, text in _damaged(_text(IMPORTTIME)):
        out = _fixed_layout(text)
        if out is None:
            refused.add(how)
        else:        # a cut at a row's end, a dropped row, a module name's letters swapped: still as printed
            assert _importtime_back(out) == text, how
    assert {"cut mid-line", "drop", "shuffle columns"} <= refused   # the header dropped, a row torn


def test_unzip_damage_passthrough_or_exact():
    original = _text(UNZIP)
    refused = set()
    for how, text in _damaged(original):
        out = _fixed_layout(text)
        if how != "shuffle columns":
            assert out is None, how          # cut or a line dropped: total, count or layout disagree
        elif out is None:
            refused.add(how)
        else:                                # letters swapped inside the names: those names, as printed
            assert _unzip_rows_back(out) == _unzip_rows(text)
    assert refused == {"shuffle columns"}


def test_unzip_footer_must_match_rows():
    text = _text(UNZIP)
    assert _fixed_layout(text.replace("   955765                     83 files",
                                      "   955765                     84 files")) is None
    assert _fixed_layout(text.replace("   955765  ", "   955766  ")) is None
    assert _fixed_layout(text.replace("     6066  1980", "     6067  1980")) is None


def test_other_text_not_claimed():
    assert _fixed_layout("Archive:  x.zip\n  inflating: a.txt\n") is None
    assert _fixed_layout("import time: self [us] | cumulative | imported package\nhello\nworld\n") is None
    assert not looks_like_table("import time:  12 | 12 | x\n")


def _linear(build):
    small, work_small = work_done(_fixed_layout, build(1))
    large, work_large = work_done(_fixed_layout, build(8))
    assert small is not None and large is not None
    assert grows_linearly(work_small, work_large, 8)


def test_importtime_linear():
    lines = _text(IMPORTTIME).rstrip("\n").split("\n")
    _linear(lambda n: "\n".join(lines[:1] + lines[1:] * n) + "\n")


def test_unzip_linear():
    lines = _text(UNZIP).rstrip("\n").split("\n")
    rows = lines[3:-2]

    def build(n):
        total = sum(int(r[:9]) for r in rows) * n
        return "\n".join(lines[:3] + rows * n + [lines[-2], f"{total:>9}                     {len(rows) * n} files"]) + "\n"
    _linear(build)
