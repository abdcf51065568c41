"""`sqz report --html`: one self-contained page, rendered in a real headless browser.

Needs Chromium (Debian: `apt-get install -y chromium`; CI installs it in .ci/run). Set
SQZ_CHROMIUM to use another Chromium-based binary.
"""

from __future__ import annotations

import os
import re
import shutil
import struct
import subprocess
import sys
import zlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
RED = (ROOT / "sqz_formatters_test/tests/fixtures/pytest/red_default.txt").read_bytes()
CARGO = (ROOT / "sqz_formatters_test/tests/fixtures/cargo/test_fail.txt").read_bytes()
STATUS = (ROOT / "sqz_formatters_git/tests/fixtures/status/long_en.txt").read_bytes()
WIDTH, HEIGHT = 1000, 900
GREEN, BLUE = (0x38, 0xA1, 0x69), (0x2B, 0x6C, 0xB0)  # report.SAVED, report.BAR


def sqz(*args, stdin=b"", env=None):
    return subprocess.run([sys.executable, "-m", "sqz_core", *args], input=stdin, capture_output=True, env=env)


def chromium() -> str:
    for name in (os.environ.get("SQZ_CHROMIUM"), "chromium", "chromium-browser", "google-chrome"):
        if name and shutil.which(name):
            return shutil.which(name)
    raise AssertionError("no Chromium found: install it (Debian: apt-get install -y chromium) or set SQZ_CHROMIUM")


def decode_png(data: bytes) -> tuple[int, int, list[bytes]]:
    """Width, height and unfiltered rows of an 8-bit RGB/RGBA non-interlaced PNG (what Chromium writes)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, head = 8, [], None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            head = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat.append(body)
        pos += 12 + length
    width, height, depth, colour, _c, _f, interlace = head
    assert depth == 8 and colour in (2, 6) and interlace == 0, head
    bpp = 3 if colour == 2 else 4
    raw = zlib.decompress(b"".join(idat))
    stride = width * bpp
    rows, prev = [], bytearray(stride)
    for y in range(height):
        kind = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        if kind == 1:
            for i in range(bpp, stride):
                line[i] = (line[i] + line[i - bpp]) & 0xFF
        elif kind == 2:
            line = bytearray((a + b) & 0xFF for a, b in zip(line, prev))
        elif kind == 3:
            for i in range(stride):
                left = line[i - bpp] if i >= bpp else 0
                line[i] = (line[i] + ((left + prev[i]) >> 1)) & 0xFF
        elif kind == 4:
            for i in range(stride):
                a = line[i - bpp] if i >= bpp else 0
                b, c = prev[i], prev[i - bpp] if i >= bpp else 0
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 0xFF
        rows.append(bytes(line))
        prev = line
    if bpp == 4:  # drop alpha: rows of RGB triples
        rows = [bytes(b for i in range(0, stride, 4) for b in r[i:i + 3]) for r in rows]
    return width, height, rows


@pytest.fixture()
def report_file(tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith("SQZ_")}
    env.update(SQZ_DB_PATH=str(tmp_path / "sqz.db"), SQZ_QUIET="1", SQZ_SESSION="rep", SQZ_AGENT="claude-code")
    for data, cmd in ((RED, "pytest"), (CARGO, "cargo test --no-fail-fast"), (STATUS, "git status"), (RED, "pytest")):
        assert sqz("compress", "--cmd", cmd, stdin=data, env=env).returncode == 0
    out = tmp_path / "report.html"
    r = sqz("report", "--html", str(out), "--model", "claude-opus-4-6", env=env)
    assert r.returncode == 0, r.stderr
    return out


def test_page_is_self_contained(report_file):
    page = report_file.read_text("utf-8")
    assert page.startswith("<!DOCTYPE html>") and page.count("<svg ") == 2
    lowered = page.lower()
    for needle in ("<script", "src=", "href=", "@import", "url(", "http://", "<link", "<iframe", "<img"):
        assert needle not in lowered, needle
    assert "cl100k (tiktoken, exact)" in page and "Claude Opus 4.6" in page
    assert re.search(r"carried on 10 request\(s\)", page)
    for family in ("pytest", "cargo", "git"):
        assert f"<td>{family}</td>" in page


def test_page_renders_in_headless_chromium(report_file, tmp_path):
    shot = tmp_path / "report.png"
    r = subprocess.run([chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                        f"--user-data-dir={tmp_path / 'profile'}", f"--window-size={WIDTH},{HEIGHT}",
                        f"--screenshot={shot}", report_file.as_uri()], capture_output=True, timeout=120)
    assert shot.exists(), r.stderr.decode(errors="replace")[-2000:]
    width, height, rows = decode_png(shot.read_bytes())
    assert (width, height) == (WIDTH, HEIGHT)
    pixels = [row[i:i + 3] for row in rows for i in range(0, len(row), 3)]
    white = bytes((255, 255, 255))
    inked = sum(1 for p in pixels if p != white)
    assert inked > 0.03 * len(pixels), f"page looks blank: {inked} non-white pixels"
    # the inline SVG charts were drawn: bars in the report's two colours
    assert pixels.count(bytes(GREEN)) > 2000
    assert pixels.count(bytes(BLUE)) > 2000
