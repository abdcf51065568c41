"""The plugin contract kept: sqz's dispatch calls hooks as pluggy does, or the index refuses the plugin.

Dispatch runs without pluggy (the hot path cannot afford the import), so each test
here declares tiny plugins inline, as pluggy's own tests do, and checks the fast
dispatch against a real ``pluggy.PluginManager`` holding the same plugins: same
call order, same result. Where sqz differs on purpose (it fails open: a plugin that
raises or answers what its spec does not allow is skipped with one warning), the
test says so. Plugins pluggy would refuse are refused when the index is built.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pluggy
import pytest

from sqz_core import hookimpl, hookspecs, plugins
from sqz_core.request import FormatRequest
from sqz_core.verdicts import Safety

ROOT = Path(__file__).resolve().parents[2]


# -- the two dispatchers side by side ---------------------------------------------------------
def _register(monkeypatch, named: list[tuple[str, object]]) -> list[dict]:
    """Index records for inline plugin objects, in registration order (as ``build_index`` writes them)."""
    records = []
    for name, obj in named:
        described = plugins.describe_plugin(obj)
        described.pop("problem")
        monkeypatch.setitem(plugins._modules, name, obj)
        records.append({"name": name, "module": f"inline_{name}", "attr": None, "error": None, **described})
    return records


def _pluggy(named: list[tuple[str, object]]) -> pluggy.PluginManager:
    pm = pluggy.PluginManager("sqz")
    pm.add_hookspecs(hookspecs)
    for name, obj in named:
        pm.register(obj, name=name)
    pm.check_pending()
    return pm


def both(monkeypatch, hook: str, named: list[tuple[str, object]], log: list, **kwargs):
    """``(pluggy's result, its call log), (sqz's result, its call log)`` for one hook call."""
    expected = getattr(_pluggy(named).hook, hook)(**kwargs)
    pluggy_log = list(log)
    log.clear()
    impls = plugins.implementations(hook, _register(monkeypatch, named))
    if hook in plugins.FIRSTRESULT:
        got = plugins.call_first(impls, **kwargs)[1]
    else:
        got = plugins.call_all(impls, **kwargs)
    return (expected, pluggy_log), (got, list(log))


def request(text: str = "some output\n" * 20, command: str = "tool status") -> FormatRequest:
    return FormatRequest(text, command)


def formatter(name: str, log: list, answer=None, **opts):
    """A plugin object whose ``sqz_format`` logs its name and answers ``answer``."""

    class Plugin:
        @hookimpl(**opts)
        def sqz_format(self, request):
            log.append(name)
            return answer

    Plugin.__qualname__ = Plugin.__name__ = f"Plugin_{name}"
    return Plugin()


def test_tryfirst_trylast_and_plain_order_is_pluggys(monkeypatch):
    log: list = []
    named = [("a", formatter("a", log)), ("b_last", formatter("b_last", log, trylast=True)),
             ("c_first", formatter("c_first", log, tryfirst=True)), ("d", formatter("d", log)),
             ("e_last", formatter("e_last", log, trylast=True)), ("f_first", formatter("f_first", log, tryfirst=True)),
             ("g", formatter("g", log))]
    (want, want_log), (got, got_log) = both(monkeypatch, "sqz_format", named, log, request=request())
    assert got_log == want_log == ["f_first", "c_first", "g", "d", "a", "b_last", "e_last"]
    assert got is want is None


def test_firstresult_stops_at_the_first_answer_in_pluggys_order(monkeypatch):
    log: list = []
    named = [("generic", formatter("generic", log, "GENERIC\n", trylast=True)), ("a", formatter("a", log, "A\n")),
             ("b", formatter("b", log)), ("first", formatter("first", log, tryfirst=True))]
    (want, want_log), (got, got_log) = both(monkeypatch, "sqz_format", named, log, request=request())
    assert (got, got_log) == (want, want_log) == ("A\n", ["first", "b", "a"])


def test_an_old_style_hookwrapper_keeps_the_answer_it_wraps(monkeypatch):
    # the divergence of issue 23: a hookwrapper used to be called as a formatter; its generator was
    # "the first answer", dropped as a non-string, and the generic result was lost with it
    log: list = []

    class Wrapper:
        @hookimpl(hookwrapper=True)
        def sqz_format(self, request):
            log.append("wrapper before")
            outcome = yield
            log.append(f"wrapper saw {outcome.get_result()!r}")

    named = [("generic", formatter("generic", log, "GENERIC\n", trylast=True)), ("wrap", Wrapper()),
             ("other", formatter("other", log))]
    (want, want_log), (got, got_log) = both(monkeypatch, "sqz_format", named, log, request=request())
    assert (got, got_log) == (want, want_log)
    assert got == "GENERIC\n" and got_log == ["wrapper before", "other", "generic", "wrapper saw 'GENERIC\\n'"]
    # and the answer is the generic formatter's, not the wrapper's
    impls = plugins.implementations("sqz_format", _register(monkeypatch, named))
    assert plugins.call_first(impls, request=request()) == ("generic", "GENERIC\n")


def test_an_old_style_hookwrapper_may_force_a_result(monkeypatch):
    log: list = []

    class Wrapper:
        @hookimpl(hookwrapper=True)
        def sqz_format(self, request):
            outcome = yield
            outcome.force_result(outcome.get_result().lower())

    named = [("generic", formatter("generic", log, "GENERIC\n", trylast=True)), ("wrap", Wrapper())]
    (want, _), (got, _) = both(monkeypatch, "sqz_format", named, log, request=request())
    assert got == want == "generic\n"
    impls = plugins.implementations("sqz_format", _register(monkeypatch, named))
    assert plugins.call_first(impls, request=request()) == ("wrap", "generic\n")  # the wrapper's answer now


def test_new_style_wrappers_nest_in_pluggys_order_and_replace_the_result(monkeypatch):
    log: list = []

    def wrapper(name: str, **opts):
        class W:
            @hookimpl(wrapper=True, **opts)
            def sqz_format(self, request):
                log.append(f"{name} in")
                result = yield
                log.append(f"{name} out")
                return None if result is None else f"{name}({result.strip()})\n"

        return W()

    named = [("generic", formatter("generic", log, "G\n", trylast=True)), ("w1", wrapper("w1")),
             ("w2", wrapper("w2", tryfirst=True)), ("w3", wrapper("w3")), ("w4", wrapper("w4", trylast=True)),
             ("plain", formatter("plain", log, tryfirst=True))]
    (want, want_log), (got, got_log) = both(monkeypatch, "sqz_format", named, log, request=request())
    assert (got, got_log) == (want, want_log)
    assert got == "w2(w3(w1(w4(G))))\n"
    assert got_log[:4] == ["w2 in", "w3 in", "w1 in", "w4 in"] and got_log[4:6] == ["plain", "generic"]


def test_a_wrapper_around_the_collected_safety_verdicts(monkeypatch):
    log: list = []

    class Says:
        def __init__(self, level: str) -> None:
            self.level = level

        @hookimpl
        def sqz_classify_safety(self, request):
            log.append(self.level)
            return Safety(self.level, self.level)

    class DropsAggressive:
        @hookimpl(wrapper=True)
        def sqz_classify_safety(self, request):
            verdicts = yield
            return [v for v in verdicts if v.level != "aggressive"]

    named = [("one", Says("default")), ("two", Says("aggressive")), ("wrap", DropsAggressive())]
    (want, want_log), (got, got_log) = both(monkeypatch, "sqz_classify_safety", named, log, request=request())
    assert [v.level for v in got] == [v.level for v in want] == ["default"]
    assert got_log == want_log == ["aggressive", "default"]


def test_hook_arguments_with_defaults_are_passed_as_pluggy_passes_them(monkeypatch):
    seen = []

    class Dedup:
        @hookimpl
        def sqz_dedup(self, request, digest, unknown_but_optional="default", session="none"):
            seen.append((digest, unknown_but_optional, session))

    named = [("dedup", Dedup())]
    kwargs = dict(request=request(), digest="d", session="s", store=None, data=b"x")
    both(monkeypatch, "sqz_dedup", named, [], **kwargs)
    assert seen[0] == seen[1] == ("d", "default", "s")


def test_the_builtin_is_described_as_pluggy_reads_it():
    from sqz_core import builtin

    pm = _pluggy([("builtin", builtin)])
    assert plugins._differs_from_pluggy(pm, builtin, plugins.builtin_record()) is None


# -- where sqz fails open on purpose -------------------------------------------------------------
@pytest.mark.parametrize("bad", [b"bytes\n", {"not": "text"}, "x" * 10_000], ids=["bytes", "dict", "longer"])
def test_a_bad_answer_is_ignored_with_one_warning_and_the_next_answers(monkeypatch, capsys, bad):
    # issue 27: a non-string, or a "compressed" text longer than its input, used to be dropped
    # together with the generic result the next implementation would have given
    log: list = []
    monkeypatch.setattr(plugins, "_reported", set())
    named = [("generic", formatter("generic", log, "GENERIC\n", trylast=True)), ("bad", formatter("bad", log, bad))]
    impls = plugins.implementations("sqz_format", _register(monkeypatch, named))
    for _ in range(2):
        assert plugins.call_first(impls, request=request()) == ("generic", "GENERIC\n")
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("sqz: plugin 'bad' returned ") and "sqz_format; ignored" in err
    if bad == "x" * 10_000:
        assert "10000 characters for an input of 240" in err


def test_a_wrapper_replacing_the_answer_with_a_bad_one_is_ignored(monkeypatch, capsys):
    monkeypatch.setattr(plugins, "_reported", set())

    class Grows:
        @hookimpl(wrapper=True)
        def sqz_format(self, request):
            result = yield
            return result * 1000

    named = [("generic", formatter("generic", [], "GENERIC\n", trylast=True)), ("grows", Grows())]
    impls = plugins.implementations("sqz_format", _register(monkeypatch, named))
    assert plugins.call_first(impls, request=request()) == ("generic", "GENERIC\n")
    assert "plugin 'grows' returned 8000 characters for an input of 240 in sqz_format; ignored" in capsys.readouterr().err


def test_a_raising_implementation_or_wrapper_is_skipped_not_fatal(monkeypatch, capsys):
    # pluggy would raise out of the hook call; sqz reports once and lets the others answer
    monkeypatch.setattr(plugins, "_reported", set())

    class Raises:
        @hookimpl(tryfirst=True)
        def sqz_format(self, request):
            raise ValueError("boom")

    class RaisesAfterYield:
        @hookimpl(wrapper=True)
        def sqz_format(self, request):
            yield
            raise KeyError("late")

    class NeverYields:
        @hookimpl(hookwrapper=True)
        def sqz_format(self, request):
            return
            yield  # a generator function that returns before its yield

    named = [("generic", formatter("generic", [], "GENERIC\n", trylast=True)), ("raises", Raises()),
             ("late", RaisesAfterYield()), ("noyield", NeverYields())]
    impls = plugins.implementations("sqz_format", _register(monkeypatch, named))
    assert plugins.call_first(impls, request=request()) == ("generic", "GENERIC\n")
    err = capsys.readouterr().err.splitlines()
    assert "sqz: plugin 'raises' raised ValueError: boom; ignored" in err
    assert any(line.startswith("sqz: plugin 'late' raised KeyError") for line in err)
    assert "sqz: plugin 'noyield' did not yield in sqz_format; ignored" in err


# -- refused when the index is built ------------------------------------------------------------
BAD_PLUGINS = {
    "misspelled": '''
        from sqz_core import hookimpl
        commands = ("curl",)

        @hookimpl
        def sqz_format(requst):
            raise RuntimeError("a refused plugin was called")
    ''',
    "unknownhook": '''
        from sqz_core import hookimpl
        commands = ("curl",)

        @hookimpl
        def sqz_formatt(request):
            raise RuntimeError("a refused plugin was called")
    ''',
    "notagenerator": '''
        from sqz_core import hookimpl
        commands = ("curl",)

        @hookimpl(wrapper=True)
        def sqz_format(request):
            raise RuntimeError("a refused plugin was called")
    ''',
    "nocommands": '''
        from sqz_core import hookimpl

        @hookimpl
        def sqz_format(request):
            raise RuntimeError("a refused plugin was called")
    ''',
    "nohooks": '''
        commands = ("curl",)

        def sqz_format(request):  # no @hookimpl
            raise RuntimeError("a refused plugin was called")
    ''',
    "raisesatimport": '''
        raise ImportError("this plugin is broken on purpose")
    ''',
}
GOOD_PLUGINS = {
    "wrapsformat": '''
        from sqz_core import hookimpl
        commands = ("curl",)

        @hookimpl(hookwrapper=True)
        def sqz_format(request):
            yield
    ''',
    "optionalunknown": '''
        from sqz_core import hookimpl
        commands = ("curl",)

        @hookimpl(optionalhook=True)
        def sqz_some_future_hook(request):
            return None

        @hookimpl(specname="sqz_format", tryfirst=True)
        def render(request):
            return None
    ''',
}


def add_dist(site: Path, module: str, source: str, entry: str | None = None) -> None:
    (site / module).mkdir(parents=True, exist_ok=True)
    (site / module / "__init__.py").write_text(textwrap.dedent(source))
    info = site / f"sqz_formatters_{module}-1.0.dist-info"
    info.mkdir(exist_ok=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: sqz-formatters-{module}\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(f"[sqz.formatters]\n{entry or module} = {module}\n")


@pytest.fixture
def site(tmp_path):
    site = tmp_path / "site"
    site.mkdir()
    for module, source in {**BAD_PLUGINS, **GOOD_PLUGINS}.items():
        add_dist(site, module, source)
    return site


def sqz(site: Path, *args: str, stdin: bytes = b""):
    # no time budget: the call that rebuilds the index may take seconds on a loaded box, and
    # these tests are about which plugin answers, not about the budget
    env = dict(os.environ, PYTHONPATH=str(site), SQZ_QUIET="1", SQZ_NO_DEDUP="1", SQZ_TIME_BUDGET_MS="0")
    return subprocess.run([sys.executable, "-m", "sqz_core", *args], input=stdin, capture_output=True, env=env,
                          check=False)


EXPECTED_ERRORS = {
    "misspelled": "PluginValidationError: Plugin 'misspelled' for hook 'sqz_format'; hookimpl definition: "
                  "sqz_format(requst); Argument(s) {'requst'} are declared in the hookimpl but can not be found "
                  "in the hookspec",
    "unknownhook": "unknown hook 'sqz_formatt' (not in sqz_core.hookspecs: sqz_detect, sqz_format, "
                   "sqz_classify_safety, sqz_dedup); did you mean 'sqz_format'?",
    "notagenerator": "PluginValidationError: Plugin 'notagenerator' for hook 'sqz_format'; hookimpl definition: "
                     "sqz_format(request); Declared as wrapper=True or hookwrapper=True but function is not a "
                     "generator function",
    "nocommands": "declares no `commands` (the program names it claims, or ('*',) for every output): "
                  "it would never be called",
    "nohooks": "implements no hook (no function marked with sqz_core.hookimpl)",
    "raisesatimport": "ImportError: this plugin is broken on purpose",
}


def test_invalid_plugins_are_errors_in_sqz_plugins_with_their_reason(site):
    r = sqz(site, "plugins", "--refresh", "--json")
    assert r.returncode == 1  # a refused plugin makes the listing fail, loudly
    data = json.loads(r.stdout)
    by_name = {p["name"]: p for p in data["plugins"]}
    for name, reason in EXPECTED_ERRORS.items():
        assert by_name[name]["error"] == reason, name
        assert name not in data["active"]
    for name in GOOD_PLUGINS:
        assert by_name[name]["error"] is None and name in data["active"]
    # each refusal was said once on stderr when the index was built
    for name in EXPECTED_ERRORS:
        assert r.stderr.decode().count(f"plugin {name!r} ") == 1, name
    text = sqz(site, "plugins")
    assert text.returncode == 1
    lines = text.stdout.decode().splitlines()
    for name, reason in EXPECTED_ERRORS.items():
        assert f"{name:<14} error: {reason}  (sqz-formatters-{name} 1.0)" in lines
    assert any(line.startswith("wrapsformat    on ") for line in lines)


JSON_FIXTURE = next(p for p in ROOT.rglob("h2_npm_view_chalk_json.txt") if "fixtures" in p.parts)


def test_refused_plugins_are_never_called_and_a_hookwrapper_keeps_the_json_kind(site, tmp_path):
    # the answer sqz gives a real JSON output with none of these plugins installed...
    data = JSON_FIXTURE.read_bytes()
    empty = tmp_path / "empty"
    empty.mkdir()
    alone = sqz(empty, "compress", "--cmd", "curl -s https://pkgs.example.org/chalk", stdin=data)
    assert alone.returncode == 0 and len(alone.stdout) < len(data) and b"[sqz expand " in alone.stdout  # JSON kind
    # ...is the answer with all of them installed: the hookwrapper lets the JSON kind answer, and
    # the refused ones (which raise if called) are not called on this call or the next
    for _ in range(2):
        r = sqz(site, "compress", "--cmd", "curl -s https://pkgs.example.org/chalk", stdin=data)
        assert r.returncode == 0
        assert r.stdout == alone.stdout
        assert b"raised" not in r.stderr and b"a refused plugin was called" not in r.stderr


def test_fixing_a_plugin_rebuilds_the_index_and_puts_it_on(tmp_path):
    site = tmp_path / "site"
    site.mkdir()
    add_dist(site, "misspelled", BAD_PLUGINS["misspelled"])
    first = {p["name"]: p for p in json.loads(sqz(site, "plugins", "--json").stdout)["plugins"]}
    assert first["misspelled"]["error"].startswith("PluginValidationError")
    fixed = BAD_PLUGINS["misspelled"].replace("requst", "request").replace(
        'raise RuntimeError("a refused plugin was called")', 'return "FIXED\\n"')
    (site / "misspelled" / "__init__.py").write_text(textwrap.dedent(fixed))
    os.utime(site / "misspelled" / "__init__.py", (1, 1))  # a different mtime, whatever the clock's resolution
    again = json.loads(sqz(site, "plugins", "--json").stdout)  # no --refresh: the edit is noticed
    assert {p["name"]: p for p in again["plugins"]}["misspelled"]["error"] is None
    assert "misspelled" in again["active"]
    out = sqz(site, "compress", "--cmd", "curl x", stdin=b"a line of output\n" * 50)
    assert out.stdout.startswith(b"FIXED\n")


def test_a_bad_answer_from_an_installed_plugin_keeps_the_generic_result(tmp_path):
    data = JSON_FIXTURE.read_bytes()
    empty = tmp_path / "empty"
    empty.mkdir()
    alone = sqz(empty, "compress", "--cmd", "curl -s https://pkgs.example.org/chalk", stdin=data)
    site = tmp_path / "site"
    site.mkdir()
    add_dist(site, "grows", '''
        from sqz_core import hookimpl
        commands = ("curl",)

        @hookimpl
        def sqz_format(request):
            return request.text + "and a note nobody asked for\\n"
    ''')
    add_dist(site, "notastring", '''
        from sqz_core import hookimpl
        commands = ("curl",)

        @hookimpl(tryfirst=True)
        def sqz_format(request):
            return request.text.encode()
    ''')
    r = sqz(site, "compress", "--cmd", "curl -s https://pkgs.example.org/chalk", stdin=data)
    assert r.returncode == 0 and r.stdout == alone.stdout  # the JSON kind's answer, as without them
    n = len(data.decode())
    assert r.stderr.decode().splitlines() == [
        "sqz: plugin 'notastring' returned a bytes, not a str in sqz_format; ignored",
        f"sqz: plugin 'grows' returned {n + 28} characters for an input of {n} in sqz_format; ignored"]


def test_what_is_not_an_exception_passes_through_dispatch(monkeypatch):
    # a time budget that abandons a call (from a signal handler, say) raises a BaseException: the
    # dispatch only skips a plugin's own errors (Exception), never that, and resumes no wrapper
    class OutOfTime(BaseException):
        pass

    resumed = []

    class Slow:
        @hookimpl
        def sqz_format(self, request):
            raise OutOfTime()

    class Wrapper:
        @hookimpl(wrapper=True)
        def sqz_format(self, request):
            result = yield
            resumed.append(result)
            return result

    named = [("generic", formatter("generic", [], "GENERIC\n", trylast=True)), ("slow", Slow()), ("wrap", Wrapper())]
    impls = plugins.implementations("sqz_format", _register(monkeypatch, named))
    with pytest.raises(OutOfTime):
        plugins.call_first(impls, request=request())
    assert resumed == []


def test_firstresult_hooks_are_the_specs_own():
    pm = _pluggy([])
    declared = {name for name in plugins.HOOKS if getattr(pm.hook, name).spec.opts.get("firstresult")}
    assert plugins.FIRSTRESULT == declared
    # what the dispatch does not reproduce must not appear in the specs unnoticed
    for name in plugins.HOOKS:
        opts = getattr(pm.hook, name).spec.opts
        assert not opts.get("historic") and not opts.get("warn_on_impl") and not opts.get("warn_on_impl_args"), name
    assert set(plugins.HOOKS) == {n for n in dir(hookspecs) if n.startswith("sqz_")}


def test_installed_packs_are_called_in_pluggys_order_for_every_program():
    index = plugins.load_index()
    pm = plugins.plugin_manager(index)
    programs = {None} | {c for rec in plugins.enabled(index["plugins"]) for c in rec["commands"] if c != "*"}
    for program in sorted(programs, key=str):
        records = [plugins.builtin_record()] + plugins.for_program(index, program)
        wanted = {r["name"] for r in records}
        for hook in plugins.HOOKS:
            fast = [(i.plugin, i.func.__name__) for i in plugins.implementations(hook, records)]
            slow = [(pm.get_name(h.plugin), h.function.__name__) for h in reversed(getattr(pm.hook, hook).get_hookimpls())]
            assert fast == [s for s in slow if s[0] in wanted], (program, hook)


def test_one_module_under_two_entry_names_is_called_once(tmp_path):
    site = tmp_path / "site"
    site.mkdir()
    add_dist(site, "twonames", GOOD_PLUGINS["wrapsformat"], entry="first")
    info = site / "sqz_formatters_alias-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: sqz-formatters-alias\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[sqz.formatters]\nsecond = twonames\n")
    data = json.loads(sqz(site, "plugins", "--json").stdout)
    by_name = {p["name"]: p for p in data["plugins"]}
    assert by_name["first"]["error"] is None
    assert by_name["second"]["error"] == "the same object as plugin 'first' (one plugin, two entry points)"
