"""pip / uv pip: facts survive, noise is dropped, near misses give None, snapshots hold."""

from __future__ import annotations

from pathlib import Path

from fmt_test_suite import FormatterSuite, other, text_of
from sqz_testing import load_fixture, missing_facts
from sqz_formatters_test import py_pip as formatter

# refused: uv_add_conflict (uv's resolution error) has nothing to drop
suite = FormatterSuite(formatter, "pip", refused={"uv_add_conflict",
                                                  # held-out pass #2: nothing to drop (pip check, uv lock) or not
                                                  # ours (poetry)
                                                  "h2_pip_check", "h2_uv_lock_upgrade", "h2_poetry_add",
                                                  "h2_poetry_add_conflict"})
run, ask = suite.run, suite.ask
globals().update(suite.standard_tests(
    complete={'download', 'install_already', 'install_fresh', 'install_no_version', 'uv_install', 'uv_install_error',
              'install_v_sdist', 'install_v_no_version'},
    # install_already / install_requirements_again are mostly "Requirement already satisfied" lines: each one
    # stays whole (a dependency's name and version are what is installed)
    ratios={'install_fresh': 0.14, 'install_already': 0.9, 'download': 0.34, 'uv_install': 0.7,
            'install_requirements': 0.08, 'install_requirements_again': 0.9, 'install_v_sdist': 0.3}))

# pip install -v -e . of a setuptools project (a held-out capture of the generic pack's fixtures)
EDITABLE = (Path(__file__).resolve().parents[2] / "sqz_formatters_generic" / "tests" / "fixtures" / "generic"
            / "pip_install_editable_verbose.txt")


def test_near_miss_other_subcommands():
    text = text_of("pip", "install_fresh")
    assert ask(text, "pip list") is None
    assert ask(text, "pip show requests") is None
    assert ask(text_of("pip", "uv_sync"), "uv lock") is None
    assert ask(text_of("pip", "uv_sync"), "uv run pytest") is None
    assert ask(text_of("pip", "uv_install"), "uv tree") is None


def test_uv_project_commands_keep_every_package_and_the_new_venv():
    text, out = text_of("pip", "uv_add"), run(other("pip", "uv_add"))
    assert out.splitlines()[:3] == ["Using CPython 3.11.7 interpreter at: /root/.pyenv/versions/3.11.7/bin/python3.11",
                                    "Creating virtual environment at: .venv", "Installed 10 packages in 81ms"]
    assert [x for x in text.splitlines() if x.startswith(" + ")] == out.splitlines()[3:]
    out = run(other("pip", "uv_remove"))
    assert out.splitlines()[:2] == ["Uninstalled 5 packages in 95ms", "Installed 1 package in 1ms"]
    assert " ~ uvproj==0.1.0 (from file:///tmp/sqz-capture/pyjs/pipho/uvproj)" in out
    assert "Resolved" not in out and "Building" not in out and "Prepared" not in out
    # an up-to-date sync says nothing but its resolver and audit lines: nothing to keep, left alone
    assert ask("Resolved 10 packages in 1ms\nAudited 10 packages in 0.05ms\n", "uv sync") is None


def test_near_miss_not_pip_output():
    assert ask(text_of("npm", "install_deprecated"), "pip install requests") is None
    assert ask(text_of("pip", "install_fresh"), "uv pip install requests") is None


def test_requirements_already_satisfied_keep_their_versions():
    text = text_of("pip", "install_already")
    out = run(other("pip", "install_already"))
    satisfied = [x for x in text.splitlines() if x.startswith("Requirement already satisfied: ")]
    assert len(satisfied) == 5 and all(x + "\n" in out for x in satisfied)   # dependencies too, whole
    assert "Looking in" not in out and "dependencies already satisfied" not in out


