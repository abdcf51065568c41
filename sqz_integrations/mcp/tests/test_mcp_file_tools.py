"""The lossless file tools, in process: every line faithful, caps announced, roots enforced."""

from __future__ import annotations

import os

import pytest

from sqz_mcp import file_tools
from sqz_mcp.compression import Compressor
from sqz_mcp.file_tools import ToolError
from sqz_mcp.roots import PathRefused, Roots
from sqz_mcp.tools import ToolBox


@pytest.fixture()
def tree(tmp_path):
    root = tmp_path / "proj"
    (root / "src").mkdir(parents=True)
    (root / "src" / "app.py").write_text("def main():\n    return 'needle'\n")
    (root / "src" / "util.py").write_text("x = 1\n# needle here too\n")
    for bulk in ("node_modules", ".git", "dist", "__pycache__"):
        (root / bulk).mkdir()
        (root / bulk / "junk.js").write_text("needle in bulk\n")
    (root / "img.bin").write_bytes(b"\x89PNG\x00\x00needle")
    return root


def box(root, *extra) -> ToolBox:
    return ToolBox(Roots([str(root), *map(str, extra)]), Compressor())


def text_of(res) -> str:
    assert len(res["content"]) == 1 and res["content"][0]["type"] == "text"
    return res["content"][0]["text"]


# -- sqz_read_file ---------------------------------------------------------------------------
def test_read_keeps_every_byte_but_ansi(tmp_path):
    body = "a = 1   \r\nb\t= '\x1b[31mred\x1b[0m'\r\n\x0cpage\n\n\n  trailing  \n"
    (tmp_path / "f.txt").write_bytes(body.encode())
    res = box(tmp_path).call("sqz_read_file", {"path": "f.txt"}, "s1")
    assert text_of(res) == body.replace("\x1b[31m", "").replace("\x1b[0m", "")
    assert "isError" not in res


def test_read_cap_stops_on_line_boundary_with_continue_offset(tmp_path):
    lines = [f"line {i:05d} " + "x" * 80 + "\n" for i in range(1, 5001)]
    (tmp_path / "big.txt").write_text("".join(lines))
    res = text_of(box(tmp_path).call("sqz_read_file", {"path": "big.txt", "max_bytes": 10000}, "s1"))
    header, _, body = res.partition("\n")
    n = 10000 // len(lines[0])
    assert header == (f"[sqz_read_file: big.txt lines 1-{n}, stopped at the 10000-byte cap; "
                      f"continue_with_offset={n + 1} (max_bytes=0 lifts the cap)]")
    assert body == "".join(lines[:n])
    nxt = text_of(box(tmp_path).call("sqz_read_file", {"path": "big.txt", "offset": n + 1, "limit": 3}, "s2"))
    assert nxt == "".join(lines[n:n + 3])


def test_read_default_cap_is_256k_and_zero_lifts_it(tmp_path):
    data = "".join(f"{i:09d}\n" for i in range(40000))  # 400 KB
    (tmp_path / "big.txt").write_text(data)
    capped = text_of(box(tmp_path).call("sqz_read_file", {"path": "big.txt"}, "s1"))
    assert "stopped at the 262144-byte cap; continue_with_offset=26215" in capped.split("\n", 1)[0]
    whole = text_of(box(tmp_path).call("sqz_read_file", {"path": "big.txt", "max_bytes": 0}, "s2"))
    assert whole == data


def test_read_cuts_an_oversized_single_line_on_a_character_boundary(tmp_path):
    (tmp_path / "min.js").write_text("é" * 1000 + "\nnext\n")
    res = text_of(box(tmp_path).call("sqz_read_file", {"path": "min.js", "max_bytes": 101}, "s1"))
    header, _, body = res.partition("\n")
    assert "line 1 is longer than the 101-byte cap and was cut after 100 bytes" in header
    assert "continue_with_offset=2" in header
    assert body == "é" * 50


