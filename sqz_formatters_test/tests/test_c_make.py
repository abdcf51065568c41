"""make formatter on real captured make runs."""

from __future__ import annotations

from fmt_test_suite import FormatterSuite, raw_text
from sqz_formatters_test import c_make as formatter

# refused: captured on purpose to be refused (another locale)
suite = FormatterSuite(formatter, "make", refused={"build_de_locale"})
run, fixture, ask = suite.run, suite.fixture, suite.ask
globals().update(suite.standard_tests(at_least=3))


def test_make_error_lines_verbatim():
    out = run(fixture("build_error"))
    assert "make: *** [Makefile:12: build/main.o] Error 1" in out
    assert "make: Target 'all' not remade because of errors." in out


def test_green_build_keeps_every_compiled_file_in_one_template():
    fx = fixture("build_green")
    out = run(fx).splitlines()
    raw = fx.request().text.splitlines()
    compiles = [line for line in raw if " -c " in line]
    assert len(compiles) == 26
    assert out[0] == "cc -O2 -Isrc -c * -o * [×26, per line:]"
    values = out[1].split("; ")
    # every command rebuilds word for word from the template and its line's words
    assert [f"cc -O2 -Isrc -c {v.split()[0]} -o {v.split()[1]}" for v in values] == [" ".join(c.split()) for c in compiles]
    assert out[2].startswith("cc -O2 -o app build/main.o")       # the link step, whole
    assert not any(line.startswith("[dropped") for line in out)


def test_brotli_build_folds_its_compiles_and_keeps_archive_and_link():
    fx = fixture("s10_brotli_green_j2")
    out = run(fx)
    raw = fx.request().text
    sources = [w for w in raw.split() if w.endswith(".c")]
    assert len(sources) == 36
    assert set(sources) <= set(out.replace(";", " ").split())
    assert out.splitlines()[0] == "gcc -O2 -fPIC -Ic/include -c * -o * [×36, per line:]"
    assert "gcc -o brotli c/tools/brotli.o libbrotli.a -lm" in out.splitlines()
    assert any(line.startswith("ar rcs libbrotli.a c/common/constants.o") for line in out.splitlines())


def test_compiles_of_other_shapes_stay_whole_and_diagnostics_keep_locations():
    fx = fixture("s10_brotli_warnings_j2")
    out = run(fx).splitlines()
    assert out[0].startswith("gcc -O2 -fPIC -Wall -Wextra -Wcast-qual -Wmissing-prototypes -Ic/include -c * -o * [×36")
    assert "c/enc/compound_dictionary.c:191:30: warning: cast discards 'const' qualifier from pointer target type " \
           "[-Wcast-qual]" in out
    assert not any(line.lstrip().startswith("|") for line in out)      # the source snippets go


def test_cargo_output_is_not_ours():
    text = raw_text("cargo", "build_error")
    assert ask(text, "make", 2) is None


def test_dry_run_is_not_ours():
    text = fixture("build_green").request().text
    assert ask(text, "make -n", 0) is None


def test_error_snippets_dropped_locations_kept():
    out = run(fixture("build_error"))
    assert "total = words + p.z;" not in out and "  |" not in out
    assert "src/main.c:12:13: error: expected ‘;’ before ‘}’ token" in out
    assert "src/main.c: In function ‘main’:" in out


def test_recursive_make_keeps_the_directory_its_diagnostics_are_relative_to():
    out = run(fixture("build_recursive")).splitlines()
    lib = out.index("make[1]: Entering directory '/tmp/sqz-capture/cproj_rec/lib'")
    app = out.index("make[1]: Entering directory '/tmp/sqz-capture/cproj_rec/app'")
    assert lib < out.index("util.c:7:9: warning: unused variable ‘unused_total’ [-Wunused-variable]") < app
    assert app < out.index("main.c:10:5: error: ‘total’ undeclared (first use in this function)")
    assert not any("Leaving directory" in x for x in out)
    assert "make[1]: *** [Makefile:7: main.o] Error 1" in out


def test_directory_without_output_is_dropped():
    lines = ["make[1]: Entering directory '/w/lib'", "cc -c a.c -o a.o", "make[1]: Leaving directory '/w/lib'",
             "make[1]: Entering directory '/w/app'", "a.c:1:1: error: x", "make[1]: Leaving directory '/w/app'"]
    from sqz_formatters_test.c_make import compress_make_lines
    kept, dropped = compress_make_lines(lines, fold=True)
    assert kept == ["[dropped: directory ×3 command lines]", "cc -c a.c -o a.o", "make[1]: Entering directory '/w/app'",
                    "a.c:1:1: error: x"]