def test_dependencies_of_a_requirements_file_keep_their_versions():
    text, out = text_of("pip", "install_requirements_again"), run(other("pip", "install_requirements_again"))
    assert out.count("Requirement already satisfied: ") == 16
    # each dependency keeps its requirement, location and version; its chain is cut to the requirement it
    # comes from (`(from A->B->Z)` → `(from …->Z)`); a one-link `(from …)` stays whole
    assert "Requirement already satisfied: mdurl~=0.1 in ./venv/lib/python3.11/site-packages " \
           "(from markdown-it-py>=2.2.0->rich->-r requirements.txt (line 3)) (0.1.2)\n" in text
    assert "Requirement already satisfied: mdurl~=0.1 in ./venv/lib/python3.11/site-packages " \
           "(from …->-r requirements.txt (line 3)) (0.1.2)\n" in out
    for line in text.splitlines():
        if line.startswith("Requirement already satisfied: "):
            head, version = line.split(" (from ")[0], line[line.rfind(" ("):]
            assert any(x.startswith(head + " (from ") and x.endswith(version) for x in out.splitlines()), line
            if "->" not in line:
                assert line + "\n" in out
    assert "Processing" not in out and "WARNING: Location" not in out


def test_verbose_editable_install_keeps_what_was_built_and_installed():
    fx = load_fixture(EDITABLE)
    text = fx.request().text
    out = formatter.sqz_format(request=fx.request())
    assert missing_facts(out, fx.facts) == []
    for line in ("Obtaining file:///tmp/sqz-capture/generic/proj",
                 "    Downloading setuptools-84.2.1-py3-none-any.whl (876 kB)",
                 "  Running command pip subprocess to install build dependencies",   # says where setuptools went
                 "  Successfully installed setuptools-84.2.1",
                 ("Requirement already satisfied: certifi>=2017.4.17 in /tmp/sqz-capture/generic/venv/lib/python3.11/"
                  "site-packages (from …->tally==0.3.1) (2026.10.19.post1)"),
                 "  Building editable for tally (pyproject.toml): finished with status 'done'",
                 ("  Created wheel for tally: filename=tally-0.3.1-0.editable-py3-none-any.whl size=1396 "
                  "sha256=40389b9b36d0d188f29bb8dab2ab1fa9bb2a2b17efb22734a0b9273cbda886cf"),
                 "Successfully built tally", "          ['src']",
                 "  `packages.find.exclude/include` may have no effect.",
                 "  changing mode of /tmp/sqz-capture/generic/venv/bin/tally to 755"):
        assert line + "\n" in out, line
    # setuptools' per-file log, the steps' progress and pip's index chatter go
    for gone in ("running egg_info", "writing manifest file", "adding 'tally-0.3.1.dist-info/METADATA'",
                 "creating '/tmp/pip-wheel-", "Running command Building editable", ": started",
                 "Getting requirements to build editable", "Stored in directory", "Looking in indexes",
                 "Collecting setuptools", "Installing collected packages", "━━"):
        assert gone not in out, gone
    assert "51 lines of build progress and compiler commands dropped" in out
    assert len(out) < 0.5 * len(text)


def test_verbose_sdist_build_keeps_downloads_with_sizes_and_the_wheel():
    out = run(other("pip", "install_v_sdist"))
    assert out.splitlines()[1:4] == ["  Downloading click-8.1.7-py3-none-any.whl (97 kB)",
                                     "  Downloading itsdangerous-2.2.0.tar.gz (54 kB)",
                                     "  Running command pip subprocess to install build dependencies"]
    assert out.splitlines()[-4:-1] == [
        ("  Created wheel for itsdangerous: filename=itsdangerous-2.2.0-py3-none-any.whl size=16276 "
         "sha256=768a966d122781ba94678cca2bf15466d5620f1c321427ababad8fb30eb11d0b"),
        "Successfully built itsdangerous", "Successfully installed click-8.1.7 itsdangerous-2.2.0"]
    assert "Collecting" not in out and "Preparing metadata" not in out and "WARNING: Location" not in out