def test_read_refuses_binary_and_directories_and_reports_bad_utf8(tmp_path):
    (tmp_path / "b.bin").write_bytes(b"abc\x00def")
    (tmp_path / "latin.txt").write_bytes(b"caf\xe9\nok\n")
    tb = box(tmp_path)
    res = tb.call("sqz_read_file", {"path": "b.bin"}, "s")
    assert res["isError"] and "binary file (7 bytes)" in text_of(res)
    res = tb.call("sqz_read_file", {"path": "."}, "s")
    assert res["isError"] and "is a directory" in text_of(res)
    out = text_of(tb.call("sqz_read_file", {"path": "latin.txt"}, "s"))
    assert out == "[sqz_read_file: not valid UTF-8; 1 invalid byte sequence(s) shown as U+FFFD]\ncaf\ufffd\nok\n"
    res = tb.call("sqz_read_file", {"path": "latin.txt", "offset": 9}, "s")
    assert text_of(res) == "[sqz_read_file: latin.txt has 2 lines; offset 9 is past the end]\n"
    assert text_of(tb.call("sqz_read_file", {"path": "latin.txt", "limit": "x"}, "s")) == "limit must be an integer, got 'x'"


def test_read_repeat_is_a_ref_and_tiny_content_is_always_sent(tmp_path):
    body = "".join(f"print('line {i}')\n" for i in range(60))
    (tmp_path / "m.py").write_text(body)
    (tmp_path / "tiny.txt").write_text("ok\n")
    (tmp_path / "empty.txt").write_text("")
    tb = box(tmp_path)
    assert text_of(tb.call("sqz_read_file", {"path": "m.py"}, "s")) == body
    again = text_of(tb.call("sqz_read_file", {"path": "m.py"}, "s"))
    assert again.startswith("§ref:") and len(again) < 200
    assert text_of(tb.call("sqz_read_file", {"path": "m.py"}, "other-session")) == body
    for _ in range(2):
        assert text_of(tb.call("sqz_read_file", {"path": "tiny.txt"}, "s")) == "ok\n"
        assert text_of(tb.call("sqz_read_file", {"path": "empty.txt"}, "s")) == "(empty file)\n"
    ref = again.split("§")[1]
    assert text_of(tb.call("expand", {"ref": f"§{ref}§"}, "s")) == body


def test_file_with_a_credential_is_never_turned_into_a_ref(tmp_path):
    body = "".join(f"setting_{i} = {i}\n" for i in range(30)) + "AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\n"
    (tmp_path / ".env").write_text(body)
    tb = box(tmp_path)
    for _ in range(2):
        assert text_of(tb.call("sqz_read_file", {"path": ".env"}, "s")) == body


# -- roots -------------------------------------------------------------------------------------
def test_paths_outside_the_roots_and_escaping_symlinks_are_refused(tmp_path):
    inside = tmp_path / "in"
    outside = tmp_path / "out"
    inside.mkdir()
    outside.mkdir()
    (outside / "secret.txt").write_text("top secret\n")
    os.symlink(outside / "secret.txt", inside / "link.txt")
    os.symlink(outside, inside / "linkdir")
    tb = box(inside)
    for path in ("../out/secret.txt", str(outside / "secret.txt"), "link.txt", "linkdir/secret.txt"):
        res = tb.call("sqz_read_file", {"path": path}, "s")
        assert res["isError"], path
        assert "outside the allowed roots" in text_of(res) and "top secret" not in text_of(res)
    assert "resolves to" in text_of(tb.call("sqz_read_file", {"path": "link.txt"}, "s"))
    res = tb.call("sqz_grep", {"pattern": "secret", "path": "linkdir"}, "s")
    assert res["isError"]
    # the grep walk skips a link that leaves the roots
    assert text_of(tb.call("sqz_grep", {"pattern": "top secret"}, "s")).startswith("no matches")
    # --root adds a root
    assert text_of(box(inside, outside).call("sqz_read_file", {"path": "link.txt"}, "s")) == "top secret\n"


def test_roots_resolve_errors():
    roots = Roots(["/"])
    with pytest.raises(PathRefused, match="no such file"):
        roots.resolve("/definitely/not/here")
    with pytest.raises(PathRefused, match="NUL"):
        roots.resolve("a\x00b")


# -- sqz_grep ----------------------------------------------------------------------------------
def test_grep_literal_skips_bulk_dirs_and_binaries(tree):
    out = text_of(box(tree).call("sqz_grep", {"pattern": "needle"}, "s"))
    assert out == "src/app.py:2:    return 'needle'\nsrc/util.py:2:# needle here too\n"


