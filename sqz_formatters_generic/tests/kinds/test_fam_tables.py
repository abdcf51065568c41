"""Issue 25 item 4's table and tree families (fixtures fam_*, captured by scripts/capture_fam_tables.sh):
a big ``find`` as a tree with every path still on the page, psql cells that go on over lines."""

from __future__ import annotations

from pathlib import Path

from sqz_core.api import FormatRequest
from sqz_formatters_generic.kinds.listings import TREE_NOTE, compress_find, tree_paths
from sqz_testing import load_fixture

FIX = Path(__file__).parent.parent / "fixtures" / "kinds"


def _paths_back(rendered: str) -> list[str]:
    """Every path of a ``tree_paths`` rendering: the directory names above a file, joined by ``/``."""
    import shlex

    stack: list[str] = []        # the directory (joined chain) at each depth
    out: list[str] = []
    for line in rendered.rstrip("\n").split("\n")[1:]:
        if line.startswith("["):
            continue             # the counts per extension
        body = line.lstrip(" ")
        depth = (len(line) - len(body)) // 2
        head, sep, leaves = body.partition("/: ") if "/: " in body else (body[:-1], "", "")
        if not body.endswith("/") and not sep:
            out.append(body)     # a file at the top
            continue
        del stack[depth:]
        parent = stack[-1] + "/" if stack else ""
        stack.append(parent + head)
        out.extend(stack[-1] + "/" + n for n in shlex.split(leaves))
    return out


def test_every_path_of_a_big_find_is_on_the_page():
    fx = load_fixture(FIX / "find" / "fam_find_django_py.txt")
    out = compress_find(fx.request())
    assert out.startswith(TREE_NOTE.format(n=1761).split(" paths")[0])
    assert sorted(_paths_back(out)) == sorted(fx.text.split())
    assert len(out) < len(fx.text) // 2


def test_tree_paths_reads_back_quoted_names_and_keeps_find_errors():
    paths = [f"./src/pkg/mod{i}.py" for i in range(12)] + [f"./src/other/deep/x{i}.py" for i in range(8)]
    paths += ["./src/pkg/a b.py", "./top.py"]
    text = "\n".join(paths[:5]) + "\nfind: './locked': Permission denied\n" + "\n".join(paths[5:]) + "\n"
    out = tree_paths(text)
    assert out is not None and "find: './locked': Permission denied\n" in out
    assert "'a b.py'" in out and "      deep/: " not in out and "other/deep/: x0.py" in out   # a lone chain is one line
    assert sorted(_paths_back(out.replace("find: './locked': Permission denied\n", ""))) == sorted(paths)


def test_tree_paths_near_misses():
    files = "".join(f"./d{i % 3}/f{i}.py\n" for i in range(30))
    assert tree_paths(files) is not None
    assert tree_paths("".join(f"./d/f{i}.py\n" for i in range(19))) is None        # too short to be worth it
    assert tree_paths("./d0\n" + files) is None                                    # a directory printed itself
    assert tree_paths(files + "./d0/\n") is None                                   # a path ending in /
    assert tree_paths(files + "./d1/f1.py\n") is None                              # a path twice
    assert tree_paths(files.replace("./d2/f2.py", "./d2//f2.py")) is None          # not one plain path
    # a full `find DIR` (every directory printed) keeps the grouped form, which marks them
    full = compress_find(FormatRequest("./d0\n" + files, "find ."))
    assert full is not None and not full.startswith("[find:")


def test_a_multi_line_psql_cell_stays_with_its_row():
    fx = load_fixture(FIX / "table" / "fam_psql_multiline_note.txt")
    from sqz_formatters_generic.kinds.aligned_table import compact_ruled_text

    out = compact_ruled_text(fx.text)
    assert "13 paid 95.55 call first\n  then ring twice\n18 shipped" in out
    assert out.count("then ring twice") == 3 and out.endswith("(7 rows)\n")


def _pipeline(fx, tmp_path):
    from sqz_core.pipeline import compress
    from sqz_core.store import Store

    store = Store.open(str(tmp_path / "db.sqlite"))
    return store, compress(fx.raw, command=fx.command, store=store, session="s1")


def test_a_small_psql_table_whose_every_word_stays_needs_no_recovery_line(tmp_path):
    # issue 25: collapsed padding keeps every cell and word, so a small table passes the gate without
    # the recovery line; the original is stored all the same
    fx = load_fixture(FIX / "table" / "fam_psql_dt_plus.txt")
    store, r = _pipeline(fx, tmp_path)
    out = r.output.decode()
    assert r.outcome == "compressed" and "expand" not in out
    assert out.replace("|", " ").split() == [w for w in fx.text.replace("|", " ").split() if set(w) - set("-+")]
    assert store.get_blob(r.digest) == fx.raw


def test_a_table_rendering_that_drops_a_word_still_ends_with_the_recovery_line(tmp_path):
    fx = load_fixture(FIX / "table" / "psql_describe_pg_class.txt")   # its empty columns said once: a note
    _, r = _pipeline(fx, tmp_path)
    out = r.output.decode()
    assert "[empty on every row: " in out and out.rstrip("\n").split("\n")[-1].startswith("[sqz expand ")