def test_downloads_stay_only_when_pip_was_asked_for_detail():
    text = text_of("pip", "install_fresh")
    assert "Downloading" not in ask(text, "pip install requests")
    for cmd in ("pip install -v requests", "pip install --verbose requests", "pip install -vv requests"):
        out = ask(text, cmd)
        assert "  Downloading certifi-2026.10.19.post1-py3-none-any.whl (134 kB)\n" in out, cmd
        assert "━━" not in out
    assert "Downloading" not in ask(text, "pip install -r dev-v.txt")


def test_missing_version_verbose_keeps_the_versions_and_pip_banner():
    text = text_of("pip", "install_v_no_version")
    out = ask(text, "pip install -v --no-cache-dir requests==0.0.999", exit_code=1)
    assert out is not None and out.startswith("Using pip 23.2.1 from ")
    assert "(from versions: 0.2.0, 0.2.1," in out and "2.34.0.dev1, 2.34.0, 2.34.1, 2.34.2)" in out
    assert "WARNING: Location" not in out and "Looking in" not in out


def test_failed_build_step_keeps_its_status():
    out = run(other("pip", "install_build_error"))
    assert "  Building wheel for fastcalc (setup.py): finished with status 'error'\n" in out
    assert "Preparing metadata (setup.py): finished with status 'done'" not in out
    text = ("Using pip 23.2.1 from /v/pip (python 3.11)\nProcessing ./x\n"
            "  Preparing metadata (pyproject.toml): started\n  Running command Preparing metadata (pyproject.toml)\n"
            "  running dist_info\n  error: invalid version 'x'\n"
            "  Preparing metadata (pyproject.toml): finished with status 'error'\n"
            "ERROR: metadata-generation-failed\n")
    out = formatter.compact_pip(text.splitlines())
    assert out[1:4] == ["  error: invalid version 'x'",
                        "  Preparing metadata (pyproject.toml): finished with status 'error'",
                        "ERROR: metadata-generation-failed"]


def test_build_log_lines_outside_a_build_step_are_kept():
    """setuptools-shaped lines count as build log only inside `Running command …` (up to its step's status
    or pip's next less indented line)."""
    text = ("Using pip 23.2.1 from /v/pip (python 3.11)\n"
            "  Running command Building wheel for x (setup.py)\n  running bdist_wheel\n"
            "  Building wheel for x (setup.py): finished with status 'done'\n  running bdist_wheel\n"
            "  Running command Building wheel for y (setup.py)\n  creating build\n"
            "Successfully built x y\n  copying a -> b\nSuccessfully installed x-1 y-1\n")
    out = formatter.compact_pip(text.splitlines())
    assert out == ["Using pip 23.2.1 from /v/pip (python 3.11)",
                   "  Building wheel for x (setup.py): finished with status 'done'", "  running bdist_wheel",
                   "Successfully built x y", "  copying a -> b", "Successfully installed x-1 y-1",
                   ("(2 lines of build progress and compiler commands dropped; "
                    "2 lines of index/download/progress output dropped)")]


def test_build_backend_box_keeps_the_error_drops_progress_and_commands():
    out = run(other("pip", "install_build_error"))
    lines = out.splitlines()
    i = lines.index("  ╰─> [14 lines of output]")
    assert lines[i + 3:i + 7] == [
        "      fastcalc.c:2:10: fatal error: missing_header.h: No such file or directory",
        "      compilation terminated.",
        "      error: command '/usr/bin/gcc' failed with exit code 1",
        "      [end of output]"]
    assert "running build_ext" not in out and "gcc -Wsign-compare" not in out
    assert '#include "missing_header.h"' not in out                 # the snippet: the location says it
    assert "likely not a problem with pip" not in out and "Running setup.py clean" not in out
    assert "ERROR: Failed building wheel for fastcalc" in out
    assert "9 lines of build progress and compiler commands dropped" in out


def test_box_without_its_end_is_kept():
    text = ("Processing ./x\n  error: subprocess-exited-with-error\n  ╰─> [3 lines of output]\n"
            "      running build\n      gcc -c x.c\nERROR: Failed building wheel for x\n")
    out = formatter.compact_pip(text.splitlines())
    assert out[2:4] == ["      running build", "      gcc -c x.c"]