def test_grep_regex_ignore_case_and_bad_regex(tree):
    tb = box(tree)
    out = text_of(tb.call("sqz_grep", {"pattern": r"^X = \d", "regex": True, "ignore_case": True}, "s"))
    assert out == "src/util.py:1:x = 1\n"
    assert text_of(tb.call("sqz_grep", {"pattern": "(", "regex": False, "path": "src"}, "s")) == "src/app.py:1:def main():\n"
    assert text_of(tb.call("sqz_grep", {"pattern": "absent", "path": "src"}, "s")) == "no matches for 'absent' under src\n"
    res = tb.call("sqz_grep", {"pattern": "(", "regex": True}, "s")
    assert res["isError"] and "invalid regular expression" in text_of(res)


def test_grep_caps_are_announced(tmp_path):
    (tmp_path / "a.txt").write_text("".join(f"hit {i}\n" for i in range(500)))
    tb = box(tmp_path)
    out = text_of(tb.call("sqz_grep", {"pattern": "hit"}, "s"))
    lines = out.splitlines()
    assert lines[0] == ("[sqz_grep: stopped at max_matches=200 (200 matches in 1 files shown; more exist: "
                        "narrow the pattern or path, or raise max_matches)]")
    assert lines[1:] == [f"a.txt:{i + 1}:hit {i}" for i in range(200)]
    out = text_of(tb.call("sqz_grep", {"pattern": "hit", "max_bytes": 100}, "s2"))
    assert out.startswith("[sqz_grep: stopped at max_bytes=100 (7 matches in 1 files shown;")
    assert len(out.split("]\n", 1)[1].encode()) <= 100
    exact = text_of(tb.call("sqz_grep", {"pattern": "hit 49", "max_matches": 11}, "s3"))
    assert not exact.startswith("[")  # exactly 11 matches: nothing was cut, so no header


def test_grep_clips_long_lines_around_the_hit_on_character_boundaries(tmp_path):
    line = "😀" * 1000 + "NEEDLE" + "ü" * 1000
    (tmp_path / "min.js").write_text(line + "\n")
    out = text_of(box(tmp_path).call("sqz_grep", {"pattern": "NEEDLE", "max_line_chars": 40}, "s"))
    header, _, body = out.partition("\n")
    assert header == "[sqz_grep: 1 line(s) longer than 40 chars clipped around the match (max_line_chars)]"
    prefix, text = body.rstrip("\n").split(":", 2)[::2]
    assert prefix == "min.js"
    assert text == "…" + "😀" * 17 + "NEEDLE" + "ü" * 17 + "…"


def test_grep_repeat_dedupes(tmp_path):
    (tmp_path / "a.txt").write_text("".join(f"match number {i}\n" for i in range(40)))
    tb = box(tmp_path)
    first = text_of(tb.call("sqz_grep", {"pattern": "match"}, "s"))
    assert first.count("\n") == 40
    again = text_of(tb.call("sqz_grep", {"pattern": "match"}, "s"))
    assert again.startswith("§ref:") and len(again) < 150
    assert text_of(tb.call("expand", {"ref": again.split("§")[1].split(":")[1]}, "s")) == first


# -- sqz_list_dir ---------------------------------------------------------------------------------
def test_list_dir_names_only_skips_bulk_dirs(tree):
    tb = box(tree)
    assert text_of(tb.call("sqz_list_dir", {}, "s")) == (
        "img.bin\nsrc/\n[not listed: .git/, __pycache__/, dist/, node_modules/]\n")
    assert text_of(tb.call("sqz_list_dir", {"max_depth": 2}, "s2")) == (
        "img.bin\nsrc/\n  app.py\n  util.py\n[not listed: .git/, __pycache__/, dist/, node_modules/]\n")


def test_list_dir_max_entries_and_symlinks(tmp_path):
    tmp_path = tmp_path / "d"
    tmp_path.mkdir()
    for i in range(30):
        (tmp_path / f"f{i:02d}").write_text("")
    os.symlink("/etc", tmp_path / "zz-link")
    tb = box(tmp_path)
    out = text_of(tb.call("sqz_list_dir", {"max_entries": 5}, "s")).splitlines()
    assert out == ["[sqz_list_dir: stopped at max_entries=5; list a subdirectory or raise max_entries]",
                   "f00", "f01", "f02", "f03", "f04"]
    assert text_of(tb.call("sqz_list_dir", {}, "s")).endswith("f29\nzz-link/ -> /etc\n")
    res = tb.call("sqz_list_dir", {"path": "f00"}, "s")
    assert res["isError"] and "not a directory" in text_of(res)


def test_cut_utf8_never_splits_a_character():
    data = "aé😀".encode()
    assert [file_tools._cut_utf8(data, n).decode() for n in range(len(data) + 1)] == \
        ["", "a", "a", "aé", "aé", "aé", "aé", "aé😀"]


def test_bad_arguments_are_tool_errors(tree):
    tb = box(tree)
    assert tb.call("sqz_read_file", {}, "s")["isError"]
    assert tb.call("sqz_grep", {"pattern": ""}, "s")["isError"]
    assert tb.call("sqz_list_dir", {"max_depth": 0}, "s")["isError"]
    assert tb.call("sqz_read_file", [], "s")["isError"]
    with pytest.raises(ToolError):
        file_tools._int_arg({"n": True}, "n", 1, 0)


# -- no check-then-open: special files and paths swapped for links --------------------------------
def _within(seconds: float, fn):
    """``fn()``'s result, or a failure if it has not returned after ``seconds`` (a blocked open)."""
    import threading
    out = {}
    t = threading.Thread(target=lambda: out.setdefault("v", fn()), daemon=True)
    t.start()
    t.join(seconds)
    assert not t.is_alive(), f"still blocked after {seconds} s"
    return out["v"]


def test_a_fifo_inside_the_root_is_refused_at_once_and_grep_skips_it(tmp_path):
    tmp_path = tmp_path / "proj"
    tmp_path.mkdir()
    os.mkfifo(tmp_path / "pipe")
    (tmp_path / "a.txt").write_text("needle\n")
    tb = box(tmp_path)
    res = _within(1.0, lambda: tb.call("sqz_read_file", {"path": "pipe"}, "s"))
    assert res["isError"] and text_of(res) == "pipe is not a regular file"
    found = _within(1.0, lambda: text_of(tb.call("sqz_grep", {"pattern": "needle"}, "s")))
    assert found == "a.txt:1:needle\n"
    # grep aimed at the FIFO itself finds nothing and returns
    assert _within(1.0, lambda: text_of(tb.call("sqz_grep", {"pattern": "x", "path": "pipe"}, "s"))).startswith(
        "no matches")
    assert _within(1.0, lambda: text_of(tb.call("sqz_list_dir", {}, "s"))) == "a.txt\npipe\n"


def _swap_for_link(tmp_path):
    """A root with ``sub/f.txt`` checked by ``resolve``, then ``sub`` replaced by a link to outside."""
    root = tmp_path / "root"
    (root / "sub").mkdir(parents=True)
    (root / "sub" / "f.txt").write_text("inside\n")
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "f.txt").write_text("top secret\n")
    roots = Roots([str(root)])
    real_file = roots.resolve("sub/f.txt")
    real_dir = roots.resolve("sub")
    os.rename(root / "sub", tmp_path / "moved")
    os.symlink(outside, root / "sub")
    return roots, real_file, real_dir


def test_a_directory_swapped_for_a_link_after_the_check_is_not_followed(tmp_path):
    roots, real_file, real_dir = _swap_for_link(tmp_path)
    with pytest.raises(ToolError) as exc:
        file_tools.read_file(real_file, "sub/f.txt", {}, roots)
    assert "top secret" not in str(exc.value)
    assert file_tools.grep(roots, real_dir, {"pattern": "secret"}).startswith("no matches")
    with pytest.raises(ToolError):
        file_tools.list_dir(roots, real_dir, {})
    with pytest.raises(OSError):
        os.close(roots.open_fd(real_file))


def test_a_file_swapped_for_a_link_after_the_check_is_not_followed(tmp_path):
    (tmp_path / "f.txt").write_text("inside\n")
    (tmp_path / "secret").mkdir()
    (tmp_path / "secret" / "s.txt").write_text("top secret\n")
    roots = Roots([str(tmp_path / "secret"), str(tmp_path)])
    real = roots.resolve(str(tmp_path / "f.txt"))
    os.remove(real)
    os.symlink("/etc/hostname", real)
    with pytest.raises(ToolError) as exc:
        file_tools.read_file(real, "f.txt", {}, roots)
    assert "symbolic link" in str(exc.value)
